/**
 * C14: the everyday holdouts (test/fixtures/real-servers/holdout*.jsonl) are well
 * formed. They are estimates, so this file checks their shape only and never how the ranker does on
 * them: a floor here would turn them into one more set to tune against.
 */
import { describe, expect, it } from 'vitest';
import {
  HOLDOUT_COUNT,
  holdoutIntents,
  holdoutRequests,
  intents,
  PHRASINGS,
  realTools,
} from '../fixtures/real-servers/index.js';

/** Each holdout, its name, and the sets written before it (which it must not repeat). */
const HOLDOUTS = Array.from({ length: HOLDOUT_COUNT }, (_, k) => k + 1).map(
  (n) =>
    [
      n === 1 ? 'holdout.jsonl' : `holdout-${n}.jsonl`,
      () => holdoutIntents(n),
      () => holdoutRequests(n),
      () => [intents(), ...Array.from({ length: n - 1 }, (_, k) => holdoutIntents(k + 1))].flat(),
    ] as const,
);

describe.each(HOLDOUTS)('C14: the everyday holdout %s', (_name, read, requests, earlier) => {
  const ids = new Set(realTools().map((t) => t.id));
  const holdout = read();

  it('C14: holds at least 50 intents, each with a distinct name', () => {
    expect(holdout.length).toBeGreaterThanOrEqual(50);
    expect(new Set(holdout.map((i) => i.intent)).size).toBe(holdout.length);
  });

  it('C14: shares no intent name with the sets written before it', () => {
    const everyday = new Set(earlier().map((i) => i.intent));
    expect(holdout.filter((i) => everyday.has(i.intent)).map((i) => i.intent)).toEqual([]);
  });

  it('C14: every intent is written three ways, none of them empty', () => {
    for (const i of holdout) for (const p of PHRASINGS) expect(i[p]?.trim(), `${i.intent}:${p}`).toBeTruthy();
    expect(requests().length).toBe(holdout.length * PHRASINGS.length);
  });

  it('C14: every gold group is non-empty and names only tools of the catalog', () => {
    for (const i of holdout) {
      expect(i.gold.length, i.intent).toBeGreaterThan(0);
      for (const group of i.gold) {
        expect(group.length, i.intent).toBeGreaterThan(0);
        for (const id of group) expect(ids.has(id), `${i.intent}: ${id}`).toBe(true);
      }
    }
  });
});
