/**
 * E5 with a shared session store: the working set's batch unload removes names from the session's
 * Redis record and keeps the others in load order (a real redis-server; skipped without one).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionGoneError } from '../../src/gateway/errors.js';
import { RedisSessionStore } from '../../src/gateway/redis/store.js';
import { redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';

const skip = redisUnavailable();

describe.skipIf(skip !== undefined)('E5 working set in a Redis session store', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('removeDiscovered drops names and keeps the rest in load order; a gone session is an error', async () => {
    const store = new RedisSessionStore({ client, prefix: `ws-${Date.now()}:` });
    await store.open('s');
    await store.addDiscovered('s', ['a', 'b', 'c', 'd']);
    await store.removeDiscovered('s', ['b', 'd']);
    expect((await store.get('s'))?.discovered).toEqual(['a', 'c']);
    expect(await store.addDiscovered('s', ['b'])).toEqual(['b']);
    expect((await store.get('s'))?.discovered).toEqual(['a', 'c', 'b']);
    await store.delete('s');
    await expect(store.removeDiscovered('s', ['a'])).rejects.toBeInstanceOf(SessionGoneError);
  });
});
