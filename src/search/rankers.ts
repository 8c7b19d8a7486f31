/** The named rankers (C9): `createRanker('default' | 'reference' | 'bm25' | 'regex')`. */
import type { Ranker, RankerName } from './ranker.js';
import { bm25Ranker } from './rank-bm25.js';
import { defaultRanker } from './rank-default/index.js';
import { referenceRanker } from './rank-reference.js';
import { regexRanker } from './rank-regex.js';

export const RANKER_NAMES: readonly RankerName[] = ['default', 'reference', 'bm25', 'regex'];

export function isRankerName(value: string): value is RankerName {
  return (RANKER_NAMES as readonly string[]).includes(value);
}

export function createRanker(name: RankerName): Ranker {
  switch (name) {
    case 'default':
      return defaultRanker();
    case 'reference':
      return referenceRanker;
    case 'bm25':
      return bm25Ranker();
    case 'regex':
      return regexRanker();
  }
}
