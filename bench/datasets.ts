/**
 * The shared benchmark sets, read from ../shared/data/tool-retrieval (never copied into the repo).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogFile, loadQueriesFile, type QueryEntry } from '../src/cli/catalog-file.js';
import type { ServerInfo, ToolSpec } from '../src/core/tool.js';
import type { RankerContext } from '../src/search/ranker.js';
import {
  everydayRequests,
  HOLDOUT_COUNT,
  holdoutRequests,
  realServers,
  realTools,
} from '../test/fixtures/real-servers/index.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const DATA_DIR = process.env.TOOLSEARCH_DATA ?? resolve(HERE, '../../shared/data/tool-retrieval');

export const QUERY_SETS = ['livemcpbench', 'stabletoolbench', 'toollens', 'metatool', 'bfcl', 'seal-tools'] as const;

export interface LabelledQuery {
  qid: string;
  query: string;
  gold: string[][];
}

export interface BenchSet {
  name: string;
  tools: ToolSpec[];
  queries: LabelledQuery[];
  /** What the set's servers say about themselves (MCP `instructions`), when the set has it (C15). */
  servers?: ReadonlyMap<string, ServerInfo>;
}

/** The ranker context of a set: its servers' own texts, when it has them. */
export function setContext(set: BenchSet): RankerContext | undefined {
  return set.servers ? { servers: set.servers } : undefined;
}

export function loadTools(set: string): ToolSpec[] {
  return [...loadCatalogFile(join(DATA_DIR, set, 'catalog.jsonl'), { warn: null }).tools];
}

/** `split`: `queries` (the evaluation queries) or `train` (README §10: metatool and toollens only). */
export function loadSet(set: string, split: 'queries' | 'train' = 'queries'): BenchSet {
  const queriesPath = join(DATA_DIR, set, `${split}.jsonl`);
  const queries = existsSync(queriesPath)
    ? loadQueriesFile(queriesPath).map((q: QueryEntry, i) => ({
        qid: q.qid ?? String(i),
        query: q.query,
        gold: q.gold ?? [],
      }))
    : [];
  return { name: set, tools: loadTools(set), queries };
}

/**
 * livemcpbench plus smithery as distractors, as `baseline_bm25.py --distractors smithery`:
 * smithery tools identical in (name, description) to a livemcpbench tool are left out (finding
 * them would be right but scored as a miss); a colliding model-facing name gets a suffix.
 */
export function distractorSet(): BenchSet & { added: number; skipped: number } {
  const base = loadSet('livemcpbench');
  const same = new Set(base.tools.map((t) => `${t.originalName ?? t.name}\u0000${t.description}`));
  const names = new Set(base.tools.map((t) => t.name));
  const ids = new Set(base.tools.map((t) => t.id));
  const tools = [...base.tools];
  let skipped = 0;
  for (const tool of loadTools('smithery')) {
    if (same.has(`${tool.originalName ?? tool.name}\u0000${tool.description}`)) {
      skipped++;
      continue;
    }
    let name = tool.name;
    for (let n = 2; names.has(name); n++) name = `${tool.name}_d${n}`;
    names.add(name);
    const id = ids.has(tool.id) ? `distractor:${tool.id}` : tool.id;
    tools.push({ ...tool, name, ...(id !== undefined && { id }) });
  }
  return {
    name: 'livemcpbench + smithery',
    tools,
    queries: base.queries,
    added: tools.length - base.tools.length,
    skipped,
  };
}

/** The everyday-request set (C14): kept in the repo, not in ../shared, so tests read it too. */
export const EVERYDAY = 'everyday';

export function everydaySet(): BenchSet {
  return { name: EVERYDAY, tools: realTools(), queries: everydayRequests(), servers: realServers() };
}

/**
 * The everyday holdouts (C14): new intents over the same catalog, each written before any ranking
 * of it was seen, reported apart from the six sets and from `everyday`. Each is read once as an
 * estimate; the first five were then developed on, the sixth and seventh were read once at the end
 * of the last round and never tuned on, and the eighth and ninth, written this round, are the clean
 * estimate (docs/search-quality.md tells which is which).
 */
export const EVERYDAY_HOLDOUT = 'everyday-holdout';

/** Holdout `n`'s set name (1-based): `everyday-holdout`, `everyday-holdout-2`, … */
export function holdoutName(n: number): string {
  return n === 1 ? EVERYDAY_HOLDOUT : `${EVERYDAY_HOLDOUT}-${n}`;
}

export function holdoutSet(n = 1): BenchSet {
  return { name: holdoutName(n), tools: realTools(), queries: holdoutRequests(n), servers: realServers() };
}

/** The everyday sets by name: the set and every holdout, measured whole, per phrasing, outside the dev sets' mean. */
export const EVERYDAY_SETS: ReadonlyMap<string, () => BenchSet> = new Map([
  [EVERYDAY, everydaySet],
  ...Array.from({ length: HOLDOUT_COUNT }, (_, k) => [holdoutName(k + 1), () => holdoutSet(k + 1)] as const),
]);

/** Per-subset key, as `subset_of` in baseline_bm25.py; the everyday set's subsets are its phrasings. */
export function subsetOf(set: string, qid: string): string | undefined {
  if (EVERYDAY_SETS.has(set)) return qid.slice(qid.lastIndexOf(':') + 1);
  if (set === 'stabletoolbench' || set === 'seal-tools' || set === 'metatool') return qid.split('-')[0];
  if (set === 'bfcl') return qid.replace(/_\d+$/, '');
  return undefined;
}
