/** C13 — learning from use: persistence, the session signal and the learner that ties them. */
export { defaultLearnedPath } from './paths.js';
export { LearnedFileStore, type LearnedPersistence } from './file-store.js';
export { Learner, learnedSummary, type LearnerOptions, type LearnedToolSummary } from './learner.js';
export { UsageSignal, type RecordLabel } from './signal.js';
