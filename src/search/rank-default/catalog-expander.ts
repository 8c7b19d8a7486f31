/**
 * C6/C10 — the rare-word expander of one index: document frequencies read from its postings, the
 * thesaurus parsed on first use, and per-word memos of compound splits, joins and neighbours.
 */
import { type Neighbour, shippedThesaurus, type Thesaurus } from '../thesaurus.js';
import { stem } from '../vocabulary.js';
import { PairMemo, WordMemo } from '../word-memo.js';
import {
  MAX_COMPOUND_LENGTH,
  MIN_COMPOUND_LENGTH,
  type RareWordExpander,
  joinedTerm,
  splitCompound,
  takenNeighbours,
} from './expansion.js';
import type { DefaultRankerOptions } from './options.js';
import type { Postings } from './postings.js';
import { indexTerms } from './tokenizer.js';

/** The expander's memos, kept by the index so G5's test can read their size. */
export interface ExpanderMemos {
  parts: WordMemo<string[] | null>;
  joins: PairMemo<string | null>;
  neighbours: WordMemo<readonly Neighbour[]>;
}

/**
 * The expander over one catalog's postings and words, or undefined when the options turn both
 * expansion and compounds off.
 */
export function catalogExpander(
  postings: Postings,
  wordIds: ReadonlyMap<string, number>,
  rankerOptions: DefaultRankerOptions,
): { expander: RareWordExpander; memos: ExpanderMemos } | undefined {
  const options = rankerOptions.expansion;
  const compounds = rankerOptions.compounds;
  const expands = options.weight > 0 && options.neighbours > 0;
  if (!expands && !(compounds.split > 0 || compounds.join > 0)) return undefined;
  const { ids, offsets, ownDf } = postings;
  const explicit = rankerOptions.thesaurus;
  let thesaurus: Thesaurus | undefined;
  // A glossary word only product fields hold is not a catalog word (products.ts): rare-word
  // expansion must not reach it (a thesaurus neighbour of "notion" is "chat"), and a request word it
  // is keeps standing in for its synonyms as a word no tool contains.
  const df = (term: string): number => {
    const t = ids.get(term);
    return t === undefined || ownDf[t] === 0 ? 0 : offsets[t + 1]! - offsets[t]!;
  };
  // Per index: a task's words come back in each of its clauses, and users repeat words. Bounded
  // by entries and by characters (word-memo.ts): a client's new long word each search must not grow them.
  const memos: ExpanderMemos = { parts: new WordMemo(), joins: new PairMemo(), neighbours: new WordMemo() };
  const expander: RareWordExpander = {
    options: expands ? options : { ...options, weight: 0 },
    absentSynonymWeight: rankerOptions.absentSynonymWeight,
    compounds,
    compoundParts: (word) => {
      if (word.length < MIN_COMPOUND_LENGTH || word.length > MAX_COMPOUND_LENGTH) return undefined;
      const out = memos.parts.get(word, () => {
        // Only a word no tool contains is split: a catalog word ("database") is meant whole.
        const pieces =
          /^[a-z]+$/.test(word) && df(stem(word)) === 0 ? splitCompound(word, (w) => wordIds.has(w)) : undefined;
        return pieces ? indexTerms(pieces) : null;
      });
      return out ?? undefined;
    },
    // Parsed on the first query that has a rare word, not at build time.
    get thesaurus() {
      return (thesaurus ??= explicit ?? shippedThesaurus());
    },
    df,
    joined: (first, second) => memos.joins.get(first, second, (a, b) => joinedTerm(expander, a, b)),
    taken: (stem) => memos.neighbours.get(stem, (s) => takenNeighbours(expander, s)),
  };
  return { expander, memos };
}
