/**
 * C14/C15 — what the ranker reads of a request before scoring: its weighted terms (own words,
 * stand-ins, expansions), and for a plain request (a few words; a longer text is a task) what the
 * name match and the action rules read of it.
 */
import { words } from '../text.js';
import { readRequest, type RequestReading } from './action-agreement.js';
import { type RareWordExpander, weightedQueryTerms } from './expansion.js';
import type { PlainRequest } from './name-match.js';
import type { DefaultRankerOptions } from './options.js';
import { asksToKnow } from './question-intent.js';

/** A whole request's weighted terms, its words, and what the name match reads of a plain one (C14). */
export interface RequestTerms {
  readonly terms: Map<string, number>;
  /** `words(text)`, split once per request: the terms, the plain-request length and the question rule read them. */
  readonly words: readonly string[];
  readonly plain?: PlainRequest;
  /** C15: a plain request's actions and incidental verbs, read once. */
  readonly reading?: RequestReading;
}

/** The expansion knobs every request and clause is read with. */
function expansionKnobs(options: DefaultRankerOptions) {
  return {
    impliedWeight: options.impliedWeight,
    valueShapeWeight: options.valueShapeWeight,
    valueShapeWords: options.valueShapeWords,
    valueWordWeight: options.valueWordWeight,
  };
}

/** The weighted terms of one clause of a request (no name match is read from them). */
export function clauseTerms(
  text: string,
  options: DefaultRankerOptions,
  expander: RareWordExpander | undefined,
): Map<string, number> {
  return weightedQueryTerms(text, options.synonymWeight, expander, undefined, undefined, expansionKnobs(options));
}

/**
 * The weighted terms of a whole request and, when it is a plain one (at most `plainRequestWords`
 * words; longer texts are tasks), what the name match reads of it: the query word each stand-in
 * term stands for (C14). `readsActions`: the index applies action agreement (C15), so a plain
 * request's actions are read even when no incidental-verb rule is on.
 */
export function requestTerms(
  text: string,
  options: DefaultRankerOptions,
  expander: RareWordExpander | undefined,
  readsActions: boolean,
  sources?: Map<string, string>,
  own?: string[],
): RequestTerms {
  const concepts = new Map<string, string>();
  const raw = words(text);
  const terms = weightedQueryTerms(text, options.synonymWeight, expander, sources, own, {
    words: raw,
    concepts,
    ...expansionKnobs(options),
  });
  if (raw.length > options.plainRequestWords) return { terms, words: raw };
  const { incidentalVerbsNameNothing, incidentalVerbWeight } = options;
  const reading =
    readsActions || incidentalVerbsNameNothing || incidentalVerbWeight < 1
      ? readRequest(text, asksToKnow(raw, text.trimEnd().endsWith('?')))
      : undefined;
  const incidental = reading?.incidental;
  if (incidental && incidentalVerbWeight < 1)
    lowerIncidental(terms, incidental, concepts, incidentalVerbWeight, sources);
  return {
    terms,
    words: raw,
    ...(reading && { reading }),
    plain: {
      concepts,
      synonymCover: options.nameSynonymCover,
      ...(incidental && incidentalVerbsNameNothing && { incidental }),
    },
  };
}

/**
 * C15: a plain request's incidental verbs (action-agreement.ts) describe its object: their own weight
 * is lowered to `weight` (a term that stands in for another word keeps its weight).
 */
function lowerIncidental(
  terms: Map<string, number>,
  incidental: ReadonlySet<string>,
  concepts: ReadonlyMap<string, string>,
  weight: number,
  sources?: Map<string, string>,
): void {
  for (const s of incidental) {
    const w = terms.get(s);
    if (w === undefined || w !== 1 || concepts.has(s)) continue;
    terms.set(s, weight);
    sources?.set(s, 'describes the object');
  }
}
