import { describe, expect, it } from 'vitest';
import { LearnedField } from '../../src/search/learned/field.js';
import { FieldBoost } from '../../src/search/learned/field-boost.js';
import { rankWithField } from '../../src/search/learned/fuse-field.js';
import { DEFAULT_LEARNED_LIMITS, LearnedLog } from '../../src/search/learned/log.js';

/** These tests are about how evidence ranks; corroboration (C14) is tested in learning-corroboration.test.ts. */
const ONE_SOURCE = { ...DEFAULT_LEARNED_LIMITS, corroboration: 1 } as const;
import { learnedTerms } from '../../src/search/learned/terms.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import type { ScoreBoost } from '../../src/search/ranker.js';
import { createRanker } from '../../src/search/rankers.js';
import { mcp } from './helpers.js';

/** 80 report writers, and a bookkeeping tool whose text says "report" once, deep in a long description. */
const tools = [
  ...Array.from({ length: 80 }, (_, i) =>
    mcp('docs', `report_${i}`, `Create a report ${'with sections and charts '.repeat(i % 4)}`),
  ),
  mcp(
    'ledger',
    'books',
    'Keep the books: record every expense and income line of the office, reconcile the accounts at month end, and report totals',
  ),
];
const BOOKS = 'mcp__ledger__books';

/** Callers of the bookkeeping tool kept asking for their tax filings. */
function taxLog(): LearnedLog {
  const log = new LearnedLog(ONE_SOURCE);
  for (const [i, what] of ['vat', 'income', 'payroll', 'sales', 'property', 'customs'].entries())
    log.record({ query: `prepare the ${what} tax filing`, tool: BOOKS, at: 1_000 + i });
  return log;
}

describe('C13: the learned field fused with every tool’s own score', () => {
  const query = parseKeywordQuery('tax filing report');
  const index = createRanker('default').build(tools);
  const field = new LearnedField(taxLog(), () => 1);

  it('C13: a tool the words placed far down (past any cut of the lexical list) is lifted to first by the field', () => {
    const lexical = index.search(query, 200).map((r) => r.name);
    expect(lexical.indexOf(BOOKS)).toBeGreaterThan(30);
    const boosted = index.searchBoosted!(query, 5, new FieldBoost(field, 1));
    expect(boosted[0]!.name).toBe(BOOKS);
  });

  it('C13: the boosted order is lexical + weight × field over every tool (checked against the sum computed apart)', () => {
    for (const weight of [0.1, 0.5, 2]) {
      const lexical = new Map(index.search(query, 1_000).map((r) => [r.name, r.score]));
      const scored = field.score(
        learnedTerms(query.text)
          .map((t) => field.termId(t)!)
          .filter((id) => id !== undefined),
      );
      const fused = new Map(lexical);
      for (const d of scored.tools) {
        const name = field.toolNames[d]!;
        fused.set(name, (fused.get(name) ?? 0) + weight * scored.scores[d]!);
      }
      const expected = [...fused].sort((a, b) => b[1] - a[1]).slice(0, 5);
      const boosted = index.searchBoosted!(query, 5, new FieldBoost(field, weight));
      expect(boosted.map((h) => h.name)).toEqual(expected.map(([name]) => name));
      for (const [k, hit] of boosted.entries()) expect(hit.score).toBeCloseTo(expected[k]![1], 9);
    }
  });

  it('C13: the boost says what it added to each hit (explain), and nothing for a tool the log never led to', () => {
    const boost = new FieldBoost(field, 2);
    const hits = index.searchBoosted!(query, 5, boost);
    expect(boost.liftOf(BOOKS)).toBeGreaterThan(0);
    for (const hit of hits) if (hit.name !== BOOKS) expect(boost.liftOf(hit.name)).toBe(0);
  });

  it('C13: explained, a hit’s learned lift is what the field added to its score; unexplained, it is not worked out', () => {
    const lexical = {
      search: (depth: number) => index.search(query, depth),
      searchBoosted: (depth: number, boost: ScoreBoost) => index.searchBoosted!(query, depth, boost),
    };
    const own = index.search(query, 1_000).find((r) => r.name === BOOKS)!.score;
    const explained = rankWithField(lexical, field, query.text, 2, 30, { limit: 5, explain: true });
    expect(explained[0]!.name).toBe(BOOKS);
    expect(explained[0]!.words).toBeCloseTo(explained[0]!.score - own, 9);
    const plain = rankWithField(lexical, field, query.text, 2, 30, { limit: 5 });
    expect(plain.map((h) => h.name)).toEqual(explained.map((h) => h.name));
    expect(plain[0]!.words).toBeUndefined();
  });

  it('C13: a ranker that takes no boost gets the same tool through its list and the field (the cut path)', () => {
    const bm25 = createRanker('bm25').build(tools);
    expect(bm25.searchBoosted).toBeUndefined();
    const hits = rankWithField({ search: (depth) => bm25.search(query, depth) }, field, query.text, 2, 30, {
      limit: 5,
    });
    expect(hits[0]!.name).toBe(BOOKS);
    expect(hits[0]!.words).toBeGreaterThan(0);
    expect(hits.length).toBe(5);
  });

  it('C13: with the field on, a search that shares no word with the log is the lexical search', () => {
    const other = parseKeywordQuery('charts sections report');
    const plain = index.search(other, 5);
    const boosted = index.searchBoosted!(other, 5, new FieldBoost(field, 4));
    expect(boosted).toEqual(plain);
  });
});
