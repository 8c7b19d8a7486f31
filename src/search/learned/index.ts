/** C13 — search that learns from use: the learned channel, its log and its fusion (pure). */
export { DEFAULT_LEARNED_CHANNEL, LearnedChannel, type LearnedChannelOptions, type LearnedMatch } from './channel.js';
export {
  DEFAULT_LEARNED_FUSION,
  fuseLearned,
  type LearnedFusionOptions,
  type LearnedHit,
  learnedStrength,
  rankWithLearning,
} from './fuse.js';
export {
  DEFAULT_LEARNED_LIMITS,
  type LearnedEntry,
  LearnedLog,
  type LearnedLogJson,
  type LearnedLogLimits,
  type LearnedRecord,
  type ToolEvidence,
} from './log.js';
export { LearnedRanking, type LearnedRankingOptions } from './learned-ranking.js';
export type { LearnedCut, LexicalFor, LexicalSource } from './lexical.js';
export { learnedTerms, MAX_LEARNED_TERMS, schemaFingerprint } from './terms.js';
