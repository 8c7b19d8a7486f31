/**
 * The everyday-request set (C14) on the default ranker: R@1 / R@5 / MRR per phrasing, and with
 * `--misses` each request whose gold is not first, with the top 5. An inspection loop for the
 * ranker's precision rules, not a report (`npm run bench:retrieval` writes those).
 *   npx tsx bench/everyday-misses.ts [--misses] [--ranker bm25] [--holdout]
 *   OPTS='{"valueShapeWeight":0}' npx tsx bench/everyday-misses.ts   # override DefaultRankerOptions (JSON)
 * `--holdout` reads the first holdout, `--set everyday-holdout-2` the second: each only after its
 * one clean reading (bench:retrieval), since reading misses makes a holdout a development set.
 */
import { createRanker } from '../src/search/rankers.js';
import { defaultRanker } from '../src/search/rank-default/index.js';
import { EVERYDAY, EVERYDAY_HOLDOUT, EVERYDAY_SETS, setContext } from './datasets.js';
import { evaluate, rankerRankIds } from './evaluate.js';

const ranker = (
  process.argv.includes('--ranker') ? process.argv[process.argv.indexOf('--ranker') + 1] : 'default'
) as Parameters<typeof createRanker>[0];
const setName = process.argv.includes('--set')
  ? process.argv[process.argv.indexOf('--set') + 1]!
  : process.argv.includes('--holdout')
    ? EVERYDAY_HOLDOUT
    : EVERYDAY;
const load = EVERYDAY_SETS.get(setName);
if (!load) throw new Error(`unknown set ${setName}: one of ${[...EVERYDAY_SETS.keys()].join(', ')}`);
const set = load();
const rank = rankerRankIds(
  process.env.OPTS && ranker === 'default' ? defaultRanker(JSON.parse(process.env.OPTS)) : createRanker(ranker),
  set.tools,
  setContext(set),
);
const result = evaluate(set, rank);
const f = (x: number) => x.toFixed(3);
for (const [name, r] of [['all', result.all] as const, ...Object.entries(result.subsets)])
  console.log(`${name.padEnd(9)} R@1 ${f(r['R@1'])}  R@5 ${f(r['R@5'])}  MRR ${f(r['MRR@10'])}`);
if (process.argv.includes('--misses')) {
  for (const q of set.queries) {
    const top = rank(q.query);
    const firstGold = top.findIndex((id) => q.gold.some((g) => g.includes(id)));
    if (firstGold === 0) continue;
    console.log(`\n${firstGold < 0 ? 'MISS' : `@${firstGold + 1}`}  ${q.qid}: ${q.query}   gold ${q.gold[0]![0]}`);
    for (const id of top.slice(0, 5)) console.log(`    ${id}`);
  }
}
