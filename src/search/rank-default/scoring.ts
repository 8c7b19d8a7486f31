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
import type { HitExplanation } from '../explain.js';
import { words } from '../text.js';
import { catalogExpander } from './catalog-expander.js';
import { NameMatcher } from './name-match.js';
import { ServerMentions } from './server-mention.js';
import { asksToKnow, asksToSee, changeTools, lowerChangeTools } from './question-intent.js';
import { agreement, agreementFactors, toolActions } from './action-agreement.js';
import { serverDocuments, serverOwnDocuments } from './server-documents.js';
import { answeringTools, liftAnswering } from './catch-all.js';
import { Tokenizer, indexTerms } from './tokenizer.js';
import type { DefaultRankerOptions } from './options.js';
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
import type { RareWordExpander } from './expansion.js';
import type { ScoreTrace } from './score-trace.js';
import { type RequestTerms, clauseTerms, requestTerms } from './request-terms.js';
import { type ClauseIndex, addClauseEvidence } from './clause-evidence.js';
import { type ServerText, addServerEvidence, addServerText } from './server-evidence.js';
import { explainHit } from './explain-hit.js';

export type { ScoreTrace } from './score-trace.js';

export class DefaultIndex implements RankerIndex {
  private readonly names: string[];
  private readonly postings: Postings;
  private readonly serverOf: Int32Array;
  private readonly serverNames: string[];
  private readonly serverPostings: Postings | undefined;
  private readonly serverCount: number;
  /** C15: postings of what each server says about itself, and each server's tools (absent: no server says anything). */
  private readonly serverText: ServerText | undefined;
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
  private clauses: ClauseIndex | undefined;
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

  /**
   * The weighted terms of a whole request, and what the name match and action rules read of a
   * plain one (request-terms.ts).
   */
  private requestTerms(text: string, sources?: Map<string, string>, own?: string[]): RequestTerms {
    return requestTerms(text, this.options, this.expander, this.actions !== undefined, sources, own);
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
    if (this.serverText)
      addServerText(this.serverText, terms, scores, this.touched, this.options.serverTextWeight, trace);
    if (this.mentions) {
      const { ids } = this.postings;
      const lift = this.mentions.lift(terms, ids, scores, this.touched, this.serverOf, this.options, !!trace);
      if (trace) trace.mentionLift = lift;
    }
    if (trace) trace.withServer = scores.slice();
    if (this.options.clauseWeight > 0)
      addClauseEvidence(this.clauseIndex(), text, scores, this.options.clauseWeight, trace);
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

  /** What the clause pass reads of this index (clause-evidence.ts), built once. */
  private clauseIndex(): ClauseIndex {
    return (this.clauses ??= {
      postings: this.postings,
      touched: this.touched,
      buffers: () => (this.clauseBuffers ??= clauseBuffers(this.names.length)),
      termsOf: (clause: string) => clauseTerms(clause, this.options, this.expander),
    });
  }

  /** Tools of a server whose tools, taken together, match the query get a share of that score. */
  private addServerEvidence(terms: Map<string, number>, scores: Float64Array, trace?: ScoreTrace): void {
    const serverScores = trace
      ? new Float64Array(this.serverCount)
      : (this.serverScratch ??= new Float64Array(this.serverCount)).fill(0);
    if (trace) trace.serverScores = serverScores;
    const { serverWeight } = this.options;
    addServerEvidence(this.serverPostings!, this.serverOf, terms, scores, this.touched, serverWeight, serverScores);
  }

  private indexOf(name: string): number {
    this.nameIndex ??= new Map(this.names.map((n, i) => [n, i]));
    return this.nameIndex.get(name) ?? -1;
  }

  /** C11: replay the scoring with every stage kept, then read each hit's share of each stage. */
  explain(query: ParsedQuery, names: readonly string[]): HitExplanation[] {
    const sources = new Map<string, string>();
    const request = this.requestTerms(query.text, sources);
    const trace: ScoreTrace = {};
    const final = this.score(query.text, request, trace).slice();
    const replay = { request, sources, trace, final };
    const { tools, options, postings, serverOf, serverNames, serverPostings, nameMatch, actions } = this;
    const index = { tools, options, postings, serverOf, serverNames, serverPostings, nameMatch, actions };
    return names.map((name, rank) => {
      const i = this.indexOf(name);
      if (i < 0) return { name, rank: rank + 1, how: 'keyword ranking' };
      return explainHit(index, replay, name, rank + 1, i);
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
