/** C6/C10 — the query side: weighted query terms, rare-word neighbours from the thesaurus, compound words split and joined. */
import { words } from '../text.js';
import { ACTION_STEMS, NOUN_SYNONYMS, STOP_WORDS, SYNONYMS, stem } from '../vocabulary.js';
import { nounUse } from './action-agreement.js';
import type { Neighbour, Thesaurus } from '../thesaurus.js';
import { indexTerms } from './tokenizer.js';
import {
  arithmeticSense,
  assistantMemorySense,
  channelMention,
  leadingVerbSense,
  movedInTime,
  questionSense,
  tellingSense,
  withoutNamingWords,
} from './verb-senses.js';
import { phrasalSenses } from './phrasal-verbs.js';
import { type ValueShape, valueShapes, valueSpans } from './value-shapes.js';
import type { DefaultRankerOptions } from './options.js';

/** How a query word is expanded in one catalog: its document frequency there, and the neighbours. */
export interface RareWordExpander {
  readonly options: DefaultRankerOptions['expansion'];
  readonly thesaurus: Thesaurus;
  /** Number of tools of the catalog that contain the stem (any field). */
  df(term: string): number;
  /**
   * The stems of the catalog words a solid query word splits into (`splitCompound`), or
   * undefined; absent, no word is split.
   */
  compoundParts?(word: string): readonly string[] | undefined;
  /** C14: the weight of the synonyms of a word no tool contains; `synonymWeight` when absent. */
  readonly absentSynonymWeight?: number;
  /** Compound weights; none when absent. */
  readonly compounds?: DefaultRankerOptions['compounds'];
  /**
   * Memo of `joinedTerm`: the same word pairs recur across a task's clauses and across queries.
   * Absent, computed each time.
   */
  joined?(first: string, second: string): string | null;
  /** Memo of `takenNeighbours` per stem. Absent, computed each time. */
  taken?(stem: string): readonly Neighbour[];
}

/** The stem of two adjacent query words written solid, when some tool of the catalog contains it; else null. */
export function joinedTerm(expander: RareWordExpander, first: string, second: string): string | null {
  const joined = stem(first + second);
  return expander.df(joined) > 0 ? joined : null;
}

/** The first `neighbours` thesaurus neighbours of a rare stem that occur in the catalog (a neighbour no tool contains cannot score). */
export function takenNeighbours(expander: RareWordExpander, stem: string): readonly Neighbour[] {
  const list = expander.thesaurus.get(stem);
  if (!list) return [];
  const { neighbours } = expander.options;
  const out: Neighbour[] = [];
  for (let i = 0; i < list.length && out.length < neighbours; i++)
    if (expander.df(list[i]!.term) > 0) out.push(list[i]!);
  return out;
}

/** C14: what the query side adds beyond synonyms and expansion, and what it reports. */
export interface QueryTermExtras {
  /**
   * Receives, for each added term that stands in for one query word (its synonym, expansion,
   * compound part or verb sense), that word's stem: the name match lets one word name one part.
   */
  concepts?: Map<string, string>;
  /**
   * Weight of what a request implies without saying it: the list a plain question asks for
   * ("which bugs are open" → list) and the channel a `#name` is; 0 or absent: none.
   */
  impliedWeight?: number;
  /**
   * Weight of the words a value in the request implies: a file path's "file" and "path", a URL's
   * "url", a commit hash's "commit" (value-shapes.ts); 0 or absent: none.
   */
  valueShapeWeight?: number;
  /** Requests of more words than this (tasks) take no value-shape words; absent: no bound. */
  valueShapeWords?: number;
  /**
   * Weight of a word found only inside a value (a quoted phrase, a web address, an SQL
   * statement) and of its synonyms, relative to the request's other words; absent or 1: no difference.
   */
  valueWordWeight?: number;
  /** `words(text)` when the caller has it already (it reads the request's words too); absent: computed here. */
  words?: readonly string[];
}

/** Where added terms came from: `sources` for explain (C11), `concepts` for the name match (C14). */
interface Origins {
  sources?: Map<string, string>;
  concepts?: Map<string, string>;
}

/**
 * Query terms with their weights: each distinct stem once, synonyms at `synonymWeight`, and
 * (with an expander) the thesaurus neighbours of words that are absent or rare in the catalog.
 * `sources`, when given, records where each added term came from (for explain, C11); `ownStems`,
 * when given, receives the query's own stems (what C12's confidence counts), so they are not
 * tokenized a second time.
 */
export function weightedQueryTerms(
  text: string,
  synonymWeight: number,
  expander?: RareWordExpander,
  sources?: Map<string, string>,
  ownStems?: string[],
  extras: QueryTermExtras = {},
): Map<string, number> {
  const terms = new Map<string, number>();
  const origins: Origins = { sources, concepts: extras.concepts };
  const raw = withoutNamingWords(extras.words ?? words(text));
  const stems = indexTerms(raw);
  if (ownStems) for (const s of stems) ownStems.push(s);
  const valueWeight = extras.valueWordWeight ?? 1;
  // A long task's quoted values often say what kind of data the tool serves ('usd-eur', "iPhone"):
  // only a plain request's are lowered (bench/README.md, issue 31).
  const inValue = valueWeight < 1 ? valueOnlyStems(text, raw.length <= (extras.valueShapeWords ?? Infinity)) : NONE;
  for (const s of stems) {
    terms.set(s, inValue.has(s) ? valueWeight : 1);
    if (inValue.has(s)) origins.sources?.set(s, 'inside a value');
  }
  if (extras.impliedWeight) applyImpliedSenses(text, raw, terms, extras.impliedWeight, origins);
  // A long task's values are mostly where to put its results ("save it to /root/report.md"), not
  // what to act on: there they pulled file tools above the task's own (bench/README.md, issue 31).
  // An SQL statement is what to run whatever the request's length (a task does not save to one).
  const shapes = extras.valueShapeWeight
    ? applyValueShapes(text, terms, extras.valueShapeWeight, origins, raw.length > (extras.valueShapeWords ?? Infinity))
    : [];
  const moved = movedInTime(
    raw,
    shapes.some((k) => k === 'time' || k === 'day'),
  );
  if (moved) replaceVerb(moved, terms, `${moved.verb} to a time`, origins);
  // A leading verb that is part of a value (a quoted title, an SQL statement) keeps its own sense.
  const leading = leadingVerbSense(raw);
  if (leading && !inValue.has(leading.verb)) replaceVerb(leading, terms, `verb sense of ${raw[0]}`, origins);
  const phrasal = applyPhrasalVerbs(raw, terms, origins);
  for (const s of tellingSense(raw) ?? []) raise(terms, s, 1, '"let … know"', origins);
  if (synonymWeight > 0) {
    const nouns = nounOnlyStems(raw);
    for (const stem of stems) {
      if (phrasal.has(stem)) continue;
      const weight = synonymWeightOf(stem, synonymWeight, expander) * (inValue.has(stem) ? valueWeight : 1);
      for (const synonym of (nouns?.has(stem) ? NOUN_SYNONYMS : SYNONYMS).get(stem) ?? [])
        raise(terms, synonym, weight, `synonym of ${stem}`, origins, stem);
    }
  }
  if (expander && expander.options.weight > 0)
    expandRareWords(inValue.size > 0 ? stems.filter((s) => !inValue.has(s)) : stems, terms, expander, origins);
  if (expander?.compounds) addCompoundTerms(raw, terms, expander, expander.compounds, origins);
  return terms;
}

/**
 * C15: the stems of action words the request uses only as nouns ("show my notes", "any updates?"),
 * whose verb synonyms it does not mean; undefined when there are none.
 */
function nounOnlyStems(raw: readonly string[]): Set<string> | undefined {
  let nouns: Set<string> | undefined;
  let verbs: Set<string> | undefined;
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i]!;
    if (STOP_WORDS.has(word)) continue;
    const s = stem(word);
    if (!ACTION_STEMS.has(s)) continue;
    if (nounUse(raw, i)) (nouns ??= new Set()).add(s);
    else (verbs ??= new Set()).add(s);
  }
  if (nouns && verbs) for (const s of verbs) nouns.delete(s);
  return nouns;
}

/**
 * C14: a word no tool of the catalog contains cannot match by itself, so its synonyms stand in
 * for it at `absentSynonymWeight` ("ticket" → issue where no tool says ticket); a word the
 * catalog uses keeps its synonyms at the ordinary weight (its own matches are the evidence).
 */
export function synonymWeightOf(stem: string, synonymWeight: number, expander?: RareWordExpander): number {
  const absent = expander?.absentSynonymWeight;
  return absent !== undefined && absent > synonymWeight && expander!.df(stem) === 0 ? absent : synonymWeight;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * C14: the stems found only inside the request's values (valueSpans): "type 'quarterly report'
 * into the search box" is about typing, not reports. When the whole request is quoted, the quote
 * is the request and nothing is lowered; an SQL statement is always a value (its shape says
 * "sql query" instead).
 */
export function valueOnlyStems(text: string, plain = true): ReadonlySet<string> {
  const { spans, rest, sql } = valueSpans(text, plain);
  if (spans.length === 0) return NONE;
  const outside = new Set(indexTerms(words(rest)));
  if (outside.size === 0 && !sql) return NONE;
  const inside = new Set<string>();
  for (const s of indexTerms(words(spans.join(' ')))) if (!outside.has(s)) inside.add(s);
  return inside;
}

/** C14: what the request implies: a plain question's list ("what files are in …"), a `#name`'s channel. */
function applyImpliedSenses(
  text: string,
  raw: readonly string[],
  terms: Map<string, number>,
  weight: number,
  origins: Origins,
): void {
  for (const s of questionSense(raw) ?? []) raise(terms, s, weight, `question "${raw[0]} ${raw[1]}"`, origins);
  const channel = channelMention(text);
  if (channel) raise(terms, stem('channel'), weight, `channel ${channel}`, origins);
  for (const s of assistantMemorySense(text) ?? []) raise(terms, s, weight, "the assistant's memory", origins);
  for (const s of arithmeticSense(text) ?? []) raise(terms, s, weight, 'a calculation', origins);
}

/**
 * C14: the words the request's values imply ("logs/app.log" → file, path; "a1b2c3d" → commit);
 * `sqlOnly`, a long task's: only an SQL statement's. Returns the kinds applied.
 */
function applyValueShapes(
  text: string,
  terms: Map<string, number>,
  weight: number,
  origins: Origins,
  sqlOnly: boolean,
): ValueShape['kind'][] {
  const kinds: ValueShape['kind'][] = [];
  for (const shape of valueShapes(text)) {
    if (sqlOnly && shape.kind !== 'sql') continue;
    kinds.push(shape.kind);
    for (const word of shape.implies) raise(terms, stem(word), weight, `${shape.kind} ${shape.text}`, origins);
  }
  return kinds;
}

/**
 * C14: a verb that means another action counts as that action: a leading verb tools use as a noun
 * ("file a ticket"), a moving verb with a time ("push the standup to 10:30"). Its own stem leaves
 * the request; what it stands for comes in at full weight, standing in for it in the name match.
 */
function replaceVerb(
  sense: { verb: string; senses: readonly string[] },
  terms: Map<string, number>,
  source: string,
  origins: Origins,
): void {
  terms.delete(sense.verb);
  for (const s of sense.senses) raise(terms, s, 1, source, origins, sense.verb);
}

/**
 * C14: a phrasal verb counts as the action it means ("pull up" → show, read; "get rid of" →
 * delete): its own words leave the request, with their synonyms. Returns those words' stems.
 */
function applyPhrasalVerbs(raw: readonly string[], terms: Map<string, number>, origins: Origins): Set<string> {
  const gone = new Set<string>();
  for (const sense of phrasalSenses(raw)) {
    for (const w of sense.words) {
      terms.delete(w);
      gone.add(w);
    }
    for (const s of sense.senses) raise(terms, s, 1, `phrasal verb "${sense.phrase}"`, origins, sense.words[0]);
  }
  return gone;
}

/**
 * Set `term` to `weight` unless it already weighs as much (a term keeps its highest weight),
 * recording where it came from and, when it stands in for one query word, that word's stem.
 */
function raise(
  terms: Map<string, number>,
  term: string,
  weight: number,
  source: string,
  origins: Origins,
  concept?: string,
): void {
  if ((terms.get(term) ?? 0) >= weight) return;
  terms.set(term, weight);
  origins.sources?.set(term, source);
  if (concept === undefined) origins.concepts?.delete(term);
  else origins.concepts?.set(term, concept);
}

/** Longest query word tried as a compound: the split is quadratic in length, and longer runs are ids or base64. */
export const MAX_COMPOUND_LENGTH = 32;
/** Shortest query word tried as a compound (two pieces of at least 3 letters and some slack). */
export const MIN_COMPOUND_LENGTH = 7;

/**
 * Compound words, both ways: API and product names are written solid in requests
 * ("SevenTraderAPI", "petstoreratelimit") and tool texts write common pairs solid ("timezone",
 * "zipcode"). A split adds the pieces of a word no tool contains; a join adds the solid form of
 * two adjacent query words when some tool contains it.
 */
export function addCompoundTerms(
  raw: readonly string[],
  terms: Map<string, number>,
  expander: RareWordExpander,
  weights: DefaultRankerOptions['compounds'],
  origins: Origins = {},
): void {
  const content = raw.filter((w) => !STOP_WORDS.has(w));
  if (weights.join > 0) {
    for (let i = 0; i + 1 < content.length; i++) {
      const joined = expander.joined
        ? expander.joined(content[i]!, content[i + 1]!)
        : joinedTerm(expander, content[i]!, content[i + 1]!);
      if (joined !== null) raise(terms, joined, weights.join, `joined ${content[i]} ${content[i + 1]}`, origins);
    }
  }
  if (weights.split > 0 && expander.compoundParts) {
    for (const word of content) {
      const parts = expander.compoundParts(word);
      if (parts) for (const part of parts) raise(terms, part, weights.split, `part of ${word}`, origins, stem(word));
    }
  }
}

/**
 * Split `word` into the fewest (at least 2) known words of 3 letters or more, or undefined.
 * Dynamic programming over split points: fewest pieces, so "moviesdatabase" → movies + database
 * rather than movies + data + base.
 */
export function splitCompound(word: string, known: (piece: string) => boolean): string[] | undefined {
  const n = word.length;
  const pieces = new Array<number>(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1).fill(-1);
  pieces[0] = 0;
  for (let end = 3; end <= n; end++) {
    for (let start = 0; start <= end - 3; start++) {
      if (pieces[start]! + 1 >= pieces[end]!) continue;
      if (end - start === n || !known(word.slice(start, end))) continue;
      pieces[end] = pieces[start]! + 1;
      from[end] = start;
    }
  }
  if (pieces[n] === Infinity) return undefined;
  const out: string[] = [];
  for (let end = n; end > 0; end = from[end]!) out.unshift(word.slice(from[end]!, end));
  return out;
}

/** Add the catalog-present neighbours of each query stem found in ≤ maxDf tools; a term keeps its highest weight. */
export function expandRareWords(
  stems: readonly string[],
  terms: Map<string, number>,
  expander: RareWordExpander,
  origins: Origins = {},
): void {
  const { weight, maxDf, minStemLength } = expander.options;
  const rare = new Set<string>();
  // Stems of one or two letters are fragments (base64 runs, "52N"), not words with neighbours.
  for (const s of stems) if (s.length >= minStemLength && expander.df(s) <= maxDf) rare.add(s);
  for (const s of rare) {
    // A neighbour no tool of this catalog contains cannot score: the next one is taken instead.
    for (const n of expander.taken ? expander.taken(s) : takenNeighbours(expander, s)) {
      raise(
        terms,
        n.term,
        weight * n.similarity,
        `expansion of ${s} (similarity ${n.similarity.toFixed(2)})`,
        origins,
        s,
      );
    }
  }
}
