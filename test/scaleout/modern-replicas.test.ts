/**
 * G8 scale-out: a 2026-07-28 client needs no session, so two `toolsearch serve` replicas behind a
 * real haproxy (round robin, no stickiness) with NO session store serve it across replicas:
 * every request — list, search, call — may land on either, and none fails.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../faults/redis.js';
import { haproxyUnavailable, startHaproxy, type TestHaproxy } from './haproxy.js';
import { fixtureConfig, spawnReplica, type ReplicaProcess } from './replicas.js';

const skipReason = haproxyUnavailable();
if (skipReason) console.log(skipReason);

describe.skipIf(skipReason !== undefined)('G8: stateless replicas behind haproxy, no session store', () => {
  let replicas: ReplicaProcess[] = [];
  let balancer: TestHaproxy;
  let client: Client;

  beforeAll(async () => {
    const config = fixtureConfig();
    const ports = [await freePort(), await freePort()];
    replicas = await Promise.all(ports.map((port) => spawnReplica(config, undefined, port)));
    balancer = await startHaproxy(
      await freePort(),
      ports.map((p) => `127.0.0.1:${p}`),
    );
    client = new Client({ name: 'pinned', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await balancer?.stop();
    await Promise.allSettled(replicas.map((r) => r.kill()));
  });

  it('G8: a pinned 2026 client lists, searches and calls round robin across both replicas without a failed call', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.slice(0, 2)).toEqual(['tool_search', 'call_tool']);
    const found = await client.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__fx__add' } });
    expect(JSON.stringify(found.content)).toContain('mcp__fx__add');
    for (let i = 0; i < 20; i++) {
      const direct = await client.callTool({ name: 'mcp__fx__add', arguments: { a: i, b: 1 } });
      expect(direct.isError).toBeFalsy();
      expect(JSON.stringify(direct.content)).toContain(String(i + 1));
      const through = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'mcp__fx__add', arguments: { a: i, b: 2 } },
      });
      expect(JSON.stringify(through.content)).toContain(String(i + 2));
    }
    // Round robin, no stickiness: both replicas served calls of this one client.
    for (const replica of replicas) expect(replica.stderr()).toContain('2026-07-28 request: tools/call');
  });
});
