/**
 * The gateway's seam to the search engine: anything with `ToolSearcher`'s shape plugs in (a
 * user's own engine, a remote one). The default is the search room's `ToolSearcher` with its
 * default ranker, answered in compact lines per the session policy (E5; C8 and C12 included).
 */
import { DEFAULT_LIMITS } from '../../core/limits.js';
import {
  defaultRanker,
  formatSearchResult,
  ToolSearcher,
  type SearchPool,
  type ToolSearchResult,
} from '../../search/index.js';

import type { LearnedRanking } from '../../search/learned/learned-ranking.js';

export type { SearchPool } from '../../search/index.js';
export type SearchOutcome = ToolSearchResult;

export interface GatewaySearcher {
  search(
    pool: SearchPool,
    query: string,
    options: { maxResults?: number },
  ): ToolSearchResult | Promise<ToolSearchResult>;
  /** Text shown to the model; absent: the session's compact answer (E5, search/session-answer.ts). */
  format?(outcome: ToolSearchResult): string;
}

export const formatSearchOutcome = formatSearchResult;

/** A fresh default searcher (its index cache is per instance, so one per gateway). */
export function defaultGatewaySearcher(
  limits: { indexedCharsPerField: number } = DEFAULT_LIMITS,
  learned?: LearnedRanking,
): GatewaySearcher {
  const searcher = new ToolSearcher({
    ranker: defaultRanker({ maxFieldChars: limits.indexedCharsPerField }),
    ...(learned && { learned }),
  });
  return { search: (pool, query, options) => searcher.search(pool, query, options) };
}
