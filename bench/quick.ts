/**
 * Fast iteration loop for the default ranker only: every labelled set + the distractor case,
 * R@5 per set and the mean. Not a report (bench:retrieval writes those).
 *   npx tsx bench/quick.ts                         # default options
 *   OPTS='{"k1":1.5}' npx tsx bench/quick.ts       # override DefaultRankerOptions (JSON)
 *   FAIL=toollens npx tsx bench/quick.ts           # also print misses of one set
 *   THESAURUS=/tmp/a.txt,/tmp/b.ts npx tsx bench/quick.ts   # expansion from other tables (merged)
 * The everyday-request set (C14) is printed beside them (R@5 and R@1), outside the mean.
 */
import { defaultRanker, type DefaultRankerOptions } from '../src/search/rank-default/index.js';
import { parseKeywordQuery } from '../src/search/query.js';
import { readFileSync } from 'node:fs';
import { parseThesaurus, type Neighbour, type Thesaurus } from '../src/search/thesaurus.js';
import { distractorSet, EVERYDAY, everydaySet, loadSet, QUERY_SETS, setContext, type BenchSet } from './datasets.js';
import { evaluate, rankerRankIds } from './evaluate.js';

const options = JSON.parse(process.env.OPTS ?? '{}') as Partial<DefaultRankerOptions>;
if (process.env.THESAURUS) options.thesaurus = loadTables(process.env.THESAURUS.split(','));
const fail = process.env.FAIL;
const only = process.env.SETS?.split(',');
const ranker = defaultRanker(options);
const out: Record<string, number> = {};
const started = Date.now();
for (const name of [...QUERY_SETS, 'distractors', EVERYDAY]) {
  if (only && !only.includes(name)) continue;
  const set: BenchSet = name === 'distractors' ? distractorSet() : name === EVERYDAY ? everydaySet() : loadSet(name);
  const rank = rankerRankIds(ranker, set.tools, setContext(set));
  const all = evaluate(set, rank).all;
  out[name] = all['R@5'];
  if (name === EVERYDAY) out['everyday R@1'] = all['R@1'];
  if (fail === name) printMisses(set);
}
// The mean is over the six labelled sets only (the distractor case and the everyday set stand apart).
const labelled = Object.entries(out)
  .filter(([k]) => (QUERY_SETS as readonly string[]).includes(k))
  .map(([, v]) => v);
const mean = labelled.reduce((a, b) => a + b, 0) / Math.max(1, labelled.length);
console.log(
  Object.entries(out)
    .map(([k, v]) => `${k.startsWith(EVERYDAY) ? k : k.slice(0, 8)} ${v.toFixed(3)}`)
    .join('  ') + `  | mean ${mean.toFixed(4)}  (${Date.now() - started} ms)`,
);

function printMisses(set: BenchSet): void {
  const index = ranker.build(set.tools);
  const byId = new Map(set.tools.map((t) => [t.id ?? t.name, t]));
  const idOf = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));
  let shown = 0;
  for (const q of set.queries) {
    const top = index.search(parseKeywordQuery(q.query), 10).map((r) => ({ id: idOf.get(r.name)!, score: r.score }));
    const top5 = new Set(top.slice(0, 5).map((r) => r.id));
    const missed = q.gold.filter((g) => !g.some((id) => top5.has(id)));
    if (missed.length === 0 || shown++ > Number(process.env.N ?? 15)) continue;
    console.log(`\nQ ${q.qid}: ${q.query.slice(0, 300)}`);
    for (const g of missed) {
      const t = byId.get(g[0]!);
      const rank = top.findIndex((r) => g.includes(r.id));
      console.log(`  MISS(${rank < 0 ? '>10' : rank + 1}) ${g[0]}  :: ${t?.description.slice(0, 120)}`);
    }
    for (const r of top.slice(0, 5))
      console.log(`  top ${r.score.toFixed(2)} ${r.id} :: ${byId.get(r.id)?.description.slice(0, 90)}`);
  }
}

/** Tables as plain `stem n s …` lines or as a generated thesaurus-table.ts; several are merged (max similarity). */
function loadTables(files: string[]): Thesaurus {
  const merged = new Map<string, Map<string, number>>();
  for (const file of files) {
    let text = readFileSync(file, 'utf8');
    if (file.endsWith('.ts')) text = JSON.parse(text.slice(text.indexOf('= ') + 2, text.lastIndexOf(';'))) as string;
    for (const [term, list] of parseThesaurus(text)) {
      let m = merged.get(term);
      if (!m) merged.set(term, (m = new Map()));
      for (const n of list) m.set(n.term, Math.max(m.get(n.term) ?? 0, n.similarity));
    }
  }
  const out = new Map<string, Neighbour[]>();
  for (const [term, m] of merged)
    out.set(
      term,
      [...m].map(([t, similarity]) => ({ term: t, similarity })).sort((a, b) => b.similarity - a.similarity),
    );
  return out;
}
