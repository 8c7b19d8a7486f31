/**
 * Builds the tool-text thesaurus shipped in `src/search/tables/thesaurus-table.ts` (issue 12, C6).
 *
 *   npx tsx bench/build-thesaurus.ts                 # writes src/search/tables/thesaurus-table.ts
 *   npx tsx bench/build-thesaurus.ts --no-smithery   # ablation: without the Smithery tools
 *   npx tsx bench/build-thesaurus.ts --out /tmp/t.ts # write elsewhere (experiments)
 *   npx tsx bench/build-thesaurus.ts --with-eval-catalogs --out /tmp/t.ts  # ablation: the evaluated
 *       sets' own tool texts too (transductive; never shipped)
 *
 * Input: tool TEXTS only (names, descriptions, parameter names and descriptions), never queries or
 * labels, and never the catalogs of the six evaluated sets: Smithery (9,976 MCP tools; used as
 * distractors in one run, see bench/README.md), github-mcp-server, the reference servers, and the
 * tool lists of the out-of-domain train-broad files (data README §11; their queries are not read,
 * and bfcl_extra / seal_dev are skipped because they come from evaluated sets).
 *
 * Method: each tool gives word sequences (name parts + description; each parameter's name +
 * description), stop words dropped, Porter stems. Co-occurrence counts over ±5-word windows,
 * positive PMI with context-distribution smoothing (α = 0.75), each word's PPMI vector cut to its
 * 100 strongest contexts, cosine similarity between words. A word keeps its 6 nearest neighbours
 * with similarity ≥ 0.1. Identical (name, description) pairs count once: Smithery forks repeat
 * texts, and a repeated text would otherwise dominate the counts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identifierParts, words } from '../src/search/text.js';
import { STOP_WORDS, stem } from '../src/search/vocabulary.js';
import { DATA_DIR, QUERY_SETS } from './datasets.js';

const HERE = dirname(fileURLToPath(import.meta.url));
// Overridable for experiments (THES_WINDOW=… etc.); the shipped table uses the defaults.
const WINDOW = Number(process.env.THES_WINDOW ?? 5);
const ALPHA = 0.75;
const MIN_COUNT = Number(process.env.THES_MIN_COUNT ?? 3);
const CONTEXTS_PER_WORD = Number(process.env.THES_CONTEXTS ?? 100);
const NEIGHBOURS = 6;
const MIN_SIMILARITY = 0.1;

const CATALOGS = ['smithery', 'github-mcp-server', 'reference-servers'];
const BROAD = ['toolalpaca', 'apibank', 'nestful', 'restbench', 'apibench', 'ultratool', 'glaive_demo'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface ToolText {
  name: string;
  description: string;
  params: { name: string; description: string }[];
}

interface Input {
  file: string;
  sha256: string;
  tools: ToolText[];
}

function readInput(file: string, parse: (line: Record<string, unknown>) => ToolText[]): Input {
  const text = readFileSync(file, 'utf8');
  const tools: ToolText[] = [];
  for (const line of text.split('\n'))
    if (line.trim() !== '') tools.push(...parse(JSON.parse(line) as Record<string, unknown>));
  return { file, sha256: createHash('sha256').update(text).digest('hex'), tools };
}

function catalogTool(row: Record<string, unknown>): ToolText[] {
  const schema = row.inputSchema as { properties?: Record<string, { description?: unknown }> } | undefined;
  const params = Object.entries(schema?.properties ?? {}).map(([name, p]) => ({
    name,
    description: typeof p?.description === 'string' ? p.description : '',
  }));
  return [{ name: String(row.name), description: String(row.description ?? ''), params }];
}

function broadTools(row: Record<string, unknown>): ToolText[] {
  return ((row.tools as { name: string; description?: string; params?: string[] }[]) ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
    params: (t.params ?? []).map((name) => ({ name, description: '' })),
  }));
}

/** Stemmed content words; ASCII words of 2+ letters only (numbers and CJK runs carry no synonymy here). */
function terms(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    if (STOP_WORDS.has(token) || !/^[a-z][a-z0-9]*$/.test(token) || token.length < 2 || token.length > 24) continue;
    out.push(stem(token));
  }
  return out;
}

function sequences(tool: ToolText): string[][] {
  const out = [[...terms(identifierParts(tool.name)), ...terms(words(tool.description))]];
  for (const p of tool.params) out.push([...terms(identifierParts(p.name)), ...terms(words(p.description))]);
  return out.filter((s) => s.length > 1);
}

function main(): void {
  if (!existsSync(DATA_DIR)) {
    console.error(`data folder ${DATA_DIR} is absent (set TOOLSEARCH_DATA); nothing built`);
    process.exit(1);
  }
  const withSmithery = !process.argv.includes('--no-smithery');
  const inputs: Input[] = [];
  for (const set of CATALOGS) {
    if (set === 'smithery' && !withSmithery) continue;
    inputs.push(readInput(join(DATA_DIR, set, 'catalog.jsonl'), catalogTool));
  }
  if (process.argv.includes('--with-eval-catalogs')) {
    for (const set of QUERY_SETS) inputs.push(readInput(join(DATA_DIR, set, 'catalog.jsonl'), catalogTool));
  }
  for (const source of BROAD) inputs.push(readInput(join(DATA_DIR, 'train-broad', `${source}.jsonl`), broadTools));

  // Identical (name, description) texts once.
  const seen = new Set<string>();
  const seqs: string[][] = [];
  let toolCount = 0;
  for (const input of inputs) {
    for (const tool of input.tools) {
      const key = `${tool.name}\u0000${tool.description}`;
      if (seen.has(key)) continue;
      seen.add(key);
      toolCount++;
      seqs.push(...sequences(tool));
    }
  }

  // Vocabulary: words seen at least MIN_COUNT times.
  const freq = new Map<string, number>();
  for (const s of seqs) for (const w of s) freq.set(w, (freq.get(w) ?? 0) + 1);
  const vocab = [...freq].filter(([, c]) => c >= MIN_COUNT).map(([w]) => w);
  const id = new Map(vocab.map((w, i) => [w, i]));
  const V = vocab.length;

  // Symmetric window co-occurrence counts (pairs packed into one number key).
  const pair = new Map<number, number>();
  const rowSum = new Float64Array(V);
  for (const s of seqs) {
    const ids = s.map((w) => id.get(w) ?? -1);
    for (let i = 0; i < ids.length; i++) {
      const a = ids[i]!;
      if (a < 0) continue;
      for (let j = i + 1; j <= Math.min(ids.length - 1, i + WINDOW); j++) {
        const b = ids[j]!;
        if (b < 0 || b === a) continue;
        pair.set(a * V + b, (pair.get(a * V + b) ?? 0) + 1);
        pair.set(b * V + a, (pair.get(b * V + a) ?? 0) + 1);
        rowSum[a]! += 1;
        rowSum[b]! += 1;
      }
    }
  }
  let total = 0;
  const ctxSmoothed = new Float64Array(V);
  let smoothedTotal = 0;
  for (let i = 0; i < V; i++) {
    total += rowSum[i]!;
    ctxSmoothed[i] = rowSum[i]! ** ALPHA;
    smoothedTotal += ctxSmoothed[i]!;
  }

  if (process.env.THES_DUMP) {
    // Experiments (SVD in bench/README): the unpruned PPMI matrix as vocab + triplets.
    const trip: number[] = [];
    for (const [key, count] of pair) {
      const w = Math.floor(key / V);
      const c = key - w * V;
      const pmi = Math.log(count / total / ((rowSum[w]! / total) * (ctxSmoothed[c]! / smoothedTotal)));
      if (pmi > 0) trip.push(w, c, Math.round(pmi * 1000) / 1000);
    }
    writeFileSync(process.env.THES_DUMP, JSON.stringify({ vocab, trip }));
  }

  // PPMI rows, each cut to its strongest contexts and L2-normalized.
  const rows: { ctx: number[]; val: number[] }[] = Array.from({ length: V }, () => ({ ctx: [], val: [] }));
  for (const [key, count] of pair) {
    const w = Math.floor(key / V);
    const c = key - w * V;
    const pmi = Math.log(count / total / ((rowSum[w]! / total) * (ctxSmoothed[c]! / smoothedTotal)));
    if (pmi > 0) {
      rows[w]!.ctx.push(c);
      rows[w]!.val.push(pmi);
    }
  }
  const postings: { w: number; v: number }[][] = Array.from({ length: V }, () => []);
  rows.forEach((row, w) => {
    const order = row.val
      .map((_, i) => i)
      .sort((a, b) => row.val[b]! - row.val[a]!)
      .slice(0, CONTEXTS_PER_WORD);
    const norm = Math.sqrt(order.reduce((s, i) => s + row.val[i]! ** 2, 0)) || 1;
    row.ctx = order.map((i) => row.ctx[i]!);
    row.val = order.map((i) => row.val[i]! / norm);
    row.ctx.forEach((c, i) => {
      postings[c]!.push({ w, v: row.val[i]! });
    });
  });

  // Cosine neighbours through the context postings.
  const dot = new Float64Array(V);
  const lines: string[] = [];
  for (let w = 0; w < V; w++) {
    const touched: number[] = [];
    const row = rows[w]!;
    row.ctx.forEach((c, i) => {
      for (const p of postings[c]!) {
        if (p.w === w) continue;
        if (dot[p.w] === 0) touched.push(p.w);
        dot[p.w]! += row.val[i]! * p.v;
      }
    });
    const best = touched
      .filter((o) => dot[o]! >= MIN_SIMILARITY)
      .sort((a, b) => dot[b]! - dot[a]! || a - b)
      .slice(0, NEIGHBOURS);
    if (best.length > 0)
      lines.push(`${vocab[w]} ${best.map((o) => `${vocab[o]} ${Math.round(dot[o]! * 100)}`).join(' ')}`);
    for (const o of touched) dot[o] = 0;
  }
  lines.sort();

  const out = resolve(arg('out') ?? join(HERE, '../src/search/tables/thesaurus-table.ts'));
  const table = lines.join('\n');
  const provenance = inputs.map(
    (i) => ` *   ${relative(DATA_DIR, i.file)}  sha256 ${i.sha256.slice(0, 16)}...  ${i.tools.length} tools`,
  );
  const source = [
    '/**',
    ' * GENERATED by `npx tsx bench/build-thesaurus.ts' +
      (withSmithery ? '' : ' --no-smithery') +
      '` - do not edit by hand.',
    ' * The tool-text thesaurus: stem -> up to 6 neighbour stems with cosine similarity x 100, from PPMI over',
    ` * +/-${WINDOW}-word windows of tool names, descriptions and parameter texts (no queries, no labels).`,
    ` * ${toolCount} distinct tool texts, ${V} words (count >= ${MIN_COUNT}), ${lines.length} entries. Inputs (from the`,
    " * shared tool-retrieval data, see its README for each source's repository and licence):",
    ...provenance,
    ' */',
    `export const THESAURUS_TABLE: string = ${JSON.stringify(table)};`,
    '',
  ].join('\n');
  writeFileSync(out, source);
  console.error(
    `${toolCount} tool texts, ${V} words, ${lines.length} entries, ${(source.length / 1024).toFixed(0)} KB → ${out}`,
  );
}

main();
