/**
 * C9 — the ranker and embedder interfaces. A ranker builds an index once per pool of deferred
 * tools (the searcher caches it per pool key) and answers keyword queries from it.
 */
import type { ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';

export interface RankedTool {
  /** Model-facing tool name. */
  readonly name: string;
  readonly score: number;
}

export interface RankerIndex {
  /**
   * Best first, at most `limit`, only tools with a positive score. `accept` (when given) is a
   * filter applied before the cut, so `+required` terms never shorten the list below `limit`.
   */
  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[];
}

export interface Ranker {
  readonly name: string;
  build(tools: readonly ToolSpec[]): RankerIndex;
}

export type RankerName = 'default' | 'reference' | 'bm25' | 'regex';

/**
 * A user's own embedding model. Vectors need not be normalized (cosine similarity is used).
 * Sync embedders are used directly by `ToolSearcher.search`. An embedder returning a Promise is
 * used by `ToolSearcher.searchAsync` (which awaits the tool vectors once per pool and the query
 * vector per call); `prepare(pool)` pre-embeds the tools so later calls pay only for the query.
 */
export interface Embedder {
  embed(texts: string[]): number[][] | Promise<number[][]>;
}

/**
 * Top `limit` of scored candidates, best first; ties keep pool order (lower index first).
 * A bounded insertion list: O(n × limit) worst case, O(n) in practice since most scores lose.
 */
export function topK(scores: ArrayLike<number>, names: readonly string[], limit: number, accept?: (name: string) => boolean): RankedTool[] {
  const k = Math.max(0, Math.floor(limit));
  if (k === 0) return [];
  const best: number[] = []; // indices, best first
  for (let i = 0; i < names.length; i++) {
    const score = scores[i]!;
    if (!(score > 0)) continue;
    if (best.length === k && score <= scores[best[k - 1]!]!) continue;
    if (accept && !accept(names[i]!)) continue;
    let at = best.length;
    while (at > 0 && scores[best[at - 1]!]! < score) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best.map((i) => ({ name: names[i]!, score: scores[i]! }));
}
