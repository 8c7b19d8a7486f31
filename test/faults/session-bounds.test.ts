import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { waitFor } from '../fixtures/wait.js';

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** G5 — per-session bounds over real HTTP: subscriptions, total call time, failed servers per answer. */
describe('G5 per-session bounds', () => {
  let gateway: HttpGatewayFixture;
  let client: Client;

  beforeAll(async () => {
    const broken = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`gone${i}`, { command: `/nonexistent/toolsearch-server-${i}` }]),
    );
    gateway = await httpGateway(
      { every: referenceServerConfig('everything'), ...broken },
      { limits: { subscriptionsPerSession: 2, callTotalTimeoutMs: 1_500 }, hub: { reconnect: false } },
    );
    client = new Client({ name: 'bounds', version: '1.0.0' });
    await client.connect(gateway.open());
    await waitFor(async () => (await client.listResources()).resources.length >= 3, 'resources of every', 30_000);
  }, 40_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('G5: a session holds at most subscriptionsPerSession subscriptions', async () => {
    const uris = (await client.listResources()).resources.slice(0, 3).map((r) => r.uri);
    await client.subscribeResource({ uri: uris[0]! });
    await client.subscribeResource({ uri: uris[1]! });
    await client.subscribeResource({ uri: uris[1]! }); // the same one again counts once
    await expect(client.subscribeResource({ uri: uris[2]! })).rejects.toThrow(/limit \(subscriptionsPerSession\)/);
    await client.unsubscribeResource({ uri: uris[0]! });
    await client.subscribeResource({ uri: uris[2]! });
  });

  it('G5: a call whose progress never stops ends at callTotalTimeoutMs', async () => {
    let ticks = 0;
    const result = await client
      .callTool(
        { name: 'mcp__every__trigger-long-running-operation', arguments: { duration: 30, steps: 60 } },
        undefined,
        { onprogress: () => ticks++, timeout: 60_000 },
      )
      .catch((error: Error) => ({ isError: true, content: [{ type: 'text' as const, text: error.message }] }));
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/timeout/i);
    expect(ticks).toBeGreaterThan(0);
  });

  it('G5: a search answer names a few failed servers, then "… and N more; see the status page"', async () => {
    await waitFor(() => gateway.stack.hub.catalog.failedServers.length === 8, 'the eight failures', 20_000);
    const answer = text(await client.callTool({ name: 'tool_search', arguments: { query: 'select:nothing_here' } }));
    expect(answer.match(/^- gone\d: /gm) ?? []).toHaveLength(5);
    expect(answer).toContain('- … and 3 more; see the status page');
  });
});

describe('G5 refreshes per server: one in flight plus a dirty flag, a minimum gap', () => {
  const GAP_MS = 300;
  let gateway: HttpGatewayFixture;
  let client: Client;

  beforeAll(async () => {
    const { PEER_SERVER } = await import('../fixtures/servers/index.js');
    gateway = await httpGateway(
      { peer: { command: process.execPath, args: [PEER_SERVER] } },
      { limits: { refreshMinGapMs: GAP_MS } },
    );
    client = new Client({ name: 'flap', version: '1.0.0' });
    await client.connect(gateway.open());
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  /** How many tools/list requests the peer answered (it counts them). */
  const lists = async () => Number(text(await client.callTool({ name: 'mcp__peer__lists', arguments: {} })));
  /** The count once it stops changing across a wait longer than the gap. */
  const quiet = async () => {
    let last = -1;
    return waitFor(async () => {
      const now = await lists();
      const same = now === last;
      last = now;
      if (!same) await new Promise((resolve) => setTimeout(resolve, GAP_MS * 2 + 100));
      return same ? now : undefined;
    }, 'the refreshes to settle');
  };

  it('G5: 500 list_changed in a burst cost at most two re-lists', async () => {
    const before = await lists();
    await client.callTool({ name: 'mcp__peer__flap', arguments: { n: 500 } });
    const settled = await quiet();
    expect(settled - before).toBeGreaterThanOrEqual(1);
    expect(settled - before).toBeLessThanOrEqual(2);
  });

  // Paced past the connection's 50 ms list_changed debounce (the attack: one every 60 ms).
  it('G5: paced list_changed (one every 60 ms) costs at most one re-list per refreshMinGapMs, plus two', async () => {
    const before = await lists();
    const start = performance.now();
    await client.callTool({ name: 'mcp__peer__flap_paced', arguments: { n: 30, everyMs: 60 } });
    // The changes were all sent within `elapsed`; one more refresh may start after the last.
    const elapsed = performance.now() - start;
    const relists = (await quiet()) - before;
    expect(relists).toBeGreaterThanOrEqual(2);
    expect(relists).toBeLessThanOrEqual(Math.floor(elapsed / GAP_MS) + 2);
    expect(relists).toBeLessThan(30);
  });

  // A change every 20 ms, faster than the connection coalesces them (50 ms): a trailing debounce
  // would postpone every refresh until the server stops, leaving its list stale meanwhile.
  it('G5: list_changed faster than the coalescing window still refreshes while it goes on', async () => {
    const before = await lists();
    await client.callTool({ name: 'mcp__peer__flap_paced', arguments: { n: 100, everyMs: 20 } });
    expect((await lists()) - before).toBeGreaterThanOrEqual(2);
    await quiet();
  });
});
