/**
 * `npm run bench:speed` — index build time, heap held by the index, and p50/p99 query latency
 * per ranker and for MiniSearch, in one process, on smithery (9,976 tools) and on a ~650-tool
 * catalog (livemcpbench + github-mcp-server). Writes bench/results/speed.md.
 * Run with --expose-gc (the npm script does) so heap numbers are measured after a collection.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseKeywordQuery, type ParsedQuery } from '../src/search/query.js';
import type { Ranker, RankerIndex } from '../src/search/ranker.js';
import { createRanker } from '../src/search/rankers.js';
import type { ToolSpec } from '../src/core/tool.js';
import { loadSet, loadTools } from './datasets.js';
import { miniSearchRanker } from './minisearch-peer.js';
import { header } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const gc = (globalThis as { gc?: () => void }).gc;

/** Fixed query list: the 94 livemcpbench task texts plus short keyword queries. */
const SHORT_QUERIES = [
  'create issue',
  'send message',
  'search web',
  'read file',
  'list directory',
  'weather forecast',
  'stock price',
  'translate text',
  'generate chart',
  'pull request',
  'github repository',
  'slack channel',
  'database query',
  'calendar event',
  'pdf document',
  'word document',
  'email',
  'map directions',
  'crypto price',
  'news headlines',
];

function queries(): ParsedQuery[] {
  return [...loadSet('livemcpbench').queries.map((q) => q.query), ...SHORT_QUERIES].map(parseKeywordQuery);
}

function heapUsed(): number {
  gc?.();
  gc?.();
  // Typed-array postings live in ArrayBuffers, outside heapUsed: count both.
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface SpeedRow {
  catalog: string;
  ranker: string;
  tools: number;
  buildMs: number;
  heapMb: number;
  p50Ms: number;
  p99Ms: number;
  qps: number;
}

function measure(catalog: string, tools: readonly ToolSpec[], ranker: Ranker, list: ParsedQuery[]): SpeedRow {
  // Build: warm once, then the median of 5 builds.
  ranker.build(tools);
  const builds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    ranker.build(tools);
    builds.push(performance.now() - t);
  }
  const before = heapUsed();
  const index: RankerIndex = ranker.build(tools);
  const heapMb = (heapUsed() - before) / 1e6;
  // Warm up, then time every query of 3 rounds.
  for (const q of list) index.search(q, 5);
  const times: number[] = [];
  const started = performance.now();
  for (let round = 0; round < 3; round++) {
    for (const q of list) {
      const t = performance.now();
      index.search(q, 5);
      times.push(performance.now() - t);
    }
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  builds.sort((a, b) => a - b);
  return {
    catalog,
    ranker: ranker.name,
    tools: tools.length,
    buildMs: builds[2]!,
    heapMb,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    qps: (times.length / total) * 1000,
  };
}

const rankers: Ranker[] = [createRanker('default'), createRanker('bm25'), createRanker('reference'), miniSearchRanker];
const catalogs: [string, ToolSpec[]][] = [
  ['livemcpbench + github-mcp-server', [...loadTools('livemcpbench'), ...loadTools('github-mcp-server')]],
  ['smithery', loadTools('smithery')],
];
const list = queries();
const rows: SpeedRow[] = [];
for (const [name, tools] of catalogs) {
  for (const ranker of rankers) {
    const row = measure(name, tools, ranker, list);
    rows.push(row);
    process.stderr.write(
      `${name} / ${ranker.name}: build ${row.buildMs.toFixed(1)} ms, p50 ${row.p50Ms.toFixed(3)} ms\n`,
    );
  }
}

const f = (x: number, d = 2) => x.toFixed(d);
const table = [
  '| catalog | ranker | tools | build ms | memory MB | p50 ms | p99 ms | queries/s | throughput vs MiniSearch |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const mini = rows.find((m) => m.catalog === r.catalog && m.ranker === 'minisearch')!;
    return `| ${r.catalog} | ${r.ranker} | ${r.tools} | ${f(r.buildMs, 1)} | ${f(r.heapMb, 1)} | ${f(r.p50Ms, 3)} | ${f(r.p99Ms, 3)} | ${Math.round(r.qps)} | ${f(r.qps / mini.qps)}× |`;
  }),
];
process.stdout.write(`${table.join('\n')}\n`);
if (!process.argv.includes('--no-write')) {
  writeFileSync(
    join(HERE, 'results', 'speed.md'),
    [
      header('Search speed', 'npm run bench:speed'),
      `Query list: the ${list.length - SHORT_QUERIES.length} livemcpbench task texts (long sentences) + ${SHORT_QUERIES.length} short keyword queries, 3 timed rounds after a warm-up; top 5 per query.`,
      'Build = median of 5 index builds (tool specs already parsed). Memory = JS heap + ArrayBuffers held by one index, after GC (shared caches such as the stem cache excluded). Machine: 2 cores.',
      '',
      ...table,
      '',
    ].join('\n'),
  );
  process.stderr.write('wrote bench/results/speed.md\n');
}
