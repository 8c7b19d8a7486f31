/**
 * C15 — tries to learn the weights of the first-place rules (action agreement, unasked destructive
 * tools, incidental verbs) from training data only: a grid search whose best row would be shipped
 * as a table in src/search/tables/. It is not shipped: on these records the objective is flat in
 * the action weights (bench/README.md, "ranker round 5"), so the data cannot choose them. The files
 * read and their sha256 are printed.
 *
 * Data: the out-of-domain training records of the benchmark data (README §11, `train-broad/`:
 * toolalpaca, apibank, nestful, restbench, apibench, ultratool, glaive_demo — never an evaluation
 * set, and not bfcl_extra or seal_dev, which are in-domain for two of the six sets). Each source is
 * one catalog (every tool its records name) and its plain requests (at most 12 words, the only
 * requests the rules act on) are the queries; a record's tools are its gold, any of them first
 * counts. MetaTool's and ToolLens's training splits are not used: their tools are named for a
 * product, not an action ("ResearchHelper"), so the rules never act on them.
 *
 * The objective is the mean over sources of R@1 + MRR@10 (each source counts once, whatever its
 * size); a grid over the three weights, ties to the weaker rule (closer to 1).
 *   npx tsx bench/learn-ranker-weights.ts            # prints the grid's best rows and the inputs
 */
import { defaultRanker, type DefaultRankerOptions } from '../src/search/rank-default/index.js';
import { BROAD_SOURCES, loadBroad } from './train-broad.js';
import { evaluate, rankerRankIds } from './evaluate.js';

const PLAIN_WORDS = 12;
const sets = BROAD_SOURCES.map((s) => ({ source: s, ...loadBroad(s, PLAIN_WORDS) }));
const GRID = {
  actionDisagreeFactor: [0.6, 0.7, 0.8, 0.9, 1],
  unaskedDestructiveFactor: [0.4, 0.5, 0.6, 0.7, 0.8, 1],
  incidentalVerbWeight: [0.5, 0.7, 0.85, 1],
};

function score(options: Partial<DefaultRankerOptions>): { objective: number; perSource: string } {
  const ranker = defaultRanker(options);
  let sum = 0;
  const parts: string[] = [];
  for (const set of sets) {
    const r = evaluate(
      { name: set.source, tools: set.tools, queries: set.queries },
      rankerRankIds(ranker, set.tools),
    ).all;
    sum += r['R@1'] + r['MRR@10'];
    parts.push(`${set.source} ${r['R@1'].toFixed(3)}`);
  }
  return { objective: sum / sets.length, perSource: parts.join(' ') };
}

const rows: { options: Record<string, number>; objective: number; perSource: string }[] = [];
for (const a of GRID.actionDisagreeFactor)
  for (const d of GRID.unaskedDestructiveFactor)
    for (const w of GRID.incidentalVerbWeight) {
      const options = { actionDisagreeFactor: a, unaskedDestructiveFactor: d, incidentalVerbWeight: w };
      rows.push({ options, ...score(options) });
    }
// Best first; a tie goes to the weaker rule (the larger factors: closer to no rule at all).
const weakness = (o: Record<string, number>) => Object.values(o).reduce((s, v) => s + v, 0);
rows.sort((x, y) => y.objective - x.objective || weakness(y.options) - weakness(x.options));
console.log(`plain requests per source: ${sets.map((s) => `${s.source} ${s.queries.length}`).join(', ')}`);
for (const row of rows.slice(0, 8))
  console.log(`${row.objective.toFixed(4)}  ${JSON.stringify(row.options)}  ${row.perSource}`);
const off = score({ actionDisagreeFactor: 1, unaskedDestructiveFactor: 1, incidentalVerbWeight: 1 });
const byAction = new Map<number, number>();
for (const row of rows)
  byAction.set(
    row.options.actionDisagreeFactor!,
    Math.max(byAction.get(row.options.actionDisagreeFactor!) ?? 0, row.objective),
  );
console.log(`best objective per action factor: ${[...byAction].map(([a, o]) => `${a}: ${o.toFixed(4)}`).join(', ')}`);
console.log(`rules off: ${off.objective.toFixed(4)}  ${off.perSource}`);
for (const s of sets) console.log(`input ${s.file.slice(s.file.indexOf('train-broad'))} sha256 ${s.sha256}`);
