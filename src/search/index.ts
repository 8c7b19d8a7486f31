/** The search room's public API (C1–C9). */
export * from './query.js';
export * from './ranker.js';
export * from './rankers.js';
export * from './searcher.js';
export { referenceRanker, referenceScore, REFERENCE_WEIGHTS } from './rank-reference.js';
export { bm25Ranker, type Bm25Options } from './rank-bm25.js';
export { defaultRanker, DEFAULT_RANKER_OPTIONS, type DefaultRankerOptions } from './rank-default/index.js';
export { regexRanker, validateRegexPattern, MAX_REGEX_LENGTH } from './rank-regex.js';
export { SafeRegex, UnsupportedPatternError } from './safe-regex.js';
export { fuseRanked, toolEmbeddingText, cosine, RRF_K, type FusedHit } from './fusion.js';
export { formatExplanation, type HitExplanation, type TermEvidence } from './explain.js';
export {
  formatServerSuggestions,
  serverSummary,
  LOW_CONFIDENCE,
  SUGGESTED_SERVERS,
  type SuggestedServer,
} from './suggest.js';
export { parseThesaurus, shippedThesaurus, type Thesaurus, type Neighbour } from './thesaurus.js';
export { formatFailedServers } from './server-failures.js';
