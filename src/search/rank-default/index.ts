/**
 * C6 — the default ranker, assembled: options.ts (knobs) · tokenizer.ts (index terms) ·
 * postings.ts (build-time contributions) · expansion.ts (query side: weights, rare words,
 * compounds) · clauses.ts (task steps) · scoring.ts (the index that scores and explains).
 */
import type { Ranker } from '../ranker.js';
import { DEFAULT_RANKER_OPTIONS, type DefaultRankerOptions } from './options.js';
import { DefaultIndex } from './scoring.js';

export function defaultRanker(options: Partial<DefaultRankerOptions> = {}): Ranker {
  const merged: DefaultRankerOptions = {
    ...DEFAULT_RANKER_OPTIONS,
    ...options,
    fields: { ...DEFAULT_RANKER_OPTIONS.fields, ...options.fields },
    expansion: { ...DEFAULT_RANKER_OPTIONS.expansion, ...options.expansion },
    compounds: { ...DEFAULT_RANKER_OPTIONS.compounds, ...options.compounds },
  };
  return { name: 'default', build: (tools, context = {}) => new DefaultIndex(tools, merged, context) };
}

export { splitClauses } from './clauses.js';
export { type RareWordExpander, splitCompound, weightedQueryTerms } from './expansion.js';
export { DEFAULT_RANKER_OPTIONS, type DefaultRankerOptions } from './options.js';
export { indexTerms } from './tokenizer.js';
