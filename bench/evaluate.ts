/** Run one ranker over one labelled set and average the README metrics (per subset too). */
import { parseKeywordQuery } from '../src/search/query.js';
import type { Ranker, RankerContext } from '../src/search/ranker.js';
import type { ToolSpec } from '../src/core/tool.js';
import { meanRows, scoreQuery, type MetricRow } from './metrics.js';
import { subsetOf, type BenchSet } from './datasets.js';

export interface SetResult {
  set: string;
  tools: number;
  queries: number;
  all: MetricRow;
  subsets: Record<string, MetricRow & { queries: number }>;
}

/** Rank ids of a query: top 10 model-facing names mapped back to catalog ids. */
export type RankIds = (query: string) => string[];

export function rankerRankIds(ranker: Ranker, tools: readonly ToolSpec[], context?: RankerContext): RankIds {
  const index = ranker.build(tools, context);
  const idOf = new Map(tools.map((t) => [t.name, t.id ?? t.name]));
  return (query) => index.search(parseKeywordQuery(query), 10).map((r) => idOf.get(r.name)!);
}

export function evaluate(set: BenchSet, rank: RankIds): SetResult {
  const all: MetricRow[] = [];
  const bySubset = new Map<string, MetricRow[]>();
  for (const q of set.queries) {
    const row = scoreQuery(rank(q.query), q.gold);
    all.push(row);
    const subset = subsetOf(set.name, q.qid);
    if (subset !== undefined) {
      let rows = bySubset.get(subset);
      if (!rows) bySubset.set(subset, (rows = []));
      rows.push(row);
    }
  }
  const subsets: SetResult['subsets'] = {};
  for (const [name, rows] of [...bySubset].sort(([a], [b]) => a.localeCompare(b)))
    subsets[name] = { ...meanRows(rows), queries: rows.length };
  return { set: set.name, tools: set.tools.length, queries: set.queries.length, all: meanRows(all), subsets };
}
