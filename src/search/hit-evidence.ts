import type { FusedHit } from './fusion.js';
import type { ParsedQuery } from './query.js';
import type { RankerIndex } from './ranker.js';
import type { ToolSearchResult } from './search-types.js';

/**
 * E5: per hit, C12's confidence and the ranker's score (lexical hits only: a fused rank has no
 * comparable score), so the session policy loads only what the search is sure of.
 */
export function hitEvidence(
  rankerIndex: RankerIndex,
  query: ParsedQuery,
  hits: readonly FusedHit[],
): Pick<ToolSearchResult, 'confidence' | 'scores'> {
  if (hits.length === 0) return {};
  const confidence = rankerIndex.confidence && hits.map((h) => rankerIndex.confidence!(query, h.name));
  const scores = hits.every((h) => h.score !== undefined) ? hits.map((h) => h.score!) : undefined;
  return { ...(confidence && { confidence }), ...(scores && { scores }) };
}
