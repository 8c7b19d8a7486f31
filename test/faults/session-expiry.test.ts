/**
 * G3 fault: HTTP clients that vanish without DELETE. Their sessions (transport, gateway server,
 * session record) are closed after the idle timeout instead of piling up; a client that ends its
 * session with DELETE frees everything at once.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/core/tool.js';
import { Catalog } from '../../src/core/catalog.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { InMemorySessionStore } from '../../src/gateway/sessions/store.js';
import { connectClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';

describe('G3: HTTP sessions do not leak', () => {
  const sessions = new InMemorySessionStore();
  let gateway: ToolsearchGateway;
  let http: RunningHttpGateway;

  beforeAll(async () => {
    const catalog = new Catalog([
      defineTool({ name: 'hello', description: 'Say hello.', defer: true, handler: () => 'hello!' }),
    ]);
    gateway = new ToolsearchGateway({ catalog, sessions });
    http = await startHttpGateway(gateway, { idleSessionTimeoutMs: 300 });
  });
  afterAll(async () => {
    await http?.close();
    await gateway?.close();
  });

  it('G3: 20 clients that vanish without DELETE are closed after the idle timeout', async () => {
    for (let i = 0; i < 20; i++) {
      const client = await connectClient(new StreamableHTTPClientTransport(new URL(http.url)));
      await client.call('tool_search', { query: 'select:hello' });
      expect((await client.call('hello')).text).toBe('hello!');
      await client.close(); // no terminateSession(): the server is never told
    }
    expect(http.sessionCount()).toBeGreaterThan(0);
    await waitFor(
      () => http.sessionCount() === 0 && gateway.liveSessions === 0 && sessions.size === 0,
      'idle sessions to be closed',
      10_000,
    );
  });

  it('G3: a client that sends DELETE frees its session at once', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(http.url));
    const client = await connectClient(transport);
    await client.call('tool_search', { query: 'select:hello' });
    expect(http.sessionCount()).toBe(1);
    await transport.terminateSession();
    await client.close();
    await waitFor(
      () => http.sessionCount() === 0 && gateway.liveSessions === 0 && sessions.size === 0,
      'the session to be freed',
      2_000,
    );
  });
});
