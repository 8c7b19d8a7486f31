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

/** Top `limit` of scored candidates, best first; ties keep pool order (lower index first). */
export function topK(scores: ArrayLike<number>, names: readonly string[], limit: number, accept?: (name: string) => boolean): RankedTool[] {
  const picked: { index: number; score: number }[] = [];
  for (let i = 0; i < names.length; i++) {
    const score = scores[i]!;
    if (!(score > 0)) continue;
    if (accept && !accept(names[i]!)) continue;
    picked.push({ index: i, score });
  }
  picked.sort((a, b) => b.score - a.score || a.index - b.index);
  return picked.slice(0, Math.max(0, limit)).map(({ index, score }) => ({ name: names[index]!, score }));
}
