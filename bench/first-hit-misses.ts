/**
 * Issue 40, round 2 (C15): where the default ranker's first hit is wrong on the everyday
 * development sets (the everyday set and holdouts 1–5; never 6 and after, the clean estimate).
 * Per set and pooled: the R@1 misses by the gold tool's rank (2, 3–5, 6–10, none), how close the
 * wrong first hit's score is (gold score / first score), and whether the first hit is of the gold
 * tool's server. A re-ranker of the top hits can only fix a miss whose gold is in its list.
 *   npx tsx bench/first-hit-misses.ts
 */
import { parseKeywordQuery } from '../src/search/query.js';
import { defaultRanker } from '../src/search/rank-default/index.js';
import { everydaySet, holdoutSet, setContext, type BenchSet } from './datasets.js';

/** The holdouts developed on. Never 6 and after (the clean estimate). */
const DEVELOPED_HOLDOUTS = [1, 2, 3, 4, 5];

interface Tally {
  queries: number;
  first: number;
  second: number;
  top5: number;
  top10: number;
  none: number;
  /** Misses with the gold in the top 10 whose score is at least 0.9 of the first hit's. */
  close: number;
  /** Misses whose first hit is of a server that also holds a gold tool. */
  sameServer: number;
}

const serverOf = (id: string) => id.slice(0, id.indexOf('/'));

function tally(set: BenchSet): Tally {
  const index = defaultRanker().build(set.tools, setContext(set));
  const idOf = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));
  const t: Tally = { queries: 0, first: 0, second: 0, top5: 0, top10: 0, none: 0, close: 0, sameServer: 0 };
  for (const q of set.queries) {
    t.queries++;
    const hits = index.search(parseKeywordQuery(q.query), 10);
    const ids = hits.map((h) => idOf.get(h.name)!);
    // Any gold tool counts (R@1 counts per gold group: a request of two steps scores 0.5 for one).
    const gold = new Set(q.gold.flat());
    const at = ids.findIndex((id) => gold.has(id));
    if (at === 0) {
      t.first++;
      continue;
    }
    if (at === 1) t.second++;
    else if (at >= 2 && at < 5) t.top5++;
    else if (at >= 5) t.top10++;
    else t.none++;
    if (at > 0 && hits[at]!.score >= 0.9 * hits[0]!.score) t.close++;
    if (ids[0] && [...gold].some((g) => serverOf(g) === serverOf(ids[0]!))) t.sameServer++;
  }
  return t;
}

const sets = [everydaySet(), ...DEVELOPED_HOLDOUTS.map((n) => holdoutSet(n))];
const rows = sets.map((s) => [s.name, tally(s)] as const);
const pooled: Tally = { queries: 0, first: 0, second: 0, top5: 0, top10: 0, none: 0, close: 0, sameServer: 0 };
for (const [, t] of rows) for (const k of Object.keys(pooled) as (keyof Tally)[]) pooled[k] += t[k];
console.log(
  '| set | requests | first | misses | gold 2nd | gold 3rd–5th | gold 6th–10th | gold not in 10 | close (≥0.9 of the first) | first hit of a gold server |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, t] of [...rows, ['pooled', pooled] as const]) {
  const misses = t.queries - t.first;
  console.log(
    `| ${name} | ${t.queries} | ${t.first} | ${misses} | ${t.second} | ${t.top5} | ${t.top10} | ${t.none} | ${t.close} | ${t.sameServer} |`,
  );
}
