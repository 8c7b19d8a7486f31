/** G6: the notification bus — events from other processes are shape-checked; Redis relays between replicas once. */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { parseBusEvent, type BusEvent } from '../../src/gateway/sessions/bus.js';
import { RedisNotificationBus } from '../../src/gateway/redis/bus.js';
import { waitFor } from '../fixtures/wait.js';
import { redisUnavailable, startRedis } from '../faults/redis.js';

describe('G6: notification bus', () => {
  it('G6: events of unknown shape from the shared channel are dropped, known ones keep only known fields', () => {
    for (const bad of [
      null,
      'x',
      1,
      {},
      { type: 'notify' },
      { type: 'notify', sessionId: 's' },
      { type: 'notify', sessionId: 's', notification: { params: {} } },
      { type: 'ended' },
      { type: 'notify-all', notification: 'x' },
      { type: 'drop-tables', sessionId: 's' },
    ]) {
      expect(parseBusEvent(bad)).toBeUndefined();
    }
    expect(
      parseBusEvent({
        type: 'notify-all',
        notification: { method: 'notifications/tools/list_changed', extra: 1 },
        origin: 'o',
      }),
    ).toEqual({ type: 'notify-all', notification: { method: 'notifications/tools/list_changed' } });
    expect(
      parseBusEvent({ type: 'notify', sessionId: 's', notification: { method: 'm', params: { uri: 'u' } } }),
    ).toEqual({ type: 'notify', sessionId: 's', notification: { method: 'm', params: { uri: 'u' } } });
    expect(parseBusEvent({ type: 'ended', sessionId: 's' })).toEqual({ type: 'ended', sessionId: 's' });
  });

  it.skipIf(redisUnavailable() !== undefined)(
    'G6: over Redis pub/sub each replica gets every event exactly once (its own locally, not echoed); garbage is ignored',
    async () => {
      const redis = await startRedis();
      const clients = Array.from({ length: 4 }, () => new Redis(redis.url));
      const [pubA, subA, pubB, subB] = clients as [Redis, Redis, Redis, Redis];
      const a = new RedisNotificationBus({ publisher: pubA, subscriber: subA, channel: 'test:events' });
      const b = new RedisNotificationBus({ publisher: pubB, subscriber: subB, channel: 'test:events' });
      await Promise.all([a.start(), b.start()]);
      const seen = { a: [] as BusEvent[], b: [] as BusEvent[] };
      a.subscribe((e) => seen.a.push(e));
      b.subscribe((e) => seen.b.push(e));
      try {
        await pubA.publish('test:events', 'not json');
        await pubA.publish('test:events', JSON.stringify({ type: 'notify', sessionId: 7 }));
        a.publish({ type: 'ended', sessionId: 's1' });
        b.publish({ type: 'notify-all', notification: { method: 'notifications/tools/list_changed' } });
        await waitFor(() => seen.a.length === 2 && seen.b.length === 2, 'both events on both replicas');
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(seen.a).toEqual([
          { type: 'ended', sessionId: 's1' },
          { type: 'notify-all', notification: { method: 'notifications/tools/list_changed' } },
        ]);
        expect(seen.b).toHaveLength(2);
      } finally {
        for (const c of clients) c.disconnect();
        await redis.stop();
      }
    },
  );
});
