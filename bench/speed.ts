/**
 * `npm run bench:speed` — index build time, heap held by the index, and p50/p99 query latency
 * per ranker and for MiniSearch, in one process, on smithery (9,976 tools) and on a ~650-tool
 * catalog (livemcpbench + github-mcp-server); then the public entry points (issue 24):
 * `ToolSearcher.search` in process on short keyword queries and long task sentences, and the CLI's
 * batch mode (`toolsearch search --catalog … --queries …`) over 2,000 ToolLens queries, each against
 * MiniSearch in the same run. Writes bench/results/speed.md.
 * Run with --expose-gc (the npm script does) so heap numbers are measured after a collection.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseKeywordQuery, type ParsedQuery } from '../src/search/query.js';
import type { Ranker, RankerIndex } from '../src/search/ranker.js';
import { createRanker } from '../src/search/rankers.js';
import type { ToolSpec } from '../src/core/tool.js';
import { ToolSearcher, type SearchPool } from '../src/search/searcher.js';
import { loadCatalogFile, loadQueriesFile } from '../src/cli/catalog-file.js';
import { runSearchCommand } from '../src/cli/commands/search.js';
import { DATA_DIR, loadSet, loadTools } from './datasets.js';
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

// --- Public entry points (issue 24): what a user calls, not the bare ranker. ---

interface EntryRow {
  catalog: string;
  queries: string;
  count: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  miniP50Ms: number;
  miniMeanMs: number;
}

function timeEach(run: (q: string) => void, list: readonly string[], rounds: number): number[] {
  for (const q of list) run(q); // warm (index build, thesaurus)
  const times: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const q of list) {
      const t = performance.now();
      run(q);
      times.push(performance.now() - t);
    }
  return times.sort((a, b) => a - b);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function searcherRows(): EntryRow[] {
  const out: EntryRow[] = [];
  const lists: [string, string[]][] = [
    ['short keywords', SHORT_QUERIES],
    ['long task sentences (livemcpbench)', loadSet('livemcpbench').queries.map((q) => q.query)],
  ];
  for (const [name, tools] of catalogs) {
    const pool: SearchPool = { tools, deferred: new Set(tools.map((t) => t.name)), pendingServers: [] };
    const searcher = new ToolSearcher();
    const mini = miniSearchRanker.build(tools);
    // Issue 24: the weak-result path (C12 suggestions) should cost no more than the ranked one.
    const sentences = lists[1]![1];
    const weak = sentences.filter((q) => searcher.search(pool, q).lowConfidence === true);
    const split: [string, string[]][] = [
      [`long task sentences, weak results (C12 suggestions)`, weak],
      [`long task sentences, confident results`, sentences.filter((q) => !weak.includes(q))],
    ];
    for (const [label, list] of [...lists, ...split]) {
      if (list.length === 0) continue;
      const times = timeEach((q) => searcher.search(pool, q), list, 3);
      const miniTimes = timeEach((q) => mini.search(parseKeywordQuery(q), 5), list, 3);
      out.push({
        catalog: name,
        queries: label,
        count: list.length,
        p50Ms: percentile(times, 50),
        p99Ms: percentile(times, 99),
        meanMs: mean(times),
        miniP50Ms: percentile(miniTimes, 50),
        miniMeanMs: mean(miniTimes),
      });
    }
  }
  return out;
}

/** 2,000 ToolLens queries (the test split, then the train split), as a queries file for the CLI. */
function toolLensQueries(): { file: string; one: string; queries: string[] } {
  const all = [
    ...loadQueriesFile(join(DATA_DIR, 'toollens', 'queries.jsonl')),
    ...loadQueriesFile(join(DATA_DIR, 'toollens', 'train.jsonl')),
  ].slice(0, 2000);
  const file = join(tmpdir(), `toolsearch-speed-${process.pid}.jsonl`);
  const one = join(tmpdir(), `toolsearch-speed-${process.pid}-1.jsonl`);
  writeFileSync(file, all.map((q) => JSON.stringify({ qid: q.qid, query: q.query })).join('\n'));
  writeFileSync(one, JSON.stringify({ qid: all[0]!.qid, query: all[0]!.query }));
  return { file, one, queries: all.map((q) => q.query) };
}

const CLI = join(HERE, '..', 'src', 'cli', 'main.ts');

/** CPU ms (user + system, this process) of `run`: robust to other jobs on a loaded machine, unlike wall time. */
async function cpuMs(run: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * Per-query cost of the CLI batch mode (`toolsearch search --catalog smithery --queries … --json`):
 * its command function `runSearchCommand` — the one the CLI runs after parsing flags — on the
 * catalog loaded once, (2,000 queries − 1 query) / 1,999 so the index build cancels out, median of
 * 3 pairs, in CPU time. MiniSearch: CPU time of the same 2,000 queries over its built index.
 * One spawned CLI run is timed as well (wall, whole process) to show the fixed cost.
 */
async function cliRow(): Promise<{ cliMs: number; miniMs: number; wallMs: number; runs: number[][] }> {
  const catalogFile = join(DATA_DIR, 'smithery', 'catalog.jsonl');
  const catalog = loadCatalogFile(catalogFile, { warn: null });
  const { file, one, queries } = toolLensQueries();
  const options = (q: string) => ({
    catalog: catalogFile,
    queries: q,
    json: true,
    maxResults: '5',
    ranker: 'default',
    mode: 'default',
  });
  const runs: number[][] = [];
  for (let i = 0; i < 3; i++)
    runs.push([
      await cpuMs(() => runSearchCommand(catalog, options(one), () => {})),
      await cpuMs(() => runSearchCommand(catalog, options(file), () => {})),
    ]);
  const perQuery = runs.map(([a, b]) => (b! - a!) / (queries.length - 1)).sort((a, b) => a - b);
  const mini = miniSearchRanker.build(catalog.tools);
  const parsed = queries.map(parseKeywordQuery);
  for (const q of parsed.slice(0, 50)) mini.search(q, 5);
  const miniMs =
    (await cpuMs(() => {
      for (const q of parsed) mini.search(q, 5);
    })) / queries.length;
  const started = performance.now();
  execFileSync(
    process.execPath,
    ['--import', 'tsx', CLI, 'search', '--catalog', catalogFile, '--queries', file, '--json'],
    {
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  return { cliMs: perQuery[1]!, miniMs, wallMs: performance.now() - started, runs };
}
const table = [
  '| catalog | ranker | tools | build ms | memory MB | p50 ms | p99 ms | queries/s | throughput vs MiniSearch |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const mini = rows.find((m) => m.catalog === r.catalog && m.ranker === 'minisearch')!;
    return `| ${r.catalog} | ${r.ranker} | ${r.tools} | ${f(r.buildMs, 1)} | ${f(r.heapMb, 1)} | ${f(r.p50Ms, 3)} | ${f(r.p99Ms, 3)} | ${Math.round(r.qps)} | ${f(r.qps / mini.qps)}× |`;
  }),
];
process.stdout.write(`${table.join('\n')}\n`);

const entries = searcherRows();
const entryTable = [
  '| catalog | queries | n | `Searcher.search` p50 ms | p99 ms | mean ms | MiniSearch p50 ms | mean ms | MiniSearch / Searcher (p50) | (mean) |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...entries.map(
    (r) =>
      `| ${r.catalog} | ${r.queries} | ${r.count} | ${f(r.p50Ms, 3)} | ${f(r.p99Ms, 3)} | ${f(r.meanMs, 3)} | ${f(r.miniP50Ms, 3)} | ${f(r.miniMeanMs, 3)} | ${f(r.miniP50Ms / r.p50Ms, 1)}× | ${f(r.miniMeanMs / r.meanMs, 1)}× |`,
  ),
];
process.stdout.write(`${entryTable.join('\n')}\n`);
const cli = await cliRow();
const cliLine = `CLI batch mode (\`runSearchCommand\`, what \`toolsearch search --catalog smithery --queries FILE --json\` runs), smithery (9,976 tools), 2,000 ToolLens queries: **${f(cli.cliMs, 3)} ms CPU per query** (median of 3 runs of (2,000 − 1 query) / 1,999, so the index build cancels; CPU ms per run [1 query, 2,000 queries]: ${cli.runs.map(([a, b]) => `[${Math.round(a!)}, ${Math.round(b!)}]`).join(', ')}); MiniSearch on the same queries ${f(cli.miniMs, 3)} ms CPU per query → **${f(cli.miniMs / cli.cliMs, 1)}×** MiniSearch's per-query cost. One spawned \`toolsearch search\` process over the 2,000 queries (tsx, catalog load and index build included): ${Math.round(cli.wallMs)} ms wall.`;
process.stdout.write(`${cliLine}\n`);
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
      '## Public entry points (issue 24)',
      '',
      '`ToolSearcher.search` in process (the pool built once; index, pool facts and server summaries cached per pool), 3 timed rounds after a warm-up; MiniSearch (the bare index) on the same queries in the same process.',
      '',
      ...entryTable,
      '',
      cliLine,
      '',
    ].join('\n'),
  );
  process.stderr.write('wrote bench/results/speed.md\n');
}
