/**
 * C14 — learning that needs corroboration, at the log's and the ranking's level: a (word, tool) pair
 * lifts only once two sources used that word in searches that reached that tool; one session
 * alone lifts nothing, whatever it repeats; older files count as one unknown source; personal words
 * are kept only as hashes (the same word in a later query still matches). And the per-client
 * lesson cap, and a bare select: teaching nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_SAMPLE,
  MAX_REPLAYS_PER_SOURCE,
  pastSearches,
  replaysOf,
} from '../../src/search/learned/calibrate.js';
import { LearnedField } from '../../src/search/learned/field.js';
import { LearnedLog } from '../../src/search/learned/log.js';
import { createRanker } from '../../src/search/rankers.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { LearnedRanking } from '../../src/search/learned/learned-ranking.js';
import { learnedTerms } from '../../src/search/learned/terms.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { UsageSignal } from '../../src/usage/signal.js';
import { mcp, poolOf } from './helpers.js';
import { kitchenLog as fillKitchenLog, kitchen as kitchenTools } from './kitchen.js';

/** Per tool, the words that lift it (sorted). */
const lifted = (log: LearnedLog) =>
  Object.fromEntries(
    [...log.lifting()].map(([tool, e]) => [tool, [...new Set([...e.entries.values()].flatMap((x) => x.terms))].sort()]),
  );
const termsOf = (text: string) => learnedTerms(text).sort();

describe('C14: learned evidence needs two sources per (word, tool) pair', () => {
  it('C14: one source lifts nothing however often and however phrased; a second confirms the words both used', () => {
    const log = new LearnedLog();
    const phrasings = ['read a file', 'read the file', 'read file contents', 'please read a file now'];
    for (let i = 0; i < 12; i++) log.record({ query: phrasings[i % 4]!, tool: 'echo', source: 'attacker', at: i });
    expect(lifted(log)).toEqual({});
    log.record({ query: 'forecast for oslo', tool: 'weather', source: 'a', at: 20 });
    expect(lifted(log)).toEqual({});
    log.record({ query: 'forecast rain tomorrow', tool: 'weather', source: 'b', at: 21 });
    // Only the shared word: "oslo", "rain" and "tomorrow" were each one session's.
    expect(lifted(log)).toEqual({ weather: termsOf('forecast') });
    // The same word for another tool is that tool's own pair: not confirmed by the weather searches.
    log.record({ query: 'forecast sales', tool: 'crm', source: 'c', at: 22 });
    expect(lifted(log).crm).toBeUndefined();
  });

  it('C15: a trusted source (a gateway’s only identity) lifts on its own word; trust is the reader’s, never stored', () => {
    const log = new LearnedLog();
    log.record({ query: 'forecast for oslo', tool: 'weather', source: 'me', at: 1 });
    log.record({ query: 'read a file', tool: 'echo', source: 'someone', at: 2 });
    expect(lifted(log)).toEqual({});
    log.trust(['me']);
    expect(lifted(log)).toEqual({ weather: termsOf('forecast oslo') });
    expect(log.trusts('me')).toBe(true);
    expect(log.trusts('someone')).toBe(false);
    // Held out, the only trusted search of its words leaves nothing confirmed for them.
    expect(log.unconfirmedWithout('weather', termsOf('forecast oslo').join(' ')).sort()).toEqual(
      termsOf('forecast oslo'),
    );
    log.record({ query: 'forecast for oslo', tool: 'weather', source: 'me', at: 3 });
    expect(log.unconfirmedWithout('weather', termsOf('forecast oslo').join(' '))).toEqual([]);
    // The same file read by a reader that trusts no one: nothing lifts.
    expect(lifted(LearnedLog.fromJSON(log.toJSON()))).toEqual({});
    log.trust([]);
    expect(lifted(log)).toEqual({});
  });

  it('C14: a search held out of the replay loses the words only it confirmed', () => {
    const log = new LearnedLog();
    log.record({ query: 'forecast for oslo', tool: 'weather', source: 'a', at: 1 });
    log.record({ query: 'forecast rain in oslo', tool: 'weather', source: 'b', at: 2 });
    log.record({ query: 'rain radar', tool: 'weather', source: 'c', at: 3 });
    log.record({ query: 'rain tonight', tool: 'weather', source: 'e', at: 3 });
    const key = termsOf('forecast rain in oslo').join(' ');
    // Held out, b's search leaves "forecast" and "oslo" with a alone; "rain" keeps c and e.
    expect(log.unconfirmedWithout('weather', key).sort()).toEqual(termsOf('forecast oslo'));
    // A search made twice keeps its other lesson: held out once, its words stay confirmed.
    log.record({ query: 'forecast rain in oslo', tool: 'weather', source: 'd', at: 4 });
    expect(log.unconfirmedWithout('weather', key)).toEqual([]);
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
    old.record({ query: 'rotate the keys', tool: 't', source: 'new-session', at: 3 });
    expect(lifted(old)).toEqual({ t: termsOf('rotate keys') });
  });

  it('C14: words no tool uses are kept as hashes that still match the same word later', () => {
    const terms = learnedTerms('look up maria lopez 1984 patient');
    expect(terms.join(' ')).not.toMatch(/maria|lopez|1984/);
    expect(terms).toContain('patient');
    expect(terms.filter((t) => t.startsWith('#'))).toHaveLength(3);
    expect(learnedTerms('Maria Lopez')).toEqual(learnedTerms('maria lopez'));
  });
});

const kitchen = [...kitchenTools, mcp('everything', 'echo', 'Echoes back the input')];
const kitchenLog = (sourceOf: (i: number) => string) =>
  fillKitchenLog(new LearnedLog(), sourceOf, Date.UTC(2026, 10, 1));

const NOW = Date.UTC(2026, 10, 2);
const searcherWith = (log: LearnedLog) => new ToolSearcher({ learned: new LearnedRanking(log, { now: () => NOW }) });

describe('C14: what lifts in the ranking', () => {
  it('C14: different people sharing a distinctive word lift its tool for a third user’s new words; one session alone does not', () => {
    const pool = poolOf(kitchen);
    const query = 'do we still have salt in the cupboard';
    expect(new ToolSearcher().search(pool, query).matches[0]).not.toBe('mcp__pantry__stock');
    expect(searcherWith(kitchenLog((i) => `person-${i}`)).search(pool, query).matches[0]).toBe('mcp__pantry__stock');
    const alone = searcherWith(kitchenLog(() => 'one-session')).search(pool, query).matches;
    expect(alone).toEqual(new ToolSearcher().search(pool, query).matches);
  });

  it('C14 property: one session’s lessons, however many and worded, never put their tool first for another user', () => {
    const pool = poolOf(kitchen);
    // Words any tool catalog uses (the generic words of ordinary requests) and a few of the log's.
    const vocabulary = [
      'read',
      'a',
      'the',
      'file',
      'get',
      'list',
      'write',
      'note',
      'weather',
      'forecast',
      'city',
      'cook',
      'cupboard',
      'holiday',
      'route',
      'from',
      'disk',
      'items',
      'new',
      'show',
      'me',
      'my',
    ];
    const phrase = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    const honest = kitchenLog((i) => `person-${i}`);
    const honestSearcher = searcherWith(honest);
    fc.assert(
      fc.property(
        fc.constantFrom(...kitchen.map((t) => t.name)),
        fc.array(phrase, { minLength: 1, maxLength: 30 }),
        fc.array(phrase, { minLength: 1, maxLength: 5 }),
        (target, lessons, victimQueries) => {
          const log = kitchenLog((i) => `person-${i}`);
          let at = Date.UTC(2026, 10, 1, 12);
          for (const query of lessons) log.record({ query, tool: target, at: at++, source: 'attacker' });
          expect(lifted(log)).toEqual(lifted(honest));
          const attacked = searcherWith(log);
          for (const query of victimQueries) {
            const top = attacked.search(pool, query).matches[0];
            if (top !== target) continue;
            // Only where it was first anyway: by its own words, or by what other people taught.
            expect([
              new ToolSearcher().search(pool, query).matches[0],
              honestSearcher.search(pool, query).matches[0],
            ]).toContain(target);
          }
        },
      ),
      { numRuns: 60, seed: 31 },
    );
  });
});

describe('C14: what one client can teach', () => {
  it('C14: one session fills at most MAX_REPLAYS_PER_SOURCE of the searches the log replays to weigh the field; a trusted one all of them', () => {
    const log = kitchenLog((i) => `person-${i}`);
    let at = Date.UTC(2026, 10, 1, 12);
    for (let i = 0; i < 200; i++)
      log.record({ query: `read file number ${i}`, tool: 'mcp__everything__echo', at: at++, source: 'flooder' });
    const index = createRanker('default').build(kitchen);
    const lexical = { searchText: (text: string, depth: number) => index.search(parseKeywordQuery(text), depth) };
    const field = new LearnedField(log, () => 1);
    const replays = replaysOf(
      pastSearches(log, () => true),
      lexical,
      field,
      () => 1,
      30,
      log,
    );
    const flooder = replays.filter((r) => r.search.tools.includes('mcp__everything__echo'));
    expect(flooder).toHaveLength(MAX_REPLAYS_PER_SOURCE);
    expect(replays).toHaveLength(Math.min(CALIBRATION_SAMPLE, MAX_REPLAYS_PER_SOURCE + 15));
    // C15: the gateway's only identity is its own user: its searches are all replayed.
    log.trust(['flooder']);
    const trusted = replaysOf(
      pastSearches(log, () => true),
      lexical,
      new LearnedField(log, () => 1),
      () => 1,
      30,
      log,
    );
    expect(trusted.filter((r) => r.search.tools.includes('mcp__everything__echo'))).toHaveLength(
      Math.min(CALIBRATION_SAMPLE, 200),
    );
  });

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
      // Each search in a session of its own: the cap is the teacher's, whatever its sessions.
      s.searched(`one-${i}`, `query ${i}`, { kind: 'keyword', matches: ['x'] }, 'one');
      s.called(`one-${i}`, 'x', 'one');
    }
    s.searched('two', 'other', { kind: 'keyword', matches: ['x'] }, 'two');
    s.called('two', 'x', 'two');
    expect(labels.map(([q]) => q)).toEqual(['query 0', 'query 1', 'other']);
    expect(capped).toHaveLength(1);
    expect(new Set(labels.map(([, , source]) => source)).size).toBe(2);
    expect(labels[0]![2]).not.toContain('one');
    now += 3_600_001;
    s.searched('one', 'later', { kind: 'keyword', matches: ['x'] }, 'one');
    s.called('one', 'x', 'one');
    expect(labels.at(-1)![0]).toBe('later');
  });

  it('C15: a select: of a tool the search listed teaches like a call: alone it lifts nothing, confirmed by a second identity it does', () => {
    const log = new LearnedLog();
    let now = 0;
    const s = new UsageSignal((query, tool, source) => log.record({ query, tool, source, at: now }), {
      now: () => now,
    });
    for (const [session, teacher] of [
      ['one', 'alice'],
      ['one again', 'alice'],
    ] as const) {
      now += 1_000;
      s.searched(
        session,
        'remember that alice works at acme',
        { kind: 'keyword', matches: ['git_log', 'create_entities'] },
        teacher,
      );
      s.searched(session, 'select:create_entities', { kind: 'select', matches: ['create_entities'] }, teacher);
    }
    // Two sessions of one identity: nothing lifts.
    expect(lifted(log)).toEqual({});
    now += 1_000;
    s.searched(
      'two',
      'remember that alice works at acme',
      { kind: 'keyword', matches: ['git_log', 'create_entities'] },
      'bob',
    );
    s.searched('two', 'select:create_entities', { kind: 'select', matches: ['create_entities'] }, 'bob');
    expect(lifted(log).create_entities).toEqual(termsOf('remember alice works acme'));
  });

  it('C15: a select: with no search before it, or of a tool the search did not return, teaches nothing', () => {
    const labels: string[] = [];
    const s = new UsageSignal((q) => labels.push(q));
    s.searched('one', 'select:x', { kind: 'select', matches: ['x'] }, 'alice');
    s.searched('one', 'remember that alice works at acme', { kind: 'keyword', matches: ['git_log'] }, 'alice');
    s.searched('one', 'select:create_entities', { kind: 'select', matches: ['create_entities'] }, 'alice');
    expect(labels).toEqual([]);
  });
});
