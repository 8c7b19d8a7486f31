/**
 * C14 — learning that needs corroboration, at the log's level: a word lifts a tool only once two
 * sources searched it and reached that tool; older files count as one unknown source; personal words are kept
 * only as hashes (the same word in a later query still matches). And the per-client lesson cap.
 */
import { describe, expect, it } from 'vitest';
import { LearnedLog } from '../../src/search/learned/log.js';
import { learnedTerms } from '../../src/search/learned/terms.js';
import { UsageSignal } from '../../src/usage/signal.js';

const lifted = (log: LearnedLog) =>
  Object.fromEntries([...log.lifting()].map(([tool, e]) => [tool, [...e.entries.keys()]]));

describe('C14: learned evidence needs two sources', () => {
  it('C14: one source lifts nothing however often; a second source lifts the search both made', () => {
    const log = new LearnedLog();
    for (let i = 0; i < 12; i++) log.record({ query: 'read a file', tool: 'echo', source: 'attacker', at: i });
    expect(lifted(log)).toEqual({});
    log.record({ query: 'forecast for oslo', tool: 'weather', source: 'a', at: 20 });
    log.record({ query: 'forecast rain tomorrow', tool: 'weather', source: 'b', at: 21 });
    expect(lifted(log)).toEqual({});
    log.record({ query: 'Forecast for Oslo', tool: 'weather', source: 'b', at: 22 });
    expect(lifted(log)).toEqual({ weather: [learnedTerms('forecast for oslo').join(' ')] });
  });

  it('C14: sources survive the JSON form; an older file’s entries count as one unknown source', () => {
    const log = new LearnedLog();
    log.record({ query: 'rotate keys', tool: 't', source: 'a', at: 1 });
    log.record({ query: 'rotate keys', tool: 't', source: 'b', at: 2 });
    const copy = LearnedLog.fromJSON(JSON.parse(JSON.stringify(log.toJSON())));
    expect(lifted(copy)).toEqual(lifted(log));
    const key = learnedTerms('rotate keys').join(' ');
    const old = LearnedLog.fromJSON({ version: 1, tools: { t: { entries: [[key, 5, 1]] } } });
    expect(lifted(old)).toEqual({});
    old.record({ query: 'rotate keys', tool: 't', source: 'new-session', at: 3 });
    expect(lifted(old)).toEqual({ t: [key] });
  });

  it('C14: words no tool uses are kept as hashes that still match the same word later', () => {
    const terms = learnedTerms('look up maria lopez 1984 patient');
    expect(terms.join(' ')).not.toMatch(/maria|lopez|1984/);
    expect(terms).toContain('patient');
    expect(terms.filter((t) => t.startsWith('#'))).toHaveLength(3);
    expect(learnedTerms('Maria Lopez')).toEqual(learnedTerms('maria lopez'));
  });
});

describe('C14: what one client can teach', () => {
  it('C14: at most lessonsPerHour lessons per client, told once; the budget comes back after the hour', () => {
    const labels: [string, string, string][] = [];
    const capped: string[] = [];
    let now = 0;
    const s = new UsageSignal((q, t, source) => labels.push([q, t, source]), {
      now: () => now,
      lessonsPerHour: 2,
      capped: (source) => capped.push(source),
    });
    for (let i = 0; i < 5; i++) {
      s.searched('one', `query ${i}`, { kind: 'keyword', matches: ['x'] });
      s.called('one', 'x');
    }
    s.searched('two', 'other', { kind: 'keyword', matches: ['x'] });
    s.called('two', 'x');
    expect(labels.map(([q]) => q)).toEqual(['query 0', 'query 1', 'other']);
    expect(capped).toHaveLength(1);
    expect(new Set(labels.map(([, , source]) => source)).size).toBe(2);
    expect(labels[0]![2]).not.toContain('one');
    now += 3_600_001;
    s.searched('one', 'later', { kind: 'keyword', matches: ['x'] });
    s.called('one', 'x');
    expect(labels.at(-1)![0]).toBe('later');
  });

  it('C14: a select: with no search before it in the session teaches nothing', () => {
    const labels: string[] = [];
    const s = new UsageSignal((q) => labels.push(q));
    s.searched('one', 'select:x', { kind: 'select', matches: ['x'] });
    expect(labels).toEqual([]);
  });
});
