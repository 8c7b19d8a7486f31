import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { waitFor } from '../fixtures/wait.js';
import { alphaAndBetaListed, capableClient, type CapableClient } from './fidelity-clients.js';

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/**
 * G4 routing of server → client requests over one shared upstream connection per server, with
 * concurrent HTTP sessions; list_changed forwarding; an upstream dying mid-request.
 */
describe('G4 routing and isolation: concurrent sessions over Streamable HTTP, two server-everything upstreams', () => {
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let a: CapableClient;
  let b: CapableClient;
  /** A client that declares no capabilities at all. */
  let plain: Client;

  beforeAll(async () => {
    stack = await createGatewayFromConfig({
      config: parseHubConfig(
        { mcpServers: { alpha: referenceServerConfig('everything'), beta: referenceServerConfig('everything') } },
        'test',
      ),
      // Every tool callable at once; no grace for ended calls (test/faults/isolation.test.ts covers it),
      // so each case here sees only the calls it makes.
      gateway: { mode: 'never', attributionGraceMs: 0 },
      hub: { reconnect: { initialDelayMs: 50, maxAttempts: 3 } },
    });
    http = await startHttpGateway(stack.gateway, { port: 0 });
    await stack.hub.settled();
    const transport = () => new StreamableHTTPClientTransport(new URL(http.url));
    [a, b] = await Promise.all([capableClient('A', transport()), capableClient('B', transport())]);
    plain = new Client({ name: 'plain', version: '1.0.0' });
    await plain.connect(transport());
    // Both upstreams up (settled() also returns after a failed first attempt), with their conditional tools.
    const conditional = ['mcp__alpha__trigger-sampling-request', 'mcp__beta__trigger-sampling-request'];
    await waitFor(
      async () => {
        const names = new Set((await a.client.listTools()).tools.map((t) => t.name));
        return conditional.every((name) => names.has(name));
      },
      'conditional tools of alpha and beta',
      30_000,
    );
    await waitFor(() => alphaAndBetaListed(a.client), 'the resources and prompts of alpha and beta', 30_000);
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close(), plain?.close()]);
    await http?.close();
    await stack?.close();
  });

  it('G4: two sessions sampling at once through different servers each answer their own request', async () => {
    const [fromA, fromB] = await Promise.all([
      a.call('mcp__alpha__trigger-sampling-request', { prompt: 'question of A' }),
      b.call('mcp__beta__trigger-sampling-request', { prompt: 'question of B' }),
    ]);
    expect(fromA.text).toContain('sampled by A');
    expect(fromB.text).toContain('sampled by B');
    expect(a.sampled.join()).not.toContain('question of B');
    expect(b.sampled.join()).not.toContain('question of A');
  });

  it('G4: with two sessions in flight on one server, a sampling request is refused with a clear error, never guessed', async () => {
    const sampledBefore = a.sampled.length + b.sampled.length;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const long = a.client.callTool(
      { name: 'mcp__alpha__trigger-long-running-operation', arguments: { duration: 3, steps: 6 } },
      undefined,
      { onprogress: () => running() },
    );
    // Once A's call is running upstream (its first progress), B causes a sampling request on the same server.
    await started;
    const refused = await b.call('mcp__alpha__trigger-sampling-request', { prompt: 'whose?' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /cannot route sampling\/createMessage from "alpha": requests of 2 client sessions are in flight/,
    );
    expect(a.sampled.length + b.sampled.length).toBe(sampledBefore);
    expect((await long).isError).toBeFalsy();
  });

  it('G4: a session whose client lacks sampling gets a clear error at once', async () => {
    const result = await plain.callTool({
      name: 'mcp__alpha__trigger-sampling-request',
      arguments: { prompt: 'no sampling here' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/does not support sampling/);
  });

  it('G4: a session that closes releases its subscriptions: the last holder gone, the server is unsubscribed', async () => {
    const c = await capableClient('C', new StreamableHTTPClientTransport(new URL(http.url)));
    const uri = (await c.client.listResources()).resources.find((r) =>
      r.uri.startsWith('demo://resource/static/document/'),
    )!.uri;
    await c.client.subscribeResource({ uri });
    expect(stack.gateway.proxy.subscriptions.recipients('alpha', uri).map((r) => r.sessionId)).toHaveLength(1);
    await a.client.setLoggingLevel('info');
    const logsBefore = a.logs.length;
    // Closing the HTTP session (DELETE) ends it on the gateway, which unsubscribes upstream.
    await (c.client.transport as StreamableHTTPClientTransport).terminateSession();
    await c.close();
    await waitFor(() => stack.gateway.proxy.subscriptions.recipients('alpha', uri).length === 0, 'the release');
    // G5: server-everything logs that unsubscribe; it was caused by C, so A never sees it.
    await a.call('mcp__alpha__echo', { message: 'after' });
    expect(a.logs.slice(logsBefore).some((l) => String(l.data).includes(uri))).toBe(false);
  });

  it('G4: an upstream resources/list_changed reaches sessions, and the new resource is listed and readable', async () => {
    const before = a.listChanged.resources;
    const name = `note-${Date.now()}.txt`;
    await a.call('mcp__alpha__gzip-file-as-resource', { name, data: 'data:text/plain;base64,aGVsbG8=' });
    await waitFor(() => a.listChanged.resources > before && b.listChanged.resources > 0, 'resources/list_changed');
    const listed = await waitFor(
      async () => (await b.client.listResources()).resources.find((r) => r.uri.endsWith(name)),
      'the session resource',
    );
    expect((await b.client.readResource({ uri: listed.uri })).contents).toHaveLength(1);
  });

  it('G4: an upstream that dies mid-request fails the pending call with a clear error; its prompts leave and return (list_changed)', async () => {
    const pid = stack.hub.status().find((s) => s.server === 'beta')?.pid;
    expect(pid).toBeDefined();
    const promptsChanged = a.listChanged.prompts;
    // B holds a subscription on beta's copy of a document (an alias URI: alpha lists the same one).
    const doc = (await b.client.listResources()).resources.find((r) =>
      r.uri.startsWith('toolsearch://beta/demo://resource/static/document/'),
    )!.uri;
    await b.client.subscribeResource({ uri: doc });
    let killed = false;
    const pending = a.client.callTool(
      { name: 'mcp__beta__trigger-long-running-operation', arguments: { duration: 30, steps: 30 } },
      undefined,
      {
        onprogress: () => {
          if (!killed) process.kill(pid!, 'SIGKILL');
          killed = true;
        },
      },
    );
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/MCP server "beta" failed to run "trigger-long-running-operation".*Connection closed/);
    await waitFor(() => a.listChanged.prompts > promptsChanged, 'prompts/list_changed after the drop');
    await waitFor(
      async () => (await a.client.listPrompts()).prompts.some((p) => p.name === 'beta__simple-prompt'),
      'beta back',
      20_000,
    );
    // The subscription was made again on the new upstream session; updates reach B under its alias, not A.
    await waitFor(async () => !(await b.call('mcp__beta__toggle-subscriber-updates')).isError, 'beta tools back');
    await waitFor(() => b.updates.includes(doc), 'resources/updated after reconnect', 15_000);
    expect(a.updates).not.toContain(doc);
    await b.call('mcp__beta__toggle-subscriber-updates');
  }, 45_000);
});
