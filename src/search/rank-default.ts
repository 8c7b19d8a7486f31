/**
 * C6 — the default ranker: field-weighted BM25 (BM25F) over a tool's name parts, server name,
 * search hint, description and parameter names/descriptions, with Porter stems, stop words
 * removed from the query (so whole-sentence tasks work as well as keywords), a tool-vocabulary
 * synonym layer, and server-level evidence (query words that describe a server lift its tools).
 *
 * Every per-(term, tool) contribution is computed at build time, so a query is a sum over a few
 * posting lists: fast at 10k tools. One configuration for every dataset (see bench/).
 */
import type { ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';
import { topK, type Ranker, type RankerIndex, type RankedTool } from './ranker.js';
import { identifierParts, schemaParameters, sourceName, words } from './text.js';
import { STOP_WORDS, SYNONYMS, stem } from './vocabulary.js';

export interface DefaultRankerOptions {
  k1: number;
  b: number;
  /** BM25F field weights. */
  fields: { name: number; server: number; hint: number; description: number; params: number; paramDescriptions: number };
  /** Weight of a synonym of a query term, relative to the term itself. */
  synonymWeight: number;
  /** Weight of the server-level score added to each tool of that server. */
  serverWeight: number;
}

export const DEFAULT_RANKER_OPTIONS: DefaultRankerOptions = {
  k1: 1.2,
  b: 0.75,
  fields: { name: 3, server: 1, hint: 2, description: 1, params: 0.5, paramDescriptions: 0.3 },
  synonymWeight: 0.3,
  serverWeight: 0.3,
};

type FieldName = keyof DefaultRankerOptions['fields'];
const FIELD_NAMES: readonly FieldName[] = ['name', 'server', 'hint', 'description', 'params', 'paramDescriptions'];

/** Index terms of free text: lowercase words, stop words dropped, stemmed. */
export function indexTerms(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) if (!STOP_WORDS.has(token)) out.push(stem(token));
  return out;
}

function toolFields(tool: ToolSpec): Record<FieldName, string[]> {
  const parameters = schemaParameters(tool);
  return {
    name: indexTerms(identifierParts(sourceName(tool))),
    server: tool.origin.kind === 'mcp' ? indexTerms(identifierParts(tool.origin.server)) : [],
    hint: indexTerms(words(tool.searchHint ?? '')),
    description: indexTerms(words(tool.description)),
    params: indexTerms(parameters.flatMap((p) => identifierParts(p.name))),
    paramDescriptions: indexTerms(parameters.flatMap((p) => words(p.description))),
  };
}

interface Postings {
  doc: Int32Array;
  weight: Float32Array;
}

/** BM25F postings: term → (doc, idf × saturated weighted tf). */
function buildPostings(docs: Record<FieldName, string[]>[], options: DefaultRankerOptions): Map<string, Postings> {
  const n = docs.length;
  const avg = {} as Record<FieldName, number>;
  for (const f of FIELD_NAMES) avg[f] = Math.max(1e-9, docs.reduce((s, d) => s + d[f].length, 0) / Math.max(1, n));
  const lists = new Map<string, { doc: number[]; tf: number[] }>();
  docs.forEach((fields, i) => {
    const tf = new Map<string, number>();
    for (const f of FIELD_NAMES) {
      const terms = fields[f];
      if (terms.length === 0) continue;
      const w = options.fields[f] / (1 - options.b + (options.b * terms.length) / avg[f]);
      for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + w);
    }
    for (const [term, value] of tf) {
      let list = lists.get(term);
      if (!list) lists.set(term, (list = { doc: [], tf: [] }));
      list.doc.push(i);
      list.tf.push(value);
    }
  });
  const postings = new Map<string, Postings>();
  const k1 = options.k1;
  for (const [term, list] of lists) {
    const idf = Math.log(1 + (n - list.doc.length + 0.5) / (list.doc.length + 0.5));
    const weight = Float32Array.from(list.tf, (tf) => (idf * tf * (k1 + 1)) / (tf + k1));
    postings.set(term, { doc: Int32Array.from(list.doc), weight });
  }
  return postings;
}

/** Query terms with their weights: each distinct stem once, synonyms at `synonymWeight`. */
export function weightedQueryTerms(text: string, synonymWeight: number): Map<string, number> {
  const terms = new Map<string, number>();
  const stems = indexTerms(words(text));
  for (const s of stems) terms.set(s, 1);
  if (synonymWeight > 0) {
    for (const s of stems) {
      for (const synonym of SYNONYMS.get(s) ?? []) {
        if (!terms.has(synonym)) terms.set(synonym, synonymWeight);
      }
    }
  }
  return terms;
}

class DefaultIndex implements RankerIndex {
  private readonly names: string[];
  private readonly postings: Map<string, Postings>;
  private readonly serverOf: Int32Array;
  private readonly serverPostings: Map<string, Postings> | undefined;
  private readonly serverCount: number;

  constructor(
    tools: readonly ToolSpec[],
    private readonly options: DefaultRankerOptions,
  ) {
    this.names = tools.map((t) => t.name);
    const docs = tools.map(toolFields);
    this.postings = buildPostings(docs, options);
    // Server-level documents: a server's name plus every tool's name and description.
    const servers = new Map<string, number>();
    this.serverOf = Int32Array.from(tools, (t) => {
      if (t.origin.kind !== 'mcp') return -1;
      let id = servers.get(t.origin.server);
      if (id === undefined) servers.set(t.origin.server, (id = servers.size));
      return id;
    });
    this.serverCount = servers.size;
    if (options.serverWeight > 0 && servers.size > 1) {
      const serverDocs = [...servers.keys()].map(() => ({ name: [] as string[], server: [] as string[], hint: [] as string[], description: [] as string[], params: [] as string[], paramDescriptions: [] as string[] }));
      docs.forEach((d, i) => {
        const s = this.serverOf[i]!;
        if (s < 0) return;
        const doc = serverDocs[s]!;
        if (doc.server.length === 0) doc.server.push(...d.server);
        doc.name.push(...d.name);
        doc.description.push(...d.description);
      });
      this.serverPostings = buildPostings(serverDocs, options);
    }
  }

  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[] {
    const terms = weightedQueryTerms(query.text, this.options.synonymWeight);
    const scores = new Float64Array(this.names.length);
    for (const [term, weight] of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      for (let j = 0; j < list.doc.length; j++) scores[list.doc[j]!]! += weight * list.weight[j]!;
    }
    if (this.serverPostings) this.addServerEvidence(terms, scores);
    return topK(scores, this.names, limit, accept);
  }

  /** Tools of a server whose tools, taken together, match the query get a share of that score. */
  private addServerEvidence(terms: Map<string, number>, scores: Float64Array): void {
    const serverScores = new Float64Array(this.serverCount);
    for (const [term, weight] of terms) {
      const list = this.serverPostings!.get(term);
      if (!list) continue;
      for (let j = 0; j < list.doc.length; j++) serverScores[list.doc[j]!]! += weight * list.weight[j]!;
    }
    const lambda = this.options.serverWeight;
    for (let i = 0; i < scores.length; i++) {
      const s = this.serverOf[i]!;
      if (s >= 0 && scores[i]! > 0) scores[i]! += lambda * serverScores[s]!;
    }
  }
}

export function defaultRanker(options: Partial<DefaultRankerOptions> = {}): Ranker {
  const merged: DefaultRankerOptions = {
    ...DEFAULT_RANKER_OPTIONS,
    ...options,
    fields: { ...DEFAULT_RANKER_OPTIONS.fields, ...options.fields },
  };
  return { name: 'default', build: (tools) => new DefaultIndex(tools, merged) };
}
