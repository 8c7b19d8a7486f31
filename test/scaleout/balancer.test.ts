/**
 * G6 with real processes: two `toolsearch serve --session-store redis://…` replicas behind a
 * real haproxy (round robin, no stickiness), the official SDK client, and one replica SIGKILLed
 * in the middle of calls.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { freePort, redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';
import { haproxyUnavailable, startHaproxy, type TestHaproxy } from './haproxy.js';
import { fixtureConfig, spawnReplica, type ReplicaProcess } from './replicas.js';

const skipReason = redisUnavailable() ?? haproxyUnavailable();
if (skipReason) console.log(skipReason);

describe.skipIf(skipReason !== undefined)('G6: serve replicas behind haproxy', () => {
  let redis: TestRedis;
  let replicas: ReplicaProcess[] = [];
  let balancer: TestHaproxy;
  let client: TestClient;

  beforeAll(async () => {
    redis = await startRedis();
    // The growing list: the session's discoveries show in its tools/list on whichever replica answers.
    const config = fixtureConfig({ toolList: 'growing' });
    const ports = [await freePort(), await freePort()];
    replicas = await Promise.all(ports.map((port) => spawnReplica(config, redis.url, port)));
    balancer = await startHaproxy(
      await freePort(),
      ports.map((p) => `127.0.0.1:${p}`),
    );
    client = await connectClient(new StreamableHTTPClientTransport(new URL(balancer.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await balancer?.stop();
    await Promise.allSettled(replicas.map((r) => r.kill()));
    await redis?.stop();
  });

  it('G6/G3: a session served round robin by both replicas keeps its discoveries on every request', async () => {
    await client.call('tool_search', { query: 'select:mcp__fx__add,mcp__fx__sleep' });
    for (let i = 0; i < 20; i++) expect((await client.call('mcp__fx__add', { a: i, b: 1 })).text).toBe(String(i + 1));
    expect(await client.toolNames()).toEqual(expect.arrayContaining(['mcp__fx__add', 'mcp__fx__sleep']));
    // Both replicas served the session (round robin, no stickiness).
    for (const replica of replicas) expect(replica.stderr()).toMatch(/session .* (opened|resumed)/);
  });

  it('G6: a replica killed mid-call fails only the calls it held; every later request of the session is answered', async () => {
    const inFlight = Array.from({ length: 6 }, () =>
      client.client.callTool({ name: 'mcp__fx__sleep', arguments: { ms: 3000 } }, undefined, { timeout: 8000 }).then(
        () => 'ok' as const,
        (error: unknown) => error,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await replicas[0]!.kill();
    const outcomes = await Promise.all(inFlight);
    const ok = outcomes.filter((o) => o === 'ok').length;
    // Round robin put some calls on each replica; only those on the killed one fail. haproxy answers
    // 502 when the replica dies before its answer began; when the replica had already started its
    // streamed (SSE) answer, haproxy can only close the connection and the client's fetch fails.
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(outcomes.length);
    for (const failure of outcomes.filter((o) => o !== 'ok'))
      expect(String(failure)).toMatch(/502|Bad Gateway|fetch failed|terminated/i);
    // haproxy retries connection failures on the other replica until its health check gives up on the dead one.
    for (let i = 0; i < 10; i++) expect((await client.call('mcp__fx__add', { a: i, b: 2 })).text).toBe(String(i + 2));
    expect(await client.toolNames()).toEqual(expect.arrayContaining(['mcp__fx__add', 'mcp__fx__sleep']));
  });
});
