/**
 * C14: the everyday holdout (test/fixtures/real-servers/holdout.jsonl) is well formed. It is an
 * estimate nobody tunes on, so this file checks its shape only and never how the ranker does on it:
 * a floor here would turn it into one more set to tune against.
 */
import { describe, expect, it } from 'vitest';
import { holdoutIntents, holdoutRequests, intents, PHRASINGS, realTools } from '../fixtures/real-servers/index.js';

describe('C14: the everyday holdout set', () => {
  const ids = new Set(realTools().map((t) => t.id));
  const holdout = holdoutIntents();

  it('C14: holds at least 50 intents, each with a distinct name', () => {
    expect(holdout.length).toBeGreaterThanOrEqual(50);
    expect(new Set(holdout.map((i) => i.intent)).size).toBe(holdout.length);
  });

  it('C14: shares no intent name with the everyday set', () => {
    const everyday = new Set(intents().map((i) => i.intent));
    expect(holdout.filter((i) => everyday.has(i.intent)).map((i) => i.intent)).toEqual([]);
  });

  it('C14: every intent is written three ways, none of them empty', () => {
    for (const i of holdout) for (const p of PHRASINGS) expect(i[p]?.trim(), `${i.intent}:${p}`).toBeTruthy();
    expect(holdoutRequests().length).toBe(holdout.length * PHRASINGS.length);
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
