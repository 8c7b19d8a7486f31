/** The search room's public API (C1–C9). */
export {
  cleanQuery,
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
  MAX_SELECT_NAMES,
  MAX_TERM_CHARS,
  type ParsedQuery,
  parseKeywordQuery,
  parseSelect,
  SELECT_PREFIX,
} from './query.js';
export {
  type Embedder,
  type LexicalScores,
  type RankedTool,
  type Ranker,
  type RankerContext,
  type RankerIndex,
  type RankerName,
  type BoostTarget,
  type ScoreBoost,
  type ServerSuggestion,
  topK,
} from './ranker.js';
export { createRanker, isRankerName, RANKER_NAMES } from './rankers.js';
export {
  formatSearchResult,
  MAX_RESULTS_CAP,
  type QueryKind,
  requiredTermFilter,
  type SearchMode,
  type SearchOptions,
  type SearchPool,
  type SearchVectors,
  ToolSearcher,
  type ToolSearcherOptions,
  type ToolSearchResult,
} from './searcher.js';
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
export {
  DEFAULT_LEARNED_CHANNEL,
  DEFAULT_LEARNED_FUSION,
  type LearnedChannelOptions,
  type LearnedFusionOptions,
  LearnedLog,
  type LearnedLogLimits,
  type LearnedMatch,
  LearnedRanking,
  type LearnedRankingOptions,
  type LearnedRecord,
  type LearnedCut,
  type LexicalFor,
  type LexicalSource,
} from './learned/index.js';
export { parseThesaurus, shippedThesaurus, type Thesaurus, type Neighbour } from './thesaurus.js';
export { formatFailedServers } from './server-failures.js';
