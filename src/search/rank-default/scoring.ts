/**
 * C6 — the default ranker's index: field-weighted BM25 (BM25F) over a tool's name parts, server
 * name, search hint, description and parameter names/descriptions, with server-level evidence
 * (query words that describe a server lift its tools), clause scoring for multi-step tasks, and
 * explanations (C11). Every per-(term, tool) contribution is computed at build time, so a query is
 * a sum over a few posting lists: fast at 10k tools.
 */
import type { ToolSpec } from '../../core/tool.js';
import type { ParsedQuery } from '../query.js';
import {
  topK,
  topKOf,
  type RankerContext,
  type RankerIndex,
  type LexicalScores,
  type RankedTool,
  type ScoreBoost,
  type ServerSuggestion,
} from '../ranker.js';
import type { HitExplanation, TermEvidence } from '../explain.js';
import { words } from '../text.js';
import { splitClauses } from './clauses.js';
import { catalogExpander } from './catalog-expander.js';
import { NameMatcher, type PlainRequest } from './name-match.js';
import { ServerMentions } from './server-mention.js';
import { asksToKnow, asksToSee, changeTools, lowerChangeTools } from './question-intent.js';
import {
  type Agreement,
  actionNames,
  agreement,
  agreementFactors,
  readRequest,
  type RequestReading,
  toolActions,
} from './action-agreement.js';
import { serverDocuments, serverOwnDocuments } from './server-documents.js';
import { answeringTools, liftAnswering } from './catch-all.js';
import { Tokenizer, fieldTerms, indexTerms } from './tokenizer.js';
import { type DefaultRankerOptions, FIELD_NAMES } from './options.js';
import type { PairMemo, WordMemo } from '../word-memo.js';
import {
  type ClauseBuffers,
  type Postings,
  TouchedSet,
  accumulate,
  buildPostings,
  clauseBuffers,
  postingWeight,
} from './postings.js';
import { type RareWordExpander, weightedQueryTerms } from './expansion.js';

/** Per-stage scores of one query, kept only when explaining (C11). */
export interface ScoreTrace {
  lexical?: Float64Array;
  withServer?: Float64Array;
  serverScores?: Float64Array;
  /** Per tool: index of the clause that gave its best normalized clause score, or -1. */
  bestClause?: Int32Array;
  clauses?: string[];
  /** Per tool: what a plain question's lift of answering tools added (C15). */
  answering?: Float64Array;
  /** Per tool: what its server's own text (title, instructions) added (C15). */
  serverText?: Float64Array;
  /** Per tool: what the literal name match added (C14). */
  nameBonus?: Float64Array;
  /** Per tool: what naming its server in the request added (C14). */
  mentionLift?: Float64Array;
  /** Per tool: 1 when the request asks to see and the tool's name is a change, so its score was lowered (C14). */
  lowered?: Uint8Array;
  /** Why the request asks to see: a question, or a short request naming no action. */
  loweredBecause?: 'question' | 'no action';
  /** C15: the request's actions (bits) and, per tool, how its action stood to them when it lowered the score. */
  requestActions?: number;
  disagreed?: (Exclude<Agreement, 'agrees' | 'neutral'> | undefined)[];
}

/** A whole request's weighted terms, its words, and what the name match reads of a plain one (C14). */
interface RequestTerms {
  readonly terms: Map<string, number>;
  /** `words(text)`, split once per request: the terms, the plain-request length and the question rule read them. */
  readonly words: readonly string[];
  readonly plain?: PlainRequest;
  /** C15: a plain request's actions and incidental verbs, read once. */
  readonly reading?: RequestReading;
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

export class DefaultIndex implements RankerIndex {
  private readonly names: string[];
  private readonly postings: Postings;
  private readonly serverOf: Int32Array;
  private readonly serverNames: string[];
  private readonly serverPostings: Postings | undefined;
  private readonly serverCount: number;
  /** C15: postings of what each server says about itself, and each server's tools (absent: no server says anything). */
  private readonly serverText: { postings: Postings; tools: Int32Array[]; scratch: Float64Array } | undefined;
  private readonly nameMatch: NameMatcher | undefined;
  /** Per tool, 1 when its name is a change (create, push, reply …): a question ranks it lower (C14). */
  private readonly changes: Uint8Array | undefined;
  /** C15: the tools whose name asks or answers (catch-all tools): a plain question lifts them. */
  private readonly answering: Int32Array | undefined;
  /** C15: per request actions (bits), the score factor of each tool action (agreementFactors). */
  private readonly factorTables = new Map<number, Float64Array>();
  /** C15: per tool, the actions its name's verbs name (action-agreement.ts bits). */
  private readonly actions: Uint8Array | undefined;
  /** Distinctive words of server names (C14): a request that says one asks for that server's tools. */
  private readonly mentions: ServerMentions | undefined;
  private scratch: Float64Array | undefined;
  /** What the scratch buffer holds: the text and terms of the last search (cleared by any other scoring). */
  private lastScored: { text: string; terms: Map<string, number>; own: string[]; top: number[] } | undefined;
  /**
   * The tools with a nonzero score in the scratch buffer, once each: every pass after the postings
   * (server evidence, clause maximum, top k, re-zeroing) visits these, not the whole catalog, so a
   * query's cost follows its postings rather than the catalog's size.
   */
  private readonly touched: TouchedSet;
  /** Per-query buffers of the clause pass and server evidence, allocated on first use and reused. */
  private clauseBuffers: ClauseBuffers | undefined;
  private serverScratch: Float64Array | undefined;
  private readonly expander: RareWordExpander | undefined;
  private nameIndex: Map<string, number> | undefined;
  private readonly wordIds: ReadonlyMap<string, number>;
  /** The expander's per-word memos (set when it has them): their size is what G5's test reads. */
  private readonly memos: {
    parts?: WordMemo<unknown>;
    joins?: PairMemo<unknown>;
    neighbours?: WordMemo<unknown>;
  } = {};

  constructor(
    private readonly tools: readonly ToolSpec[],
    private readonly options: DefaultRankerOptions,
    context: RankerContext,
  ) {
    this.names = tools.map((t) => t.name);
    this.touched = new TouchedSet(tools.length);
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
    if (options.nameWeight > 0) this.nameMatch = new NameMatcher(docs, this.serverOf, tokenizer.ids);
    if (options.questionChangeFactor < 1)
      this.changes = changeTools(
        docs.map((d) => d.name),
        tokenizer.ids,
      );
    if (options.questionAnswerWeight > 0) this.answering = answeringTools(docs, tokenizer.ids);
    if (options.actionDisagreeFactor < 1 || options.unaskedDestructiveFactor < 1)
      this.actions = toolActions(
        docs.map((d) => d.name),
        tokenizer.ids,
      );
    this.serverCount = servers.size;
    if (options.serverMentionWeight > 0 && servers.size > 1)
      this.mentions = new ServerMentions(docs, this.serverOf, servers.size, tokenizer.ids);
    const ownDocs = options.serverTextWeight > 0 ? serverOwnDocuments(this.serverNames, tokenizer, context) : undefined;
    if (ownDocs) {
      const toolsOf: number[][] = this.serverNames.map(() => []);
      this.serverOf.forEach((s, i) => {
        if (s >= 0) toolsOf[s]!.push(i);
      });
      this.serverText = {
        postings: buildPostings(ownDocs, tokenizer.ids, options),
        tools: toolsOf.map((list) => Int32Array.from(list)),
        scratch: new Float64Array(servers.size),
      };
    }
    if (options.serverWeight > 0 && servers.size > 1) {
      this.serverPostings = buildPostings(
        serverDocuments(this.serverNames, docs, this.serverOf, tokenizer, context),
        tokenizer.ids,
        options,
      );
    }
  }

  private rareWordExpander(): RareWordExpander | undefined {
    const built = catalogExpander(this.postings, this.wordIds, this.options);
    if (built) Object.assign(this.memos, built.memos);
    return built?.expander;
  }

  /** Entries and key characters the per-word memos hold now, summed (bounded: word-memo.ts). */
  memoSize(): { entries: number; keyChars: number } {
    let entries = 0;
    let keyChars = 0;
    for (const memo of [this.memos.parts, this.memos.joins, this.memos.neighbours]) {
      const size = memo?.size();
      entries += size?.entries ?? 0;
      keyChars += size?.keyChars ?? 0;
    }
    return { entries, keyChars };
  }

  /** The weighted terms of one clause of a request (no name match is read from them). */
  private queryTerms(text: string): Map<string, number> {
    return weightedQueryTerms(text, this.options.synonymWeight, this.expander, undefined, undefined, {
      impliedWeight: this.options.impliedWeight,
      valueShapeWeight: this.options.valueShapeWeight,
      valueShapeWords: this.options.valueShapeWords,
      valueWordWeight: this.options.valueWordWeight,
    });
  }

  /**
   * The weighted terms of a whole request and, when it is a plain one (at most `plainRequestWords`
   * words; longer texts are tasks), what the name match reads of it: the query word each stand-in
   * term stands for (C14).
   */
  private requestTerms(text: string, sources?: Map<string, string>, own?: string[]): RequestTerms {
    const concepts = new Map<string, string>();
    const raw = words(text);
    const terms = weightedQueryTerms(text, this.options.synonymWeight, this.expander, sources, own, {
      words: raw,
      concepts,
      impliedWeight: this.options.impliedWeight,
      valueShapeWeight: this.options.valueShapeWeight,
      valueShapeWords: this.options.valueShapeWords,
      valueWordWeight: this.options.valueWordWeight,
    });
    if (raw.length > this.options.plainRequestWords) return { terms, words: raw };
    const { incidentalVerbsNameNothing, incidentalVerbWeight } = this.options;
    const reading =
      this.actions || incidentalVerbsNameNothing || incidentalVerbWeight < 1
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
        synonymCover: this.options.nameSynonymCover,
        ...(incidental && incidentalVerbsNameNothing && { incidental }),
      },
    };
  }

  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[] {
    return this.searchBoosted(query, limit, undefined, accept);
  }

  /**
   * With a boost, the scratch buffer keeps the boosted scores: C12's server suggestions that follow
   * the search read them (what the log knows about the query is evidence too).
   */
  searchBoosted(
    query: ParsedQuery,
    limit: number,
    boost: ScoreBoost | undefined,
    accept?: (name: string) => boolean,
  ): RankedTool[] {
    const own: string[] = [];
    const request = this.requestTerms(query.text, undefined, own);
    const { terms } = request;
    const scores = this.score(query.text, request);
    if (boost) {
      const touched = this.touched;
      boost.add(own, this.names, {
        addPostings: (p, w, from, to, f) => touched.addWeighted(p, w, from, to, f, scores),
      });
    }
    const top: number[] = [];
    const hits = topKOf(scores, this.touched.view(), this.names, limit, accept, top);
    this.lastScored = { text: query.text, terms, own, top };
    return hits;
  }

  lastScores(): LexicalScores | undefined {
    return this.lastScored && this.scratch ? { scores: this.scratch, names: this.names } : undefined;
  }

  /**
   * The scores of `text`: the scratch buffer as the last search left it when that search was for
   * the same text (a weak result's server suggestions follow its search), else scored again.
   */
  private scoresFor(text: string): { terms: Map<string, number>; scores: Float64Array } {
    if (this.lastScored?.text === text && this.scratch) return { terms: this.lastScored.terms, scores: this.scratch };
    const request = this.requestTerms(text);
    return { terms: request.terms, scores: this.score(text, request) };
  }

  /** The whole scoring pipeline: term postings, server evidence, clause evidence. */
  private score(text: string, { terms, words: raw, plain, reading }: RequestTerms, trace?: ScoreTrace): Float64Array {
    this.lastScored = undefined;
    // One scratch buffer per index (search is synchronous): no 80 KB allocation per query at 10k tools.
    const scores = (this.scratch ??= new Float64Array(this.names.length));
    this.touched.clear(scores);
    this.touched.accumulate(this.postings, terms, scores);
    if (trace) trace.lexical = scores.slice();
    if (this.serverPostings) this.addServerEvidence(terms, scores, trace);
    if (this.serverText) this.addServerText(terms, scores, trace);
    if (this.mentions) {
      const { ids } = this.postings;
      const lift = this.mentions.lift(terms, ids, scores, this.touched, this.serverOf, this.options, !!trace);
      if (trace) trace.mentionLift = lift;
    }
    if (trace) trace.withServer = scores.slice();
    if (this.options.clauseWeight > 0) this.addClauseEvidence(text, scores, trace);
    if (trace) trace.nameBonus = new Float64Array(scores.length);
    this.nameMatch?.add(terms, scores, this.touched, this.options.nameWeight, plain, trace?.nameBonus);
    const endsWithQuestionMark = text.trimEnd().endsWith('?');
    if (this.answering && plain && asksToKnow(raw, endsWithQuestionMark))
      liftAnswering(this.answering, scores, this.touched, this.options.questionAnswerWeight, trace);
    // A task's many steps name many actions, each for another tool: only a plain request has one.
    if (this.actions && reading) this.applyAgreement(reading.actions, scores, trace);
    const seeing = this.changes ? asksToSee(raw, endsWithQuestionMark) : undefined;
    if (seeing) {
      const { questionChangeFactor } = this.options;
      const lowered = lowerChangeTools(scores, this.touched, this.changes!, questionChangeFactor, !!trace);
      if (trace) {
        trace.lowered = lowered;
        trace.loweredBecause = seeing;
      }
    }
    return scores;
  }

  /**
   * C15: tools whose name's action disagrees with the request's count for less, and a tool that
   * deletes or stops something counts for much less when the request asks for neither.
   */
  private applyAgreement(request: number, scores: Float64Array, trace?: ScoreTrace): void {
    const { actionDisagreeFactor, unaskedDestructiveFactor } = this.options;
    // At most 128 request actions: each one's table is built once per index.
    let factors = this.factorTables.get(request);
    if (!factors)
      this.factorTables.set(
        request,
        (factors = agreementFactors(request, actionDisagreeFactor, unaskedDestructiveFactor)),
      );
    const actions = this.actions!;
    if (trace) {
      trace.requestActions = request;
      trace.disagreed = [];
    }
    const touched = this.touched;
    for (let a = 0; a < touched.count; a++) {
      const i = touched.list[a]!;
      const factor = factors[actions[i]!]!;
      if (factor === 1) continue;
      scores[i]! *= factor;
      if (trace) trace.disagreed![i] = agreement(request, actions[i]!) as 'disagrees' | 'destroys';
    }
  }

  /** C15: what a tool's action verdict multiplies its score by (1: none). */
  private actionFactor(verdict: 'disagrees' | 'destroys' | undefined): number {
    if (verdict === 'disagrees') return this.options.actionDisagreeFactor;
    if (verdict === 'destroys') return this.options.unaskedDestructiveFactor;
    return 1;
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
    const touched = this.touched;
    let max = 0;
    for (let a = 0; a < touched.count; a++) {
      const v = scores[touched.list[a]!]!;
      if (v > max) max = v;
    }
    if (max <= 0) return;
    if (trace) {
      trace.clauses = clauses;
      trace.bestClause = new Int32Array(scores.length).fill(-1);
    }
    // Only tools in some clause term's postings are visited, with reused typed buffers: the extra
    // work is about one more pass over the query's postings, not a pass over the catalog per clause.
    const { clauseScores, best, inClause, inAny } = (this.clauseBuffers ??= clauseBuffers(scores.length));
    const { list, mark } = inClause;
    for (let c = 0; c < clauses.length; c++) {
      const clauseTerms = this.queryTerms(clauses[c]!);
      let cmax = 0;
      if (this.postings.nonNegative) cmax = inClause.accumulateMax(this.postings, clauseTerms, clauseScores);
      else {
        inClause.accumulate(this.postings, clauseTerms, clauseScores);
        for (let a = 0; a < inClause.count; a++) {
          const v = clauseScores[list[a]!]!;
          if (v > cmax) cmax = v;
        }
      }
      // One pass reads each tool's normalized clause score and empties the clause's buffers.
      for (let a = 0; a < inClause.count; a++) {
        const d = list[a]!;
        const v = cmax > 0 ? clauseScores[d]! / cmax : 0;
        if (v > best[d]!) {
          if (best[d] === 0) inAny.add(d);
          best[d] = v;
          if (trace) trace.bestClause![d] = c;
        }
        clauseScores[d] = 0;
        mark[d] = 0;
      }
      inClause.count = 0;
    }
    const w = this.options.clauseWeight * max;
    for (let a = 0; a < inAny.count; a++) {
      const d = inAny.list[a]!;
      touched.add(d);
      scores[d]! += w * best[d]!;
      best[d] = 0;
    }
    inAny.clear();
  }

  /**
   * C15: a tool whose own words match nothing, of a server whose own text (title, instructions)
   * matches the request, gets `serverTextWeight ×` that match: a catch-all tool ("ask anything")
   * is found through what its server says it is for.
   */
  private addServerText(terms: Map<string, number>, scores: Float64Array, trace?: ScoreTrace): void {
    const { postings, tools, scratch } = this.serverText!;
    scratch.fill(0);
    accumulate(postings, terms, scratch);
    const w = this.options.serverTextWeight;
    for (let s = 0; s < scratch.length; s++) {
      const lift = w * scratch[s]!;
      if (!(lift > 0)) continue;
      if (trace) trace.serverText ??= new Float64Array(scores.length);
      for (const i of tools[s]!) {
        // A tool its own words reached is ranked by them (and the server evidence above): lifting
        // every tool of a server with long instructions cost the holdouts up to 0.009 at R@1.
        if (scores[i]! > 0) continue;
        this.touched.add(i);
        scores[i]! += lift;
        if (trace) trace.serverText![i] = lift;
      }
    }
  }

  /** Tools of a server whose tools, taken together, match the query get a share of that score. */
  private addServerEvidence(terms: Map<string, number>, scores: Float64Array, trace?: ScoreTrace): void {
    const serverScores = trace
      ? new Float64Array(this.serverCount)
      : (this.serverScratch ??= new Float64Array(this.serverCount)).fill(0);
    accumulate(this.serverPostings!, terms, serverScores);
    if (trace) trace.serverScores = serverScores;
    const lambda = this.options.serverWeight;
    const touched = this.touched.list;
    for (let a = 0; a < this.touched.count; a++) {
      const i = touched[a]!;
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
    const request = this.requestTerms(query.text, sources);
    const { terms, plain } = request;
    const trace: ScoreTrace = {};
    const final = this.score(query.text, request, trace).slice();
    return names.map((name, rank) => {
      const i = this.indexOf(name);
      if (i < 0) return { name, rank: rank + 1, how: 'keyword ranking' };
      const fields = fieldTerms(this.tools[i]!, this.options.maxFieldChars);
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
      const mentionLift = trace.mentionLift?.[i] ?? 0;
      const serverText = trace.serverText?.[i] ?? 0;
      // The stages add up before a question's lowering multiplies the sum.
      const actionFactor = this.actionFactor(trace.disagreed?.[i]);
      const beforeQuestion =
        (trace.lowered?.[i] === 1 ? final[i]! / this.options.questionChangeFactor : final[i]!) / actionFactor;
      const s = this.serverOf[i]!;
      const explanation: HitExplanation = {
        name,
        rank: rank + 1,
        how: 'keyword ranking',
        score: final[i]!,
        terms: evidence,
        ...(s >= 0 &&
          withServer - mentionLift - serverText > lexical && {
            server: {
              name: this.serverNames[s]!,
              score: withServer - mentionLift - serverText - lexical,
              terms: [...terms.keys()].filter(
                (t) => this.serverPostings && postingWeight(this.serverPostings, t, s) > 0,
              ),
            },
          }),
        ...(this.nameMatch && { nameMatch: this.nameMatch.describe(i, terms, trace.nameBonus![i]!, plain) }),
        ...(serverText > 0 && { serverText: { name: this.serverNames[s]!, score: serverText } }),
        ...(mentionLift > 0 && { serverNamed: { name: this.serverNames[s]!, score: mentionLift } }),
        ...(trace.lowered?.[i] === 1 && {
          question: { factor: this.options.questionChangeFactor, because: trace.loweredBecause ?? 'question' },
        }),
        ...(trace.disagreed?.[i] !== undefined && {
          action: {
            tool: actionNames(this.actions![i]!),
            request: actionNames(trace.requestActions ?? 0),
            verdict: trace.disagreed[i]!,
            factor: actionFactor,
          },
        }),
        ...(beforeQuestion - trace.nameBonus![i]! > withServer &&
          trace.bestClause &&
          trace.bestClause[i]! >= 0 && {
            clause: {
              text: trace.clauses![trace.bestClause[i]!]!,
              score: beforeQuestion - trace.nameBonus![i]! - withServer,
            },
          }),
      };
      return explanation;
    });
  }

  /** C12: servers ranked by their server-level documents (tools' names, descriptions, server text). */
  suggestServers(query: ParsedQuery, limit: number): ServerSuggestion[] {
    if (this.serverCount === 0) return [];
    // The search just scored this text: its scores are reused, not computed a second time.
    const { terms, scores } = this.scoresFor(query.text);
    const serverScores = new Float64Array(this.serverCount);
    if (this.serverPostings) accumulate(this.serverPostings, terms, serverScores);
    const chosen = topK(serverScores, this.serverNames, limit);
    // One pass over the scores for all suggested servers, not one per server.
    const slot = new Map(chosen.map((r, k) => [this.serverNames.indexOf(r.name), k]));
    const tools: { index: number; score: number }[][] = chosen.map(() => []);
    for (const i of this.touched.view()) {
      if (!(scores[i]! > 0)) continue;
      const k = slot.get(this.serverOf[i]!);
      if (k !== undefined) tools[k]!.push({ index: i, score: scores[i]! });
    }
    return chosen.map((r, k) => ({
      server: r.name,
      score: r.score,
      tools: tools[k]!.sort((a, b) => b.score - a.score || a.index - b.index)
        .slice(0, 3)
        .map((t) => this.names[t.index]!),
    }));
  }

  /**
   * C12: the share of the query's own words (weight 1) that the tool contains, or 1 once it holds
   * two of them: a long task text is never fully covered by one tool, so a share alone would call
   * almost every task weak (measured: 93% of LiveMCPBench tasks). A best hit holding at most one
   * query word is where misses concentrate (bench/README.md, "Never empty-handed").
   */
  confidence(query: ParsedQuery, top: string): number {
    // The search just ranked this text (C12 follows it): its hits' indices are known, so the
    // catalog-wide name map is not built for them (2–3 MB at 50k tools).
    const last = this.lastScored?.text === query.text ? this.lastScored.top : undefined;
    const i = last?.find((d) => this.names[d] === top) ?? this.indexOf(top);
    // The search just tokenized this text (C12 follows it): its own stems are reused.
    const stems = this.lastScored?.text === query.text ? this.lastScored.own : indexTerms(words(query.text));
    const own = [...new Set(stems)];
    if (i < 0 || own.length === 0) return 0;
    let hit = 0;
    for (const term of own) if (postingWeight(this.postings, term, i) > 0) hit++;
    return hit >= 2 ? 1 : hit / own.length;
  }
}
