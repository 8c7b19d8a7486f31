/** G12 — the pure rules of cache hints: upstream TTLs bounded, the gateway's TTLs and its cacheScope rule. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import {
  cacheScopeFor,
  DEFAULT_LIST_TTL,
  listTtlMs,
  readTtlMs,
  withCacheHint,
} from '../../src/gateway/tools/cache-hints.js';
import { ListTtlTimers, pageTtlMs, relistIntervalMs, walkTtlMs, withJitter } from '../../src/mcp/list-ttl.js';

const limits = { listTtlFloorMs: 30_000, listTtlMaxMs: 86_400_000 };

describe('G12 upstream ttlMs, bounded (G5)', () => {
  it('G12: a page TTL is a non-negative safe integer or nothing', () => {
    expect(pageTtlMs(5_000)).toBe(5_000);
    expect(pageTtlMs(0)).toBe(0);
    for (const bad of [-1, 1.5, '5000', null, undefined, Number.NaN, 2 ** 60, Number.POSITIVE_INFINITY])
      expect(pageTtlMs(bad)).toBeUndefined();
  });

  it('G12: a list is as fresh as its stalest page; a page without a TTL makes it immediately stale', () => {
    expect(walkTtlMs([60_000, 5_000])).toBe(5_000);
    expect(walkTtlMs([60_000, undefined])).toBe(0);
    expect(walkTtlMs([])).toBeUndefined();
  });

  it('G5: 0 or none re-lists only on list_changed; short ones wait the floor; huge ones the max', () => {
    expect(relistIntervalMs(undefined, limits)).toBeUndefined();
    expect(relistIntervalMs(0, limits)).toBeUndefined();
    expect(relistIntervalMs(1, limits)).toBe(30_000);
    expect(relistIntervalMs(120_000, limits)).toBe(120_000);
    expect(relistIntervalMs(1e15, limits)).toBe(86_400_000);
    expect(DEFAULT_LIMITS.listTtlMaxMs).toBeLessThan(2 ** 31 - 1); // a Node timer past 2^31-1 ms fires at once
    expect(withJitter(100_000, 86_400_000, () => 1)).toBe(110_000);
    expect(withJitter(86_400_000, 86_400_000, () => 1)).toBe(86_400_000);
  });

  it('G12: one timer per server and list kind, replaced on each list, gone with its server', () => {
    const timers = new ListTtlTimers(limits);
    timers.arm('a', 'tools', 45_000, () => undefined);
    timers.arm('a', 'tools', 40_000, () => undefined);
    timers.arm('b', 'tools', 90_000, () => undefined);
    timers.arm('b', 'prompts', 0, () => undefined);
    expect(timers.size).toBe(2);
    expect(timers.shortestMs('tools')).toBe(40_000);
    expect(timers.shortestMs('tools', new Set(['b']))).toBe(90_000);
    expect(timers.shortestMs('prompts')).toBeUndefined();
    timers.forget('a');
    expect(timers.shortestMs('tools')).toBe(90_000);
    timers.clear();
    expect(timers.size).toBe(0);
  });
});

describe('G12 the gateway’s hints', () => {
  it('G12: connecting → short TTL, settled → long, never past an upstream’s own', () => {
    expect(listTtlMs({ connecting: true })).toBe(DEFAULT_LIST_TTL.connectingMs);
    expect(listTtlMs({ connecting: false })).toBe(DEFAULT_LIST_TTL.settledMs);
    expect(listTtlMs({ connecting: false, upstreamTtlMs: 30_000 })).toBe(30_000);
    expect(listTtlMs({ connecting: true, upstreamTtlMs: 30_000 })).toBe(DEFAULT_LIST_TTL.connectingMs);
    expect(DEFAULT_LIST_TTL.connectingMs).toBeLessThan(DEFAULT_LIST_TTL.settledMs);
  });

  it('G12: a read keeps the upstream’s TTL up to the settled one; none → 0', () => {
    expect(readTtlMs(5_000)).toBe(5_000);
    expect(readTtlMs(1e15)).toBe(DEFAULT_LIST_TTL.settledMs);
    expect(readTtlMs(undefined)).toBe(0);
    expect(readTtlMs(-3)).toBe(0);
  });

  it('G12: public only when nothing but the shared catalog decides the result', () => {
    const shared = { endpointViews: false, session: false, upstreamContent: false };
    expect(cacheScopeFor(shared)).toBe('public');
    expect(cacheScopeFor({ ...shared, endpointViews: true })).toBe('private');
    expect(cacheScopeFor({ ...shared, session: true })).toBe('private');
    expect(cacheScopeFor({ ...shared, upstreamContent: true })).toBe('private');
  });

  it('G12: an input_required result is not stamped (only a complete result is cacheable)', () => {
    const hint = { ttlMs: 5, cacheScope: 'public' as const };
    expect(withCacheHint({ tools: [] }, hint)).toEqual({ tools: [], ttlMs: 5, cacheScope: 'public' });
    const asking = { resultType: 'input_required', inputRequests: {} };
    expect(withCacheHint(asking, hint)).toBe(asking);
  });
});
