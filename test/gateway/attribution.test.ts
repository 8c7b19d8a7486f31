import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttributionTable } from '../../src/gateway/proxy/attribution.js';

describe('G5: attribution of what an upstream sends', () => {
  afterEach(() => void vi.useRealTimers());

  it('G5: one session in flight or recent on a server gets it; two get nothing', () => {
    const table = new AttributionTable<string>(1_000);
    const endA = table.begin('s', 'alice', 'a1');
    expect(table.attribute('s')).toMatchObject({ sessionId: 'alice', live: 'a1', sessions: 1 });
    endA();
    expect(table.attribute('s')).toMatchObject({ sessionId: 'alice', live: undefined, sessions: 1 });
    table.begin('s', 'bob', 'b1');
    expect(table.attribute('s')).toMatchObject({ sessionId: undefined, sessions: 2 });
  });

  it('G5: ended requests leave after their grace period even when nothing is ever attributed', () => {
    vi.useFakeTimers();
    const table = new AttributionTable<string>(1_000);
    for (let i = 0; i < 100; i++) table.begin('s', `session-${i % 3}`, `call-${i}`)();
    expect(table.size).toBe(100);
    vi.advanceTimersByTime(1_001);
    expect(table.size).toBe(0);
  });
});
