import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The peer server over Streamable HTTP on a free port; resolves to its URL. */
async function httpPeer(json: boolean): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [PEER_SERVER], {
    env: { ...process.env, PEER_HTTP_PORT: '0', ...(json && { PEER_JSON: '1' }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await waitFor(() => /listening (\d+)/.test(out), 'the HTTP peer to listen');
  return { url: `http://127.0.0.1:${/listening (\d+)/.exec(out)![1]}/mcp`, child };
}

/** G5 — an HTTP upstream's messages are capped like stdio ones (upstreamMessageBytes), SSE included. */
describe('G5 size caps for HTTP upstreams', () => {
  const LIMIT = 1024 * 1024;
  let peers: Array<{ url: string; child: ChildProcess }>;
  let gateway: HttpGatewayFixture;
  let client: Client;

  beforeAll(async () => {
    peers = await Promise.all([httpPeer(false), httpPeer(true)]);
    gateway = await httpGateway(
      { sse: { url: peers[0]!.url }, json: { url: peers[1]!.url } },
      { limits: { upstreamMessageBytes: LIMIT }, hub: { reconnect: { initialDelayMs: 50, maxAttempts: 5 } } },
    );
    client = new Client({ name: 'cap', version: '1.0.0' });
    await client.connect(gateway.open());
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    for (const peer of peers ?? []) {
      peer.child.kill();
      if (peer.child.exitCode === null) await once(peer.child, 'exit');
    }
  });

  for (const server of ['sse', 'json'] as const) {
    it(`G5: a ${server === 'sse' ? 'SSE event' : 'JSON response'} past upstreamMessageBytes fails the call with a clear error; the connection is made again`, async () => {
      const small = await client.callTool({ name: `mcp__${server}__huge`, arguments: { bytes: 1_000 } });
      expect(text(small)).toHaveLength(1_000);
      const huge = await client.callTool({ name: `mcp__${server}__huge`, arguments: { bytes: 3 * LIMIT } });
      expect(huge.isError).toBe(true);
      expect(text(huge)).toMatch(
        new RegExp(
          `MCP server "${server}" sent an HTTP (SSE event|response) larger than ${LIMIT} bytes \\(upstreamMessageBytes\\)`,
        ),
      );
      // Recycled: the server is reconnected and answers again.
      await waitFor(
        async () => text(await client.callTool({ name: `mcp__${server}__hold`, arguments: { ms: 0 } })) === 'held',
        `"${server}" back`,
        20_000,
      );
    });
  }
});
