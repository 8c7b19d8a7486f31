/**
 * Plain BM25 — the lexical floor of the data README (`baseline_bm25.py`): document = name parts +
 * description words + parameter-name parts; no stemming, no stop words, no field weights;
 * k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + 0.5)/(df + 0.5)); query terms with multiplicity.
 * Also the `bm25` query mode (C7).
 */
import type { ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';
import { topK, type Ranker, type RankerIndex, type RankedTool } from './ranker.js';
import { identifierParts, schemaParameters, sourceName, words } from './text.js';

export interface Bm25Options {
  k1?: number;
  b?: number;
  /** Also index the server name (the README's `--with-server`). */
  withServer?: boolean;
}

/** An inverted index of term → (document, term frequency) postings with BM25 scoring. */
export class Bm25Index {
  private readonly postings = new Map<string, { doc: Int32Array; tf: Float64Array }>();
  private readonly norm: Float64Array;
  readonly idf = new Map<string, number>();

  constructor(
    docs: readonly (readonly string[])[],
    private readonly k1 = 1.2,
    b = 0.75,
  ) {
    const n = docs.length;
    const avgdl = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
    this.norm = Float64Array.from(docs, (d) => k1 * (1 - b + (b * d.length) / Math.max(avgdl, 1e-9)));
    const lists = new Map<string, { doc: number[]; tf: number[] }>();
    docs.forEach((doc, i) => {
      const counts = new Map<string, number>();
      for (const term of doc) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, count] of counts) {
        let list = lists.get(term);
        if (!list) lists.set(term, (list = { doc: [], tf: [] }));
        list.doc.push(i);
        list.tf.push(count);
      }
    });
    for (const [term, list] of lists) {
      this.postings.set(term, { doc: Int32Array.from(list.doc), tf: Float64Array.from(list.tf) });
      this.idf.set(term, Math.log(1 + (n - list.doc.length + 0.5) / (list.doc.length + 0.5)));
    }
  }

  /** Add `weight × BM25(term)` of every document into `scores`. */
  accumulate(term: string, scores: Float64Array, weight = 1): void {
    const list = this.postings.get(term);
    if (!list) return;
    const w = weight * this.idf.get(term)!;
    const k1 = this.k1;
    for (let j = 0; j < list.doc.length; j++) {
      const doc = list.doc[j]!;
      const tf = list.tf[j]!;
      scores[doc]! += (w * tf * (k1 + 1)) / (tf + this.norm[doc]!);
    }
  }
}

export function plainBm25Document(tool: ToolSpec, withServer = false): string[] {
  const doc = [...identifierParts(sourceName(tool)), ...words(tool.description)];
  for (const parameter of schemaParameters(tool)) doc.push(...identifierParts(parameter.name));
  if (withServer && tool.origin.kind === 'mcp') doc.push(...identifierParts(tool.origin.server));
  return doc;
}

class PlainBm25 implements RankerIndex {
  private readonly index: Bm25Index;
  constructor(
    private readonly names: string[],
    docs: string[][],
    options: Bm25Options,
  ) {
    this.index = new Bm25Index(docs, options.k1, options.b);
  }

  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[] {
    const scores = new Float64Array(this.names.length);
    for (const term of words(query.text)) this.index.accumulate(term, scores);
    return topK(scores, this.names, limit, accept);
  }
}

export function bm25Ranker(options: Bm25Options = {}): Ranker {
  return {
    name: 'bm25',
    build: (tools) =>
      new PlainBm25(
        tools.map((t) => t.name),
        tools.map((t) => plainBm25Document(t, options.withServer)),
        options,
      ),
  };
}
