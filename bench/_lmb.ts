import { createRanker } from '../src/search/rankers.js';
import { parseKeywordQuery } from '../src/search/query.js';
import { LearnedLog } from '../src/search/learning/log.js';
import { LearnedRanking } from '../src/search/learning/learned-ranking.js';
import { loadSet } from './datasets.js';
import { shuffled } from './learning-split.js';
const set = loadSet('livemcpbench');
const idOf = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));
const nameOf = new Map(set.tools.map((t) => [t.id ?? t.name, t.name]));
const index = createRanker('default').build(set.tools);
const order = shuffled(set.queries, 7);
const cut = Math.floor(order.length * 0.5);
const past = order.slice(0, cut),
  fut = order.slice(cut);
const log = new LearnedLog({ perTool: 10000, total: 1e6 });
const pastBy = new Map<string, string[]>();
let at = Date.now() - 1000;
for (const q of past)
  for (const g of q.gold) {
    const t = nameOf.get(g[0]!)!;
    log.record({ query: q.query, tool: t, at: at++ });
    pastBy.set(g[0]!, [...(pastBy.get(g[0]!) ?? []), q.query]);
  }
const lr = new LearnedRanking(log);
const lexicalFor = (text: string, depth: number) => index.search(parseKeywordQuery(text), depth);
let shown = 0;
for (const q of fut) {
  const p = parseKeywordQuery(q.query);
  const le = lr
    .rank(set.tools, q.query, (d) => index.search(p, d), 50, undefined, lexicalFor)
    .map((r) => idOf.get(r.name)!);
  const missed = q.gold.filter((g) => !g.some((id) => le.slice(0, 5).includes(id)) && pastBy.has(g[0]!));
  if (missed.length === 0) continue;
  if (shown++ > 6) break;
  console.log(`\nQ: ${q.query.slice(0, 200)}\n top5: ${le.slice(0, 5).join(' | ')}`);
  for (const g of missed)
    console.log(
      `  missed ${g[0]} (rank ${le.indexOf(g[0]!) + 1}) past: ${pastBy
        .get(g[0]!)!
        .map((x) => x.slice(0, 120))
        .join(' // ')}`,
    );
}
console.log('weight', lr.calibration?.weight);
