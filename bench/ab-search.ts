/**
 * `npx tsx bench/ab-search.ts <old-src-dir>` — the same searches through two versions of the search
 * code in one process, in alternating blocks, so machine load hits both alike (a 2-core machine
 * shared with other jobs swings absolute timings ±50 %). The old version is a copy of `src` from
 * another commit, e.g. `mkdir /tmp/old && git archive <commit> src | tar -x -C /tmp/old` then
 * `npx tsx bench/ab-search.ts /tmp/old/src` (the copy must sit where its imports resolve, e.g. inside
 * the repository). Prints, per query set on Smithery (9,976 tools): `ToolSearcher.search` CPU ms per
 * search (median over blocks) for old and new and the median of the per-block ratios, and the bare
 * default ranker's p50 (best and median of 9 rounds).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseKeywordQuery } from '../src/search/query.js';
import { createRanker } from '../src/search/rankers.js';
import { ToolSearcher } from '../src/search/searcher.js';
import { DATA_DIR, loadTools } from './datasets.js';

const oldSrc = resolve(process.argv[2] ?? '');
const old = {
  searcher: (await import(join(oldSrc, 'search', 'searcher.js'))) as typeof import('../src/search/searcher.js'),
  rankers: (await import(join(oldSrc, 'search', 'rankers.js'))) as typeof import('../src/search/rankers.js'),
};
const tools = loadTools('smithery');
const pool = { tools, deferred: new Set(tools.map((t) => t.name)), pendingServers: [] };
const tasks = readFileSync(join(DATA_DIR, 'livemcpbench', 'queries.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => (JSON.parse(l) as { query: string }).query);
const SHORT = ['create issue', 'send message', 'weather forecast', 'pull request', 'slack channel', 'pdf document'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function searcherAB(label: string, queries: string[], blocks = 30): void {
  const a = new old.searcher.ToolSearcher();
  const b = new ToolSearcher();
  for (let r = 0; r < 3; r++)
    for (const q of queries) {
      a.search(pool, q);
      b.search(pool, q);
    }
  const block = (s: { search: (p: typeof pool, q: string) => unknown }) => {
    const c = process.cpuUsage();
    for (const q of queries) s.search(pool, q);
    const u = process.cpuUsage(c);
    return (u.user + u.system) / 1000 / queries.length;
  };
  const ta: number[] = [];
  const tb: number[] = [];
  const ratio: number[] = [];
  for (let k = 0; k < blocks; k++) {
    const [x, y] = k % 2 ? [block(a), block(b)] : [block(b), block(a)];
    const [oldMs, newMs] = k % 2 ? [x, y] : [y, x];
    ta.push(oldMs);
    tb.push(newMs);
    ratio.push(newMs / oldMs);
  }
  console.log(
    `Searcher.search, ${label}: CPU ms/search old ${median(ta).toFixed(3)} new ${median(tb).toFixed(3)}; new/old ${median(ratio).toFixed(2)}`,
  );
}

function rankerAB(): void {
  const queries = [...tasks, ...SHORT].map(parseKeywordQuery);
  const a = old.rankers.createRanker('default').build(tools);
  const b = createRanker('default').build(tools);
  for (let r = 0; r < 3; r++)
    for (const q of queries) {
      a.search(q, 5);
      b.search(q, 5);
    }
  const p50 = (index: { search: (q: (typeof queries)[number], k: number) => unknown }) => {
    const times: number[] = [];
    for (let r = 0; r < 3; r++)
      for (const q of queries) {
        const t = performance.now();
        index.search(q, 5);
        times.push(performance.now() - t);
      }
    return median(times);
  };
  const ta: number[] = [];
  const tb: number[] = [];
  for (let k = 0; k < 9; k++) {
    if (k % 2) {
      ta.push(p50(a));
      tb.push(p50(b));
    } else {
      tb.push(p50(b));
      ta.push(p50(a));
    }
  }
  console.log(
    `bare default ranker p50 ms: old best ${Math.min(...ta).toFixed(3)} median ${median(ta).toFixed(3)}; new best ${Math.min(...tb).toFixed(3)} median ${median(tb).toFixed(3)}`,
  );
}

searcherAB('long task sentences (94 livemcpbench)', tasks);
searcherAB('short keywords', SHORT, 60);
rankerAB();
