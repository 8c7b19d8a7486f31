/**
 * G3 fault: HTTP clients that vanish without DELETE. Their sessions (transport, gateway server,
 * session record) are closed after the idle timeout instead of piling up; a client that ends its
 * session with DELETE frees everything at once.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/core/tool.js';
import { Catalog } from '../../src/core/catalog.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { startHttpGateway } from '../../src/gateway/transports/http/server.js';
import { InMemorySessionStore } from '../../src/gateway/sessions/store.js';
import { connectClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';
import { silentLogger } from '../../src/util/log.js';

/**
 * Nothing here is timed: the idle timeout is short where sessions must expire (and the log says
 * each expired because it was idle), and ten minutes where only DELETE may end one, so how fast a
 * busy machine runs the clients never decides the outcome. (A client's open GET stream keeps its
 * session from idling while it is connected; 2 s covers the moment before that stream opens.)
 */
async function gatewayWith(idleSessionTimeoutMs: number) {
  const sessions = new InMemorySessionStore();
  const catalog = new Catalog([
    defineTool({ name: 'hello', description: 'Say hello.', defer: true, handler: () => 'hello!' }),
  ]);
  const gateway = new ToolsearchGateway({ catalog, sessions });
  const idled = new Set<string>();
  const logger = {
    ...silentLogger,
    debug: (line: string) => {
      const id = /^session (\S+) idle: closing it$/.exec(line)?.[1];
      if (id) idled.add(id);
    },
  };
  const http = await startHttpGateway(gateway, { idleSessionTimeoutMs, logger });
  const freed = () => http.sessionCount() === 0 && gateway.liveSessions === 0 && sessions.size === 0;
  const close = async () => {
    await http.close();
    await gateway.close();
  };
  return { gateway, http, idled, freed, close };
}

describe('G3: HTTP sessions do not leak', () => {
  it('G3: 20 clients that vanish without DELETE are closed after the idle timeout', async () => {
    const served = await gatewayWith(2_000);
    try {
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const transport = new StreamableHTTPClientTransport(new URL(served.http.url));
        const client = await connectClient(transport);
        await client.call('tool_search', { query: 'select:hello' });
        expect((await client.call('hello')).text).toBe('hello!');
        ids.add(transport.sessionId!);
        await client.close(); // no terminateSession(): the server is never told
      }
      await waitFor(() => served.freed(), 'idle sessions to be closed', 60_000);
      // Every one of them was closed by the idle sweep, not by anything else.
      expect([...ids].filter((id) => !served.idled.has(id))).toEqual([]);
    } finally {
      await served.close();
    }
  });

  it('G3: a client that sends DELETE frees its session at once', async () => {
    const served = await gatewayWith(10 * 60_000);
    try {
      const transport = new StreamableHTTPClientTransport(new URL(served.http.url));
      const client = await connectClient(transport);
      await client.call('tool_search', { query: 'select:hello' });
      expect(served.http.sessionCount()).toBe(1);
      await transport.terminateSession();
      await client.close();
      // Ten minutes before idle expiry could: only the DELETE frees it.
      await waitFor(() => served.freed(), 'the session to be freed', 60_000);
      expect(served.idled.size).toBe(0);
    } finally {
      await served.close();
    }
  });
});
