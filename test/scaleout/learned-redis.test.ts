/** C13 with G6: replicas learn together through Redis; concurrent recordings are all kept; forgets reach every replica. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLearnedForget, runLearnedShow } from '../../src/cli/commands/learned.js';
import { RedisLearnedStore } from '../../src/gateway/redis/learned-store.js';
import { Learner } from '../../src/usage/learner.js';
import { redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';

const skip = redisUnavailable() !== undefined;

describe.skipIf(skip)('C13: learned search shared by replicas (Redis stream)', () => {
  let redis: TestRedis;
  const clients: Redis[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await redis?.stop();
  });

  function replica(key: string): Learner {
    const client = new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: false });
    clients.push(client);
    const store = new RedisLearnedStore({ client, key, maxOps: 200_000, display: redis.url });
    return new Learner({ store, saveDelayMs: 60_000, pollMs: 0 });
  }

  const searches = (learner: Learner, tool: string) => learner.summary({ tool })[0]?.searches ?? 0;

  it('C13: 10,000 recordings made concurrently on two replicas are all on both afterwards', async () => {
    const a = replica('t1:learned');
    const b = replica('t1:learned');
    await Promise.all([a.ready, b.ready]);
    const tools = ['mcp__tracker__create_issue', 'mcp__books__invoice', 'mcp__vault__rotate', 'mcp__mail__send'];
    // Interleaved bursts, each replica flushing while the other writes.
    const work = async (learner: Learner, side: string) => {
      for (let burst = 0; burst < 10; burst++) {
        for (let i = 0; i < 500; i++)
          learner.record(`${side} search ${i % 40} for ${tools[i % 4]!.split('__')[2]}`, tools[i % 4]!);
        await learner.flush();
      }
    };
    await Promise.all([work(a, 'left'), work(b, 'right')]);
    await a.flush();
    await b.flush();
    for (const learner of [a, b]) {
      const total = tools.reduce((sum, tool) => sum + searches(learner, tool), 0);
      expect(total).toBe(10_000);
      expect(learner.summary()).toHaveLength(4);
    }
    expect(a.summary()).toEqual(b.summary());
    // A replica that starts later reads the same.
    const late = replica('t1:learned');
    await late.ready;
    expect(late.summary()).toEqual(a.summary());
    await Promise.all([a.close(), b.close(), late.close()]);
  });

  it('C13: a forget on one replica reaches the others, and their earlier unsent recordings do not bring the tool back', async () => {
    const a = replica('t2:learned');
    const b = replica('t2:learned');
    await Promise.all([a.ready, b.ready]);
    a.record('rotate the signing keys', 'mcp__vault__rotate', Date.now() - 5_000);
    await a.flush();
    await b.flush();
    expect(searches(b, 'mcp__vault__rotate')).toBe(1);
    // b records before the forget but sends after it.
    b.record('rotate keys now', 'mcp__vault__rotate', Date.now() - 1_000);
    expect(a.forget('mcp__vault__rotate')).toBe(1);
    await a.flush();
    await b.flush();
    await a.flush();
    expect(searches(a, 'mcp__vault__rotate')).toBe(0);
    expect(searches(b, 'mcp__vault__rotate')).toBe(0);
    // Evidence recorded after the forget counts again, everywhere (later than its millisecond).
    b.record('rotate keys again', 'mcp__vault__rotate', Date.now() + 10);
    await b.flush();
    await a.flush();
    expect(searches(a, 'mcp__vault__rotate')).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('C13: `learned show` / `learned forget --session-store` read and correct what the replicas share', async () => {
    const a = replica('toolsearch:learned');
    await a.ready;
    a.record('rotate the signing keys', 'mcp__vault__rotate', Date.now() - 1_000);
    a.record('send the invoice', 'mcp__books__invoice', Date.now() - 1_000);
    await a.flush();
    const lines: string[] = [];
    await runLearnedShow({ sessionStore: redis.url }, (l) => lines.push(l));
    expect(lines.join('\n')).toMatch(/mcp__vault__rotate: 1 search/);
    await runLearnedForget({ sessionStore: redis.url, tool: 'mcp__vault__rotate' }, (l) => lines.push(l));
    expect(lines.at(-1)).toBe('Forgot what mcp__vault__rotate learned.');
    await a.flush();
    expect(a.summary().map((r) => r.tool)).toEqual(['mcp__books__invoice']);
    await a.close();
  });

  it('C13: garbage in the stream is skipped; the stream is trimmed near maxOps', async () => {
    const client = new Redis({ port: redis.port, host: '127.0.0.1' });
    clients.push(client);
    await client.xadd('t3:learned', '*', 'w', 'intruder', 'o', '{"kind":"add","tool":1}');
    await client.xadd('t3:learned', '*', 'w', 'intruder', 'o', 'not json');
    await client.xadd('t3:learned', '*', 'w', 'intruder');
    const store = new RedisLearnedStore({ client, key: 't3:learned', maxOps: 100, display: redis.url });
    const learner = new Learner({ store, saveDelayMs: 60_000, pollMs: 0 });
    await learner.ready;
    expect(learner.summary()).toEqual([]);
    for (let i = 0; i < 1_000; i++) learner.record(`search ${i % 10} invoices`, 'mcp__books__invoice');
    await learner.flush();
    expect(await client.xlen('t3:learned')).toBeLessThan(400);
    expect(searches(learner, 'mcp__books__invoice')).toBe(1_000);
    await learner.close();
  });
});
