/**
 * G6/G8 — a 2026-07-28 call that asks the client something (`input_required`) behind a balancer
 * without stickiness: the call is parked on the replica that started it, and the client's retry
 * lands on the other one (strict round robin: a call and its retry never share a replica). With a
 * shared store, that replica relays the retry over the bus to the one holding the call and
 * answers with its outcome (and the progress the upstream sends meanwhile).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';
import { toolCallRequest } from '../fixtures/raw-http.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import { eraClient } from '../gateway/eras-clients.js';
import { balancedFetch, type Replica, roundRobin, startReplica } from './replicas.js';

const skip = redisUnavailable() !== undefined;

describe.skipIf(skip)('G6/G8: input_required retries relayed between replicas', () => {
  let redis: TestRedis;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    redis = await startRedis();
    const config = join(mkdtempSync(join(tmpdir(), 'ts-parked-relay-')), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { peer: { command: process.execPath, args: [PEER_SERVER] } } }));
    [a, b] = await Promise.all([startReplica(config, redis.url), startReplica(config, redis.url)]);
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await redis?.stop();
  });

  it('G6/G8: the retry of a parked call, landing on the other replica, gets the call’s outcome', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(a.url), {
      fetch: balancedFetch(roundRobin([a.url, b.url])),
    });
    const c = await eraClient('pin', transport);
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await c.call('mcp__peer__ask', { message: `question ${i}` });
        expect(answer.isError, answer.text).toBeFalsy();
        expect(answer.text).toContain('user of pin');
      }
      // With a progress token: the upstream's ticks after the answer cross back with the result.
      const ticks: number[] = [];
      const withProgress = await c.client.callTool(
        { name: 'mcp__peer__ask', arguments: { message: 'question 3' } },
        // (The client's own MRTR driver reports a tick of its own per round, without a total.)
        { onprogress: (p) => p.total === 3 && ticks.push(p.progress) },
      );
      expect(JSON.stringify(withProgress.content)).toContain('user of pin');
      expect(ticks).toEqual([1, 2, 3]);
      expect(c.elicited).toEqual(['question 0', 'question 1', 'question 2', 'question 3']);
      // Every retry went astray and was relayed (calls start on one replica, retries reach the other).
      const relayed = [a, b].flatMap((r) => r.logs.filter((line) => line.includes('relayed a retry')));
      expect(relayed).toHaveLength(4);
    } finally {
      await c.close();
    }
  });

  it('G6/G8: a retry whose call no replica holds gets a clear error to make the call again', async () => {
    const { headers, body } = toolCallRequest('mcp__peer__ask', { message: 'lost' }, 'modern');
    const retry = JSON.parse(body) as { params: Record<string, unknown> };
    retry.params['requestState'] = 'no-such-call';
    retry.params['inputResponses'] = { q1: { action: 'accept', content: { name: 'x' } } };
    const answer = await (await fetch(b.url, { method: 'POST', headers, body: JSON.stringify(retry) })).text();
    expect(answer).toMatch(/Unknown or expired requestState: no gateway replica holds the call/);
  });
});
