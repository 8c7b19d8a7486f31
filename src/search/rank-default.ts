/**
 * C6 — the default ranker: field-weighted BM25 (BM25F) over a tool's name parts, server name,
 * search hint, description and parameter names/descriptions, with Porter stems, stop words
 * removed from the query (so whole-sentence tasks work as well as keywords), a tool-vocabulary
 * synonym layer, and server-level evidence (query words that describe a server lift its tools).
 *
 * Every per-(term, tool) contribution is computed at build time, so a query is a sum over a few
 * posting lists: fast at 10k tools. One configuration for every dataset (see bench/).
 */
import { DEFAULT_LIMITS } from '../core/limits.js';
import type { ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';
import {
  topK,
  type Ranker,
  type RankerContext,
  type RankerIndex,
  type RankedTool,
  type ServerSuggestion,
} from './ranker.js';
import type { HitExplanation, TermEvidence } from './explain.js';
import { identifierParts, schemaParameters, sourceName, words } from './text.js';
import { STOP_WORDS, SYNONYMS, stem } from './vocabulary.js';
import { shippedThesaurus, type Thesaurus } from './thesaurus.js';

export interface DefaultRankerOptions {
  k1: number;
  b: number;
  /** BM25F field weights. */
  fields: {
    name: number;
    server: number;
    hint: number;
    description: number;
    params: number;
    paramDescriptions: number;
  };
  /** Weight of a synonym of a query term, relative to the term itself. */
  synonymWeight: number;
  /** Weight of the server-level score added to each tool of that server. */
  serverWeight: number;
  /** Weight of the best per-clause score (multi-step tasks: each clause often names one tool). */
  clauseWeight: number;
  /**
   * Rare-word expansion: a query word found in at most `maxDf` tools of this catalog adds its
   * `neighbours` nearest thesaurus words that occur in the catalog, at `weight × similarity`. Common words are never expanded
   * (expanding every word is a wash: it drags in neighbours of words the catalog already matches).
   */
  expansion: { weight: number; neighbours: number; maxDf: number; minStemLength: number };
  /**
   * Compound words (issue 12): a long query word absent from the catalog that splits into words
   * the catalog uses ("SevenTraderAPI", "moviesdatabase") adds those words at `split`; two
   * adjacent query words whose joined form the catalog uses ("zip code" → zipcode) add it at `join`.
   */
  compounds: { split: number; join: number };
  /** The neighbour source; the shipped tool-text thesaurus when absent. */
  thesaurus?: Thesaurus;
  /** G5: characters of one text field indexed (limit `indexedCharsPerField`). */
  maxFieldChars: number;
}

export const DEFAULT_RANKER_OPTIONS: DefaultRankerOptions = {
  k1: 1.2,
  b: 0.75,
  fields: { name: 3, server: 1, hint: 2, description: 1, params: 0.5, paramDescriptions: 0.3 },
  synonymWeight: 0.3,
  serverWeight: 0.3,
  clauseWeight: 0.4,
  expansion: { weight: 1.2, neighbours: 2, maxDf: 3, minStemLength: 3 },
  compounds: { split: 0.7, join: 0.5 },
  maxFieldChars: DEFAULT_LIMITS.indexedCharsPerField,
};

type FieldName = keyof DefaultRankerOptions['fields'];
const FIELD_NAMES: readonly FieldName[] = ['name', 'server', 'hint', 'description', 'params', 'paramDescriptions'];

/** Index terms of free text: lowercase words, stop words dropped, stemmed. */
export function indexTerms(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) if (!STOP_WORDS.has(token)) out.push(stem(token));
  return out;
}

/** Term ids per field of one tool. */
type Fields = Record<FieldName, number[]>;

/**
 * Turns texts into term ids, caching by text: forked servers repeat descriptions and every tool
 * of a server repeats its name, so most texts are seen more than once in a big catalog. Each raw
 * word is resolved once per index (stop word → none, else stem → term id): one map lookup per
 * token on the hot path instead of a stop-word test, a stem lookup and an intern lookup.
 */
class Tokenizer {
  readonly ids = new Map<string, number>();
  /** Raw word → term id (-1 for a stop word): every word the catalog uses. */
  readonly wordIds = new Map<string, number>();
  private readonly cache = new Map<string, number[]>();

  constructor(private readonly maxChars: number) {}

  private termIds(tokens: readonly string[]): number[] {
    const out: number[] = [];
    for (const token of tokens) {
      let id = this.wordIds.get(token);
      if (id === undefined) {
        if (STOP_WORDS.has(token)) id = -1;
        else {
          const term = stem(token);
          id = this.ids.get(term);
          if (id === undefined) this.ids.set(term, (id = this.ids.size));
        }
        this.wordIds.set(token, id);
      }
      if (id >= 0) out.push(id);
    }
    return out;
  }

  text(raw: string): number[] {
    if (raw === '') return [];
    // G5: a third-party text field is indexed up to a bound (its first words carry its meaning).
    const text = raw.length > this.maxChars ? raw.slice(0, this.maxChars) : raw;
    let out = this.cache.get(text);
    if (!out) this.cache.set(text, (out = this.termIds(words(text))));
    return out;
  }

  identifier(name: string): number[] {
    const key = `\u0000${name}`;
    let out = this.cache.get(key);
    if (!out) this.cache.set(key, (out = this.termIds(identifierParts(name))));
    return out;
  }

  fields(tool: ToolSpec): Fields {
    const parameters = schemaParameters(tool);
    return {
      name: this.identifier(sourceName(tool)),
      server: tool.origin.kind === 'mcp' ? this.identifier(tool.origin.server) : [],
      hint: this.text(tool.searchHint ?? ''),
      description: this.text(tool.description),
      params: concatIds(parameters.map((p) => this.identifier(p.name))),
      paramDescriptions: concatIds(parameters.map((p) => this.text(p.description))),
    };
  }
}

/** Concatenate cached id arrays; the common one-or-none case reuses the cached array itself. */
function concatIds(parts: number[][]): number[] {
  if (parts.length === 0) return [];
  if (parts.length === 1) return parts[0]!;
  return ([] as number[]).concat(...parts);
}

/**
 * BM25F postings in one flat (CSR) layout: the postings of term id t are positions
 * offsets[t]..offsets[t+1] of `doc` (tool index) and `weight` (idf × saturated weighted tf).
 * Two passes over the documents (count, then fill) and no per-term arrays: cheap to build.
 */
interface Postings {
  ids: ReadonlyMap<string, number>;
  offsets: Int32Array;
  doc: Int32Array;
  weight: Float32Array;
}

function buildPostings(
  docs: readonly Fields[],
  termIds: ReadonlyMap<string, number>,
  options: DefaultRankerOptions,
): Postings {
  const n = docs.length;
  const avg = {} as Record<FieldName, number>;
  for (const f of FIELD_NAMES) avg[f] = Math.max(1e-9, docs.reduce((s, d) => s + d[f].length, 0) / Math.max(1, n));
  const termCount = termIds.size;
  const lastDoc = new Int32Array(termCount).fill(-1);
  const offsets = new Int32Array(termCount + 1);
  docs.forEach((fields, i) => {
    for (const f of FIELD_NAMES) {
      for (const t of fields[f]) {
        if (lastDoc[t] === i) continue;
        lastDoc[t] = i;
        offsets[t + 1]!++;
      }
    }
  });
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const total = offsets[termCount]!;
  const doc = new Int32Array(total);
  const weight = new Float32Array(total);
  const cursor = offsets.slice(0, termCount);
  lastDoc.fill(-1);
  docs.forEach((fields, i) => {
    for (const f of FIELD_NAMES) {
      const terms = fields[f];
      if (terms.length === 0) continue;
      const w = options.fields[f] / (1 - options.b + (options.b * terms.length) / avg[f]);
      for (const t of terms) {
        if (lastDoc[t] === i) weight[cursor[t]! - 1]! += w;
        else {
          lastDoc[t] = i;
          doc[cursor[t]!] = i;
          weight[cursor[t]!++] = w;
        }
      }
    }
  });
  const k1 = options.k1;
  for (let t = 0; t < termCount; t++) {
    const df = offsets[t + 1]! - offsets[t]!;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = offsets[t]!; j < offsets[t + 1]!; j++) {
      const tf = weight[j]!;
      weight[j] = (idf * tf * (k1 + 1)) / (tf + k1);
    }
  }
  return { ids: termIds, offsets, doc, weight };
}

/** Add `weight ×` each query term's postings into `scores`. */
function accumulate(postings: Postings, terms: ReadonlyMap<string, number>, scores: Float64Array): void {
  const { ids, offsets, doc, weight } = postings;
  for (const [term, w] of terms) {
    const t = ids.get(term);
    if (t === undefined) continue;
    const end = offsets[t + 1]!;
    for (let j = offsets[t]!; j < end; j++) scores[doc[j]!]! += w * weight[j]!;
  }
}

/** `accumulate` into a zeroed buffer, listing each tool it touches once (callers re-zero them). */
function accumulateTouched(
  postings: Postings,
  terms: ReadonlyMap<string, number>,
  scores: Float64Array,
  touched: number[],
): void {
  const { ids, offsets, doc, weight } = postings;
  for (const [term, w] of terms) {
    const t = ids.get(term);
    if (t === undefined) continue;
    const end = offsets[t + 1]!;
    for (let j = offsets[t]!; j < end; j++) {
      const d = doc[j]!;
      const add = w * weight[j]!;
      if (scores[d] === 0 && add !== 0) touched.push(d);
      scores[d]! += add;
    }
  }
}

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
  /** Compound weights; none when absent. */
  readonly compounds?: DefaultRankerOptions['compounds'];
}

/**
 * Query terms with their weights: each distinct stem once, synonyms at `synonymWeight`, and
 * (with an expander) the thesaurus neighbours of words that are absent or rare in the catalog.
 * `sources`, when given, records where each added term came from (for explain, C11).
 */
export function weightedQueryTerms(
  text: string,
  synonymWeight: number,
  expander?: RareWordExpander,
  sources?: Map<string, string>,
): Map<string, number> {
  const terms = new Map<string, number>();
  const raw = words(text);
  const stems = indexTerms(raw);
  for (const s of stems) terms.set(s, 1);
  if (synonymWeight > 0) {
    for (const s of stems) {
      for (const synonym of SYNONYMS.get(s) ?? []) {
        if (!terms.has(synonym)) {
          terms.set(synonym, synonymWeight);
          sources?.set(synonym, `synonym of ${s}`);
        }
      }
    }
  }
  if (expander && expander.options.weight > 0) expandRareWords(stems, terms, expander, sources);
  if (expander?.compounds) addCompoundTerms(raw, terms, expander, expander.compounds, sources);
  return terms;
}

/** Set `term` to `weight` unless it already weighs as much (a term keeps its highest weight). */
function raise(
  terms: Map<string, number>,
  term: string,
  weight: number,
  source: string,
  sources?: Map<string, string>,
): void {
  if ((terms.get(term) ?? 0) >= weight) return;
  terms.set(term, weight);
  sources?.set(term, source);
}

/** Longest query word tried as a compound: the split is quadratic in length, and longer runs are ids or base64. */
const MAX_COMPOUND_LENGTH = 32;
/** Shortest query word tried as a compound (two pieces of at least 3 letters and some slack). */
const MIN_COMPOUND_LENGTH = 7;
/** Words whose split is remembered per index (cleared when full: a bound, not an LRU). */
const MAX_CACHED_COMPOUNDS = 10_000;

/**
 * Compound words, both ways: API and product names are written solid in requests
 * ("SevenTraderAPI", "petstoreratelimit") and tool texts write common pairs solid ("timezone",
 * "zipcode"). A split adds the pieces of a word no tool contains; a join adds the solid form of
 * two adjacent query words when some tool contains it.
 */
function addCompoundTerms(
  raw: readonly string[],
  terms: Map<string, number>,
  expander: RareWordExpander,
  weights: DefaultRankerOptions['compounds'],
  sources?: Map<string, string>,
): void {
  const content = raw.filter((w) => !STOP_WORDS.has(w));
  if (weights.join > 0) {
    for (let i = 0; i + 1 < content.length; i++) {
      const joined = stem(content[i]! + content[i + 1]!);
      if (expander.df(joined) > 0)
        raise(terms, joined, weights.join, `joined ${content[i]} ${content[i + 1]}`, sources);
    }
  }
  if (weights.split > 0 && expander.compoundParts) {
    for (const word of content) {
      const parts = expander.compoundParts(word);
      if (parts) for (const part of parts) raise(terms, part, weights.split, `part of ${word}`, sources);
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
function expandRareWords(
  stems: readonly string[],
  terms: Map<string, number>,
  expander: RareWordExpander,
  sources?: Map<string, string>,
): void {
  const { weight, neighbours, maxDf, minStemLength } = expander.options;
  const rare = new Set<string>();
  // Stems of one or two letters are fragments (base64 runs, "52N"), not words with neighbours.
  for (const s of stems) if (s.length >= minStemLength && expander.df(s) <= maxDf) rare.add(s);
  for (const s of rare) {
    const list = expander.thesaurus.get(s);
    if (!list) continue;
    let taken = 0;
    for (let i = 0; i < list.length && taken < neighbours; i++) {
      const n = list[i]!;
      // A neighbour no tool of this catalog contains cannot score: take the next one instead.
      if (expander.df(n.term) === 0) continue;
      taken++;
      const w = weight * n.similarity;
      if ((terms.get(n.term) ?? 0) < w) {
        terms.set(n.term, w);
        sources?.set(n.term, `expansion of ${s} (similarity ${n.similarity.toFixed(2)})`);
      }
    }
  }
}

/** Per-stage scores of one query, kept only when explaining (C11). */
interface ScoreTrace {
  lexical?: Float64Array;
  withServer?: Float64Array;
  serverScores?: Float64Array;
  /** Per tool: index of the clause that gave its best normalized clause score, or -1. */
  bestClause?: Int32Array;
  clauses?: string[];
}

/** Longest server description indexed: an `instructions` text can be long, and it is third-party text. */
const MAX_SERVER_TEXT = 2_000;

class DefaultIndex implements RankerIndex {
  private readonly names: string[];
  private readonly postings: Postings;
  private readonly serverOf: Int32Array;
  private readonly serverNames: string[];
  private readonly serverPostings: Postings | undefined;
  private readonly serverCount: number;
  private scratch: Float64Array | undefined;
  private clauseScratch: Float64Array | undefined;
  private bestScratch: Float64Array | undefined;
  private readonly expander: RareWordExpander | undefined;
  private nameIndex: Map<string, number> | undefined;
  private readonly wordIds: ReadonlyMap<string, number>;

  constructor(
    private readonly tools: readonly ToolSpec[],
    private readonly options: DefaultRankerOptions,
    context: RankerContext,
  ) {
    this.names = tools.map((t) => t.name);
    const tokenizer = new Tokenizer(options.maxFieldChars);
    const docs = tools.map((t) => tokenizer.fields(t));
    this.postings = buildPostings(docs, tokenizer.ids, options);
    this.wordIds = tokenizer.wordIds;
    this.expander = this.rareWordExpander();
    // Server-level documents: a server's name plus every tool's name and description.
    const servers = new Map<string, number>();
    this.serverOf = Int32Array.from(tools, (t) => {
      if (t.origin.kind !== 'mcp') return -1;
      let id = servers.get(t.origin.server);
      if (id === undefined) servers.set(t.origin.server, (id = servers.size));
      return id;
    });
    this.serverNames = [...servers.keys()];
    this.serverCount = servers.size;
    if (options.serverWeight > 0 && servers.size > 1) {
      this.serverPostings = buildPostings(
        serverDocuments(this.serverNames, docs, this.serverOf, tokenizer, context),
        tokenizer.ids,
        options,
      );
    }
  }

  private rareWordExpander(): RareWordExpander | undefined {
    const options = this.options.expansion;
    const compounds = this.options.compounds;
    const expands = options.weight > 0 && options.neighbours > 0;
    if (!expands && !(compounds.split > 0 || compounds.join > 0)) return undefined;
    const { ids, offsets } = this.postings;
    const explicit = this.options.thesaurus;
    let thesaurus: Thesaurus | undefined;
    const wordIds = this.wordIds;
    const df = (term: string): number => {
      const t = ids.get(term);
      return t === undefined ? 0 : offsets[t + 1]! - offsets[t]!;
    };
    // Per index: a task's words come back in each of its clauses, and users repeat words.
    const parts = new Map<string, string[] | null>();
    return {
      options: expands ? options : { ...options, weight: 0 },
      compounds,
      compoundParts: (word) => {
        if (word.length < MIN_COMPOUND_LENGTH || word.length > MAX_COMPOUND_LENGTH) return undefined;
        let out = parts.get(word);
        if (out === undefined) {
          // Only a word no tool contains is split: a catalog word ("database") is meant whole.
          const pieces =
            /^[a-z]+$/.test(word) && df(stem(word)) === 0 ? splitCompound(word, (w) => wordIds.has(w)) : undefined;
          out = pieces ? indexTerms(pieces) : null;
          if (parts.size >= MAX_CACHED_COMPOUNDS) parts.clear();
          parts.set(word, out);
        }
        return out ?? undefined;
      },
      // Parsed on the first query that has a rare word, not at build time.
      get thesaurus() {
        return (thesaurus ??= explicit ?? shippedThesaurus());
      },
      df,
    };
  }

  private queryTerms(text: string, sources?: Map<string, string>): Map<string, number> {
    return weightedQueryTerms(text, this.options.synonymWeight, this.expander, sources);
  }

  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[] {
    return topK(this.score(query.text, this.queryTerms(query.text)), this.names, limit, accept);
  }

  /** The whole scoring pipeline: term postings, server evidence, clause evidence. */
  private score(text: string, terms: Map<string, number>, trace?: ScoreTrace): Float64Array {
    // One scratch buffer per index (search is synchronous): no 80 KB allocation per query at 10k tools.
    const scores = (this.scratch ??= new Float64Array(this.names.length));
    scores.fill(0);
    accumulate(this.postings, terms, scores);
    if (trace) trace.lexical = scores.slice();
    if (this.serverPostings) this.addServerEvidence(terms, scores, trace);
    if (trace) trace.withServer = scores.slice();
    if (this.options.clauseWeight > 0) this.addClauseEvidence(text, scores, trace);
    return scores;
  }

  /**
   * A task of several steps ("find X, then do Y and save Z") needs one tool per step, but the
   * whole-query score favours tools matching the most words overall. Each clause is scored on its
   * own; a tool's best clause score (normalized per clause) is added, so the best tool of every
   * step can reach the top.
   */
  private addClauseEvidence(text: string, scores: Float64Array, trace?: ScoreTrace): void {
    const clauses = splitClauses(text);
    if (clauses.length < 2) return;
    let max = 0;
    for (let i = 0; i < scores.length; i++) if (scores[i]! > max) max = scores[i]!;
    if (max <= 0) return;
    if (trace) {
      trace.clauses = clauses;
      trace.bestClause = new Int32Array(scores.length).fill(-1);
    }
    // Only tools in some clause term's postings are visited, with reused typed buffers: the extra
    // work is about one more pass over the query's postings, not a pass over the catalog per clause.
    const n = scores.length;
    const clauseScores = (this.clauseScratch ??= new Float64Array(n));
    const best = (this.bestScratch ??= new Float64Array(n));
    const touched: number[] = [];
    const everTouched: number[] = [];
    clauses.forEach((clause, c) => {
      touched.length = 0;
      accumulateTouched(this.postings, this.queryTerms(clause), clauseScores, touched);
      let cmax = 0;
      for (const d of touched) if (clauseScores[d]! > cmax) cmax = clauseScores[d]!;
      for (const d of touched) {
        const v = cmax > 0 ? clauseScores[d]! / cmax : 0;
        if (best[d] === 0 && v > 0) everTouched.push(d);
        if (v > best[d]!) {
          best[d] = v;
          if (trace) trace.bestClause![d] = c;
        }
        clauseScores[d] = 0;
      }
    });
    const w = this.options.clauseWeight * max;
    for (const d of everTouched) {
      scores[d]! += w * best[d]!;
      best[d] = 0;
    }
  }

  /** Tools of a server whose tools, taken together, match the query get a share of that score. */
  private addServerEvidence(terms: Map<string, number>, scores: Float64Array, trace?: ScoreTrace): void {
    const serverScores = new Float64Array(this.serverCount);
    accumulate(this.serverPostings!, terms, serverScores);
    if (trace) trace.serverScores = serverScores;
    const lambda = this.options.serverWeight;
    for (let i = 0; i < scores.length; i++) {
      const s = this.serverOf[i]!;
      if (s >= 0 && scores[i]! > 0) scores[i]! += lambda * serverScores[s]!;
    }
  }

  private indexOf(name: string): number {
    this.nameIndex ??= new Map(this.names.map((n, i) => [n, i]));
    return this.nameIndex.get(name) ?? -1;
  }

  /** C11: replay the scoring with every stage kept, then read each hit's share of each stage. */
  explain(query: ParsedQuery, names: readonly string[]): HitExplanation[] {
    const sources = new Map<string, string>();
    const terms = this.queryTerms(query.text, sources);
    const trace: ScoreTrace = {};
    const final = this.score(query.text, terms, trace).slice();
    return names.map((name, rank) => {
      const i = this.indexOf(name);
      if (i < 0) return { name, rank: rank + 1, how: 'keyword ranking' };
      const fields = fieldTerms(this.tools[i]!);
      const evidence: TermEvidence[] = [];
      for (const [term, weight] of terms) {
        const w = postingWeight(this.postings, term, i);
        if (w === 0) continue;
        const inFields = FIELD_NAMES.filter((f) => fields[f].has(term));
        evidence.push({ term, origin: sources.get(term) ?? 'query', weight, fields: inFields, score: weight * w });
      }
      evidence.sort((a, b) => b.score - a.score);
      const lexical = trace.lexical![i]!;
      const withServer = trace.withServer![i]!;
      const s = this.serverOf[i]!;
      const explanation: HitExplanation = {
        name,
        rank: rank + 1,
        how: 'keyword ranking',
        score: final[i]!,
        terms: evidence,
        ...(s >= 0 &&
          withServer > lexical && {
            server: {
              name: this.serverNames[s]!,
              score: withServer - lexical,
              terms: [...terms.keys()].filter(
                (t) => this.serverPostings && postingWeight(this.serverPostings, t, s) > 0,
              ),
            },
          }),
        ...(final[i]! > withServer &&
          trace.bestClause &&
          trace.bestClause[i]! >= 0 && {
            clause: { text: trace.clauses![trace.bestClause[i]!]!, score: final[i]! - withServer },
          }),
      };
      return explanation;
    });
  }

  /** C12: servers ranked by their server-level documents (tools' names, descriptions, server text). */
  suggestServers(query: ParsedQuery, limit: number): ServerSuggestion[] {
    if (this.serverCount === 0) return [];
    const terms = this.queryTerms(query.text);
    const serverScores = new Float64Array(this.serverCount);
    if (this.serverPostings) accumulate(this.serverPostings, terms, serverScores);
    const scores = this.score(query.text, terms);
    const out: ServerSuggestion[] = [];
    for (const r of topK(serverScores, this.serverNames, limit)) {
      const s = this.serverNames.indexOf(r.name);
      const tools: { name: string; score: number }[] = [];
      for (let i = 0; i < this.names.length; i++)
        if (this.serverOf[i] === s && scores[i]! > 0) tools.push({ name: this.names[i]!, score: scores[i]! });
      tools.sort((a, b) => b.score - a.score);
      out.push({ server: r.name, score: r.score, tools: tools.slice(0, 3).map((t) => t.name) });
    }
    return out;
  }

  /**
   * C12: the share of the query's own words (weight 1) that the tool contains, or 1 once it holds
   * two of them: a long task text is never fully covered by one tool, so a share alone would call
   * almost every task weak (measured: 93% of LiveMCPBench tasks). A best hit holding at most one
   * query word is where misses concentrate (bench/README.md, "Never empty-handed").
   */
  confidence(query: ParsedQuery, top: string): number {
    const i = this.indexOf(top);
    const own = [...new Set(indexTerms(words(query.text)))];
    if (i < 0 || own.length === 0) return 0;
    let hit = 0;
    for (const term of own) if (postingWeight(this.postings, term, i) > 0) hit++;
    return hit >= 2 ? 1 : hit / own.length;
  }
}

/**
 * One document per server: its name, every tool's name and description, and what the server says
 * about itself (title → hint field, instructions → description field, cut to MAX_SERVER_TEXT).
 */
function serverDocuments(
  serverNames: readonly string[],
  docs: readonly Fields[],
  serverOf: Int32Array,
  tokenizer: Tokenizer,
  context: RankerContext,
): Fields[] {
  const serverDocs: Fields[] = serverNames.map(() => ({
    name: [],
    server: [],
    hint: [],
    description: [],
    params: [],
    paramDescriptions: [],
  }));
  docs.forEach((d, i) => {
    const s = serverOf[i]!;
    if (s < 0) return;
    const doc = serverDocs[s]!;
    if (doc.server.length === 0) for (const t of d.server) doc.server.push(t);
    for (const t of d.name) doc.name.push(t);
    // A loop, not push(...spread): a server with huge descriptions would overflow the call stack.
    for (const t of d.description) doc.description.push(t);
  });
  if (context.servers) {
    serverNames.forEach((server, s) => {
      const info = context.servers!.get(server);
      if (!info) return;
      const doc = serverDocs[s]!;
      if (info.title) for (const t of tokenizer.text(info.title.slice(0, MAX_SERVER_TEXT))) doc.hint.push(t);
      if (info.description)
        for (const t of tokenizer.text(info.description.slice(0, MAX_SERVER_TEXT))) doc.description.push(t);
    });
  }
  return serverDocs;
}

/** The stems of each field of one tool, for explain (same tokenizing as the index). */
function fieldTerms(tool: ToolSpec): Record<FieldName, Set<string>> {
  const parameters = schemaParameters(tool);
  return {
    name: new Set(indexTerms(identifierParts(sourceName(tool)))),
    server: new Set(tool.origin.kind === 'mcp' ? indexTerms(identifierParts(tool.origin.server)) : []),
    hint: new Set(indexTerms(words(tool.searchHint ?? ''))),
    description: new Set(indexTerms(words(tool.description))),
    params: new Set(parameters.flatMap((p) => indexTerms(identifierParts(p.name)))),
    paramDescriptions: new Set(parameters.flatMap((p) => indexTerms(words(p.description)))),
  };
}

/** The posting weight of (term, doc), 0 when absent. Postings are in doc order: binary search. */
function postingWeight(postings: Postings, term: string, docIndex: number): number {
  const t = postings.ids.get(term);
  if (t === undefined) return 0;
  let lo = postings.offsets[t]!;
  let hi = postings.offsets[t + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = postings.doc[mid]!;
    if (d === docIndex) return postings.weight[mid]!;
    if (d < docIndex) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Split a task into its steps: sentences, semicolons, commas and "then"/"and" joints. */
export function splitClauses(text: string): string[] {
  return text
    .split(/[.;!?\n]+|,\s+|\s+(?:and then|then|and|after that|finally)\s+/i)
    .map((c) => c.trim())
    .filter((c) => c.split(/\s+/).length >= 2);
}

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
