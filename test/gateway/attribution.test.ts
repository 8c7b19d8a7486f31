import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttributionTable } from '../../src/gateway/proxy/attribution.js';

describe('G5: attribution of what an upstream sends', () => {
  afterEach(() => void vi.useRealTimers());

  it('G5: one session in flight or recent on a server gets it; two get nothing', () => {
    const table = new AttributionTable<string>(1_000);
    const a = table.begin('s', 'alice', 'a1');
    expect(table.attribute('s')).toMatchObject({ sessionId: 'alice', live: 'a1', sessions: 1 });
    a.end();
    expect(table.attribute('s')).toMatchObject({ sessionId: 'alice', live: undefined, sessions: 1, parked: false });
    table.begin('s', 'bob', 'b1');
    expect(table.attribute('s')).toMatchObject({ sessionId: undefined, sessions: 2 });
  });

  it('G5: ended requests leave after their grace period even when nothing is ever attributed', () => {
    vi.useFakeTimers();
    const table = new AttributionTable<string>(1_000);
    for (let i = 0; i < 100; i++) table.begin('s', `session-${i % 3}`, `call-${i}`).end();
    expect(table.size).toBe(100);
    vi.advanceTimersByTime(1_001);
    expect(table.size).toBe(0);
  });
});

describe('G5/G8: a parked 2026-07-28 call in the attribution table', () => {
  let now = 0;
  const table = () => new AttributionTable<string>({ graceMs: 30_000, parkedMs: 1_000 }, () => now);

  it('G8: a parked call claims for its window only (refused then, as one question at a time), then nothing', () => {
    now = 0;
    const t = table();
    const parked = t.begin('s', 'stateless:p', 'p', false);
    parked.park();
    expect(t.attribute('s')).toMatchObject({ sessionId: 'stateless:p', live: undefined, sessions: 1, parked: true });
    now = 999;
    expect(t.attribute('s').sessions).toBe(1);
    now = 1_000;
    expect(t.attribute('s')).toMatchObject({ sessionId: undefined, sessions: 0 });
    // Still held: its retry makes it a request in flight again, with its channel.
    expect(t.size).toBe(1);
    parked.resume();
    expect(t.attribute('s')).toMatchObject({ sessionId: 'stateless:p', live: 'p', sessions: 1, parked: false });
  });

  it("G5: another session's request on the server is ambiguous within the window and its own after it", () => {
    now = 0;
    const t = table();
    t.begin('s', 'stateless:p', 'p', false).park();
    t.begin('s', 'alice', 'a');
    expect(t.attribute('s')).toMatchObject({ sessionId: undefined, sessions: 2 });
    now = 5_000;
    expect(t.attribute('s')).toMatchObject({ sessionId: 'alice', live: 'a', sessions: 1 });
  });

  it('G8: each new question parks it afresh; one that ends (answered, or dropped unanswered) leaves at once', () => {
    now = 0;
    const t = table();
    const parked = t.begin('s', 'stateless:p', 'p', false);
    parked.park();
    now = 900;
    parked.resume();
    parked.park();
    now = 1_800;
    expect(t.attribute('s').parked).toBe(true);
    parked.end();
    expect(t.size).toBe(0);
    // Ended is final: a late park or resume changes nothing.
    parked.resume();
    expect(t.attribute('s').sessions).toBe(0);
  });
});
