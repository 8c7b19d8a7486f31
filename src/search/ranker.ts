/**
 * C9 — the ranker and embedder interfaces. A ranker builds an index once per pool of deferred
 * tools (the searcher caches it per pool key) and answers keyword queries from it.
 */
import type { ServerInfo, ToolSpec } from '../core/tool.js';
import type { HitExplanation } from './explain.js';
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
  /** C11: the evidence behind each of `names` (hits of `search` for the same query), in that order. */
  explain?(query: ParsedQuery, names: readonly string[]): HitExplanation[];
  /** C12: the servers most likely to hold a tool for the query, best first. */
  suggestServers?(query: ParsedQuery, limit: number): ServerSuggestion[];
  /**
   * C12: how sure the ranker is that `top` (its best hit) answers the query, 0–1: the share of the
   * query's own words the tool matches. Below the searcher's threshold the result lists servers.
   */
  confidence?(query: ParsedQuery, top: string): number;
  /**
   * C13: the score the last `search` gave every tool (0 where its words matched none), by position
   * in `names`; valid until the next search on this index. A learned boost is then fused with every
   * tool's own score, not only with the top of the list.
   */
  lastScores?(): LexicalScores | undefined;
  /**
   * C13: `search` with `boost` added to the tools' scores before the cut (the learned field): the
   * sum is exact for every tool, at the cost of the boost's own postings.
   */
  searchBoosted?(
    query: ParsedQuery,
    limit: number,
    boost: ScoreBoost,
    accept?: (name: string) => boolean,
  ): RankedTool[];
}

/**
 * Evidence from outside an index added to its scores before the cut. `add` receives the query's own
 * index terms (stems, stop words dropped) and the index's tool names, and hands the index runs of
 * (tool position, weight) to add, each times `factor` (the query's words may not reach those tools).
 */
export interface ScoreBoost {
  add(terms: readonly string[], names: readonly string[], into: BoostTarget): void;
}

/** Where a `ScoreBoost` adds its postings: the index's score buffer for the query. */
export interface BoostTarget {
  /** Adds `factor × weights[k]` to the tool at `positions[k]`, for k in from … to − 1. */
  addPostings(positions: Int32Array, weights: Float64Array, from: number, to: number, factor: number): void;
}

/** Every tool's score from one search, by position in `names`. */
export interface LexicalScores {
  readonly scores: ArrayLike<number>;
  readonly names: readonly string[];
}

export interface ServerSuggestion {
  readonly server: string;
  readonly score: number;
  /** The server's tools (model-facing names) that match the query best, at most three. */
  readonly tools: readonly string[];
}

/** What a ranker may know besides the tools: what the servers say about themselves (G1 initialize). */
export interface RankerContext {
  readonly servers?: ReadonlyMap<string, ServerInfo>;
}

export interface Ranker {
  readonly name: string;
  build(tools: readonly ToolSpec[], context?: RankerContext): RankerIndex;
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
 * `topK` over the listed indices only (any order, each once): the same result as a full scan, ties
 * going to the lower index, at the cost of the tools a query touched instead of the whole catalog.
 */
export function topKOf(
  scores: ArrayLike<number>,
  indices: ArrayLike<number>,
  names: readonly string[],
  limit: number,
  accept?: (name: string) => boolean,
  /** Receives the chosen indices, best first, when given. */
  chosen?: number[],
): RankedTool[] {
  const k = Math.max(0, Math.floor(limit));
  if (k === 0) return [];
  const best: number[] = chosen ?? []; // indices, best first; equal scores by index
  best.length = 0;
  // The k-th's score and index, kept in locals: most candidates lose to it on one comparison.
  let lastScore = 0;
  let lastIndex = -1;
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]!;
    const score = scores[i]!;
    if (!(score > 0)) continue;
    if (best.length === k && (score < lastScore || (score === lastScore && i > lastIndex))) continue;
    if (accept && !accept(names[i]!)) continue;
    let at = best.length;
    while (at > 0) {
      const j = best[at - 1]!;
      const other = scores[j]!;
      if (score < other || (score === other && i > j)) break;
      at--;
    }
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
    if (best.length === k) {
      lastIndex = best[k - 1]!;
      lastScore = scores[lastIndex]!;
    }
  }
  return best.map((i) => ({ name: names[i]!, score: scores[i]! }));
}

/**
 * Top `limit` of scored candidates, best first; ties keep pool order (lower index first).
 * A bounded insertion list: O(n × limit) worst case, O(n) in practice since most scores lose.
 */
export function topK(
  scores: ArrayLike<number>,
  names: readonly string[],
  limit: number,
  accept?: (name: string) => boolean,
): RankedTool[] {
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
