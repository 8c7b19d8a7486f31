import { describe, expect, it } from 'vitest';
import { calibrateField, pastSearches, replaysOf } from '../../src/search/learned/calibrate.js';
import { LearnedField, MAX_POSTINGS } from '../../src/search/learned/field.js';
import { DEFAULT_LEARNED_LIMITS, LearnedLog } from '../../src/search/learned/log.js';

/** These tests are about how evidence ranks; corroboration (C14) is tested in learning-corroboration.test.ts. */
const ONE_SOURCE = { ...DEFAULT_LEARNED_LIMITS, corroboration: 1 } as const;
import { LearnedRanking } from '../../src/search/learned/learned-ranking.js';
import { stackLearned } from '../../src/search/learned/fuse.js';
import { learnedTerms } from '../../src/search/learned/terms.js';
import { formatExplanation } from '../../src/search/explain.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { createRanker } from '../../src/search/rankers.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { mcp, poolOf } from './helpers.js';
import { kitchen, kitchenLog } from './kitchen.js';

/** The replay's view of the default ranker over `tools` (with every tool's last score). */
const lexicalFor = (tools: ReturnType<typeof mcp>[]) => {
  const index = createRanker('default').build(tools);
  return {
    searchText: (text: string, depth: number) => index.search(parseKeywordQuery(text), depth),
    lastScores: () => index.lastScores?.(),
  };
};

describe('C13: the learned field (words of earlier searches, per tool)', () => {
  it('C13: scores a tool by the words its callers used; a held-out search no longer counts', () => {
    const log = new LearnedLog(ONE_SOURCE);
    log.record({ query: 'rotate the signing keys', tool: 'vault' });
    log.record({ query: 'weather in oslo', tool: 'forecast' });
    const field = new LearnedField(log, () => 1);
    const ids = learnedTerms('rotate keys').map((t) => field.termId(t)!);
    const scored = field.score(ids);
    expect(Array.from(scored.tools, (d) => field.toolNames[d])).toEqual(['vault']);
    const vault = field.toolId('vault')!;
    const held = {
      terms: learnedTerms('rotate the signing keys').map((t) => field.termId(t)!),
      tools: new Set([vault]),
      weight: 1,
    };
    expect(field.score(ids, held).tools.length).toBe(0);
  });

  it('C13: a word in most tools’ learned words (generic) lifts nothing', () => {
    const field = new LearnedField(kitchenLog(new LearnedLog(ONE_SOURCE)), () => 1);
    expect(field.termId('quickli')).toBeDefined();
    expect(field.score([field.termId('quickli')!]).tools.length).toBe(0);
  });

  it('C13: the log’s replay turns the field on where callers repeat their words', () => {
    const log = kitchenLog(new LearnedLog(ONE_SOURCE));
    const field = new LearnedField(log, () => 1);
    const searches = pastSearches(log, () => true);
    const c = calibrateField(
      field,
      replaysOf(searches, lexicalFor(kitchen), field, () => 1, 30, log),
    );
    expect(c.replayed).toBe(15);
    expect(c.weight).toBeGreaterThan(0);
  });

  it('C13: a repeated intent in new words ranks its tool first; explain says the learned words did it', () => {
    const pool = poolOf(kitchen);
    const query = 'do we still have salt in the cupboard';
    const plain = new ToolSearcher().search(pool, query);
    const searcher = new ToolSearcher({ learned: new LearnedRanking(kitchenLog(new LearnedLog(ONE_SOURCE))) });
    const learned = searcher.search(pool, query, { explain: true });
    expect(plain.matches).toEqual([]);
    expect(learned.matches[0]).toBe('mcp__pantry__stock');
    expect(searcher.search(pool, 'holiday route through rome').matches[0]).toBe('mcp__travel__trip');
    const lines = formatExplanation(learned.explanations![0]!);
    expect(lines.some((l) => /learned: words of earlier searches that led here add \+/.test(l))).toBe(true);
  });

  it('C13: queries sharing only generic or unseen words keep the lexical order', () => {
    const pool = poolOf(kitchen);
    const searcher = new ToolSearcher({ learned: new LearnedRanking(kitchenLog(new LearnedLog(ONE_SOURCE))) });
    for (const query of ['quickly read a file from disk', 'get the weather forecast quickly', 'write a note']) {
      expect(searcher.search(pool, query).matches).toEqual(new ToolSearcher().search(pool, query).matches);
    }
  });

  it('C13: where past searches of look-alike tools lead to different twins, the replay keeps the field off', () => {
    const twins = ['gcd', 'math_gcd', 'number_theory_gcd', 'calc_gcd', 'gcd_v2', 'int_gcd', 'hcf', 'divisor_gcd'].map(
      (name) => mcp('math', name, 'Greatest common divisor of two integers'),
    );
    const tools = [...twins, mcp('math', 'lcm', 'Least common multiple of two integers')];
    const log = new LearnedLog(ONE_SOURCE);
    const pairs = [
      [12, 18],
      [36, 48],
      [8, 20],
      [100, 75],
      [9, 27],
      [14, 49],
      [64, 80],
      [21, 35],
    ];
    for (const [i, [a, b]] of pairs.entries())
      log.record({ query: `find the greatest common divisor of ${a} and ${b}`, tool: twins[i]!.name, at: i });
    const field = new LearnedField(log, () => 1);
    const c = calibrateField(
      field,
      replaysOf(
        pastSearches(log, () => true),
        lexicalFor(tools),
        field,
        () => 1,
        30,
        log,
      ),
    );
    expect(c.weight).toBe(0);
  });

  it('C13: a common term keeps only its strongest tools (bounded work per query)', () => {
    const log = new LearnedLog({ perTool: 10, total: 10_000, corroboration: 1 });
    for (let i = 0; i < 700; i++) {
      const filler = Array.from({ length: i % 7 }, (_, k) => `filler${k}`).join(' ');
      log.record({ query: i < 300 ? `shared word ${filler}` : `other${i}`, tool: `t${i}` });
    }
    const field = new LearnedField(log, () => 1);
    const scored = field.score([field.termId('share')!]);
    expect(scored.tools.length).toBe(MAX_POSTINGS);
    // The shortest learned texts (no filler: i % 7 === 0) score highest and are all kept.
    const kept = new Set(Array.from(scored.tools, (d) => field.toolNames[d]));
    for (let i = 0; i < 300; i += 7) expect(kept.has(`t${i}`)).toBe(true);
  });

  it('C13: the replay is redone when the pool changes (a server added may be where the log led)', () => {
    const ranking = new LearnedRanking(kitchenLog(new LearnedLog(ONE_SOURCE)));
    const searcher = new ToolSearcher({ learned: ranking });
    const withoutTravel = kitchen.filter((t) => t.name !== 'mcp__travel__trip');
    searcher.search(poolOf(withoutTravel), 'do we still have salt in the cupboard');
    expect(ranking.calibration?.replayed).toBe(10);
    searcher.search(poolOf(kitchen), 'do we still have salt in the cupboard');
    expect(ranking.calibration?.replayed).toBe(15);
  });

  it('C13: { field: false } keeps only the kNN channel (no replay)', () => {
    const ranking = new LearnedRanking(kitchenLog(new LearnedLog(ONE_SOURCE)), { field: false });
    const pool = poolOf(kitchen);
    const r = new ToolSearcher({ learned: ranking }).search(pool, 'do we still have salt in the cupboard');
    expect(ranking.calibration).toBeUndefined();
    expect(r.matches).not.toContain('mcp__travel__trip');
  });

  it('C13: where the kNN channel would only pull in look-alikes, its replay turns it off and the order is the lexical one', () => {
    const twins = ['gcd', 'math_gcd', 'number_theory_gcd', 'calc_gcd', 'gcd_v2', 'int_gcd', 'hcf', 'divisor_gcd'].map(
      (name) => mcp('math', name, 'Greatest common divisor of two integers'),
    );
    const pool = poolOf([...twins, mcp('math', 'lcm', 'Least common multiple of two integers')]);
    const log = new LearnedLog(ONE_SOURCE);
    const now = Date.now();
    for (let i = 0; i < 24; i++)
      log.record({
        query: `greatest common divisor of ${i + 2} and ${3 * i + 5}`,
        tool: twins[i % 8]!.name,
        at: now - i,
      });
    const ranking = new LearnedRanking(log);
    const searcher = new ToolSearcher({ learned: ranking });
    const query = 'greatest common divisor of 12 and 18';
    expect(searcher.search(pool, query).matches).toEqual(new ToolSearcher().search(pool, query).matches);
    expect(ranking.calibration?.weight).toBe(0);
    expect(ranking.calibration?.channel?.on).toBe(false);
  });

  it('C13: the replay holds a search out at the weight the field was built with, however long the build took', () => {
    const twins = ['gcd', 'math_gcd', 'number_theory_gcd', 'calc_gcd', 'gcd_v2', 'int_gcd', 'hcf', 'divisor_gcd'].map(
      (name) => mcp('math', name, 'Greatest common divisor of two integers'),
    );
    const pool = poolOf([...twins, mcp('math', 'lcm', 'Least common multiple of two integers')]);
    const log = new LearnedLog(ONE_SOURCE);
    for (let i = 0; i < 24; i++)
      log.record({ query: `greatest common divisor of ${i + 2} and ${3 * i + 5}`, tool: twins[i % 8]!.name, at: i });
    // A clock a minute later at every read: a replay that read it again would leave a remainder of
    // each held-out search in the field, which breaks the twins' ties in its own favour.
    let t = 1_000;
    const ranking = new LearnedRanking(log, { now: () => (t += 60_000) });
    const query = 'greatest common divisor of 12 and 18';
    const learned = new ToolSearcher({ learned: ranking }).search(pool, query);
    expect(learned.matches).toEqual(new ToolSearcher().search(pool, query).matches);
    expect(ranking.calibration?.weight).toBe(0);
    expect(ranking.calibration?.channel?.on).toBe(false);
  });

  it('C13: a word used often for one tool and once for its companions points at the first', () => {
    const log = new LearnedLog(ONE_SOURCE);
    const tasks = ['cancer report', 'cnn tutorial', 'antd guide', 'baidu recon', 'nextjs notes'];
    for (const [i, task] of tasks.entries()) {
      log.record({ query: `${task} saved as markdown`, tool: 'write_file' });
      log.record({ query: `${task} saved as markdown`, tool: `helper${i}` });
    }
    for (const city of ['oslo', 'lima', 'kyoto', 'cairo', 'quito', 'perth', 'riga'])
      log.record({ query: `weather in ${city}`, tool: `forecast_${city}` });
    const field = new LearnedField(log, () => 1);
    const scored = field.score(field.queryTerms('a markdown file'));
    const score = (name: string) => scored.scores[field.toolId(name)!]!;
    expect(score('write_file')).toBeGreaterThan(score('helper0') * 1.5);
  });
});

describe('C13: rebuilding a large log is rationed', () => {
  it('C13: a changed large log waits at least 20× its last build time (≥ 2 s) before the next rebuild', () => {
    const log = new LearnedLog({ perTool: 10_000, total: 100_000, corroboration: 1 });
    for (let i = 0; i < 2_500; i++)
      log.record({ query: `cook dish number${i} quickly`, tool: 'mcp__kitchen__suggest', at: i });
    const lexical = createRanker('default').build(kitchen);
    const search = (learned: LearnedRanking) =>
      learned.rank(
        kitchen,
        'cook',
        { search: (depth) => lexical.search(parseKeywordQuery('cook'), depth) },
        { limit: 5 },
      );
    // A clock that does not move: an instant build keeps the 2 s interval.
    const instant = new LearnedRanking(log, { now: () => 1_000 });
    expect(log.entryCount).toBeGreaterThanOrEqual(2_000);
    search(instant);
    expect(instant.rebuildGapMs).toBe(2_000);
    // A clock that moves 1 s every time it is read: the build measured at ≥ 1 s → ≥ 20 s.
    let t = 0;
    const slow = new LearnedRanking(log, { now: () => (t += 1_000) });
    search(slow);
    expect(slow.rebuildGapMs).toBeGreaterThanOrEqual(20_000);
  });

  it('C13: with `defer`, a large log is rebuilt after the search that finds it due; that search uses the previous index', () => {
    const log = new LearnedLog({ perTool: 10_000, total: 100_000, corroboration: 1 });
    for (let i = 0; i < 2_500; i++)
      log.record({ query: `cook dish number${i} quickly`, tool: 'mcp__kitchen__suggest', at: i });
    const queued: (() => void)[] = [];
    let t = 1_000;
    const ranking = new LearnedRanking(log, { now: () => t, defer: (work) => queued.push(work) });
    const first = ranking.channel(kitchen);
    expect(queued).toHaveLength(0); // nothing to answer with yet: built at once
    log.record({ query: 'where is the saffron', tool: 'mcp__pantry__stock', at: 3_000 });
    t += 10_000;
    expect(ranking.channel(kitchen)).toBe(first);
    expect(ranking.channel(kitchen)).toBe(first);
    expect(queued).toHaveLength(1); // one rebuild queued, however many searches find it due
    queued.shift()!();
    const rebuilt = ranking.channel(kitchen);
    expect(rebuilt).not.toBe(first);
    expect(rebuilt.matchTerms(learnedTerms('saffron')).map((m) => m.tool)).toContain('mcp__pantry__stock');
  });

  it('C13: a small log is rebuilt at once even with `defer` (a search right after a call sees it)', () => {
    const log = kitchenLog(new LearnedLog(ONE_SOURCE));
    const queued: (() => void)[] = [];
    const ranking = new LearnedRanking(log, { defer: (work) => queued.push(work) });
    const first = ranking.channel(kitchen);
    log.record({ query: 'where is the saffron', tool: 'mcp__pantry__stock' });
    expect(ranking.channel(kitchen)).not.toBe(first);
    expect(queued).toHaveLength(0);
  });
});

describe('C13: searches like this one, stacked on the field', () => {
  it('C13: the kNN channel fused over the field’s list keeps each hit’s field lift and lexical rank, and brings a strong match in', () => {
    const fielded = [
      { name: 'pantry', score: 2, lexicalRank: 3, words: 0.5 },
      { name: 'fridge', score: 1, lexicalRank: 1 },
    ];
    const matches = [{ tool: 'shopping_list', similarity: 0.9, searches: 1, evidence: 0.6 }];
    const hits = stackLearned(fielded, matches, 3);
    expect(hits.map((h) => h.name)).toEqual(['pantry', 'shopping_list', 'fridge']);
    expect(hits[0]).toMatchObject({ name: 'pantry', lexicalRank: 3, words: 0.5 });
    expect(hits[1]!.lexicalRank).toBeUndefined();
    expect(hits[1]!.learned).toMatchObject({ tool: 'shopping_list' });
    expect(stackLearned(fielded, [], 1)).toEqual([fielded[0]]);
  });

  it('C13: with the field on, the replay still judges the kNN channel, over the field’s list', () => {
    const ranking = new LearnedRanking(kitchenLog(new LearnedLog(ONE_SOURCE)));
    new ToolSearcher({ learned: ranking }).search(poolOf(kitchen), 'do we still have salt in the cupboard');
    expect(ranking.calibration?.weight).toBeGreaterThan(0);
    expect(ranking.calibration?.channel).toEqual(expect.objectContaining({ on: expect.any(Boolean) }));
  });
});
