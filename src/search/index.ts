/** The search room's public API (C1–C9). */
export * from './query.js';
export * from './ranker.js';
export * from './rankers.js';
export * from './searcher.js';
export { referenceRanker, referenceScore, REFERENCE_WEIGHTS } from './rank-reference.js';
export { bm25Ranker, type Bm25Options } from './rank-bm25.js';
export { defaultRanker, DEFAULT_RANKER_OPTIONS, type DefaultRankerOptions } from './rank-default.js';
export { regexRanker, validateRegexPattern, MAX_REGEX_LENGTH } from './rank-regex.js';
export { SafeRegex, UnsupportedPatternError } from './safe-regex.js';
export { fuseWithEmbeddings, toolEmbeddingText, RRF_K } from './fusion.js';
