/**
 * C1–C4, C8 — answering the model's search call over a pool of tools.
 *
 * Order of the rules is their priority: `select:` (C1) → exact name (C2) → `mcp__` prefix (C3,
 * falls through when nothing matches) → keywords ranked over the deferred tools (C4), with
 * `+term` filters. Regex and BM25 modes (C7) take the whole query as their input.
 * Whatever the input, `search` returns a result; it never throws.
 */
import { DEFAULT_MAX_RESULTS } from '../core/search-tool.js';
import type { ServerInfo, ToolSpec } from '../core/tool.js';
import { cleanQuery, parseKeywordQuery, parseSelect, type ParsedQuery } from './query.js';
import type { Embedder, Ranker, RankerIndex, RankerName } from './ranker.js';
import { createRanker } from './rankers.js';
import { fuseRanked, lexicalIsWeak, toolEmbeddingText, type FusedHit } from './fusion.js';
import { requiredTermFilter } from './required-terms.js';
import type { HitExplanation } from './explain.js';
import type { LearnedRanking } from './learned/learned-ranking.js';
import type { LearnedHit } from './learned/fuse.js';
import type { LearnedCut, LexicalSource } from './learned/lexical.js';
import { isLowConfidence, suggestServers } from './suggest.js';
import { hitEvidence } from './hit-evidence.js';
import { PoolFacts } from './pool-facts.js';
import { serverListing } from './server-listing.js';
import { PoolNames } from './pool-names.js';
import { capPerServer, SERVER_CAP_LOOKAHEAD, serverOfTool } from './server-cap.js';
import { policyWithheld } from './policy-withheld.js';
import type {
  QueryKind,
  SearchOptions,
  SearchPool,
  SearchVectors,
  ToolSearcherOptions,
  ToolSearchResult,
} from './search-types.js';

export type {
  QueryKind,
  SearchMode,
  SearchOptions,
  SearchPool,
  SearchVectors,
  ToolSearcherOptions,
  ToolSearchResult,
} from './search-types.js';
export { formatSearchResult } from './format-result.js';
export { requiredTermFilter } from './required-terms.js';

/** Upper bound on `max_results`, whatever the model asks for. */
export const MAX_RESULTS_CAP = 100;

/** Everything derived from one set of deferred tools, built once and reused (C4's "index"). */
interface PoolIndex {
  /** The deferred names, sorted: the pool's identity (an array of the names held anyway, not one joined string: 3 MB at 50k tools). */
  key: readonly string[];
  deferredTools: ToolSpec[];
  byName: Map<string, ToolSpec>;
  /** Pool-only facts (per-server tools and summaries, server names, prefix order), built lazily once. */
  facts: PoolFacts;
  rankers: Map<string, RankerIndex>;
  /** The server info the rankers were built with: new info rebuilds them. */
  servers: ReadonlyMap<string, ServerInfo> | undefined;
  vectors?: number[][];
  vectorsPending?: Promise<number[][]>;
}

function clampResults(value: unknown, fallback: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : fallback;
  return Math.min(MAX_RESULTS_CAP, Math.max(1, n));
}

export class ToolSearcher {
  private readonly ranker: Ranker;
  private readonly embedder: Embedder | undefined;
  private readonly maxResults: number;
  private readonly learned: LearnedRanking | undefined;
  private readonly rankerCache = new Map<string, Ranker>();
  private cached: PoolIndex | undefined;
  /** Identity fast path: the same pool object (or same arrays) skips computing the key. */
  private cachedFor: { tools: readonly ToolSpec[]; deferred: ReadonlySet<string>; size: number } | undefined;
  /** Loaded tools by name and lowercased names, per pool (C1/C2 without a walk per query). */
  private readonly poolNames = new PoolNames();
  /** G10: searches the tools policy leaves out (its own index), to count what an answer lost. */
  private hiddenSearcher: ToolSearcher | undefined;

  constructor(options: ToolSearcherOptions = {}) {
    this.ranker = typeof options.ranker === 'object' ? options.ranker : createRanker(options.ranker ?? 'default');
    this.embedder = options.embedder;
    this.maxResults = clampResults(options.maxResults, DEFAULT_MAX_RESULTS);
    this.learned = options.learned;
  }

  /** Build (or reuse) the index for this pool; with an async embedder, wait for the tool vectors. */
  async prepare(pool: SearchPool): Promise<void> {
    const index = this.poolIndex(pool);
    this.rankerIndex(index, this.ranker);
    if (this.embedder && !index.vectors) await this.toolVectors(index);
  }

  search(pool: SearchPool, query: string, options: SearchOptions = {}): ToolSearchResult {
    try {
      return this.searchUnsafe(pool, query, options, undefined);
    } catch (error) {
      // Never throw at the model: a failure is reported as "nothing found" with the reason.
      return { ...this.emptyResult(pool, cleanQuery(query), 'keyword'), error: String(error) };
    }
  }

  /** Like `search`, but awaits an async embedder (tool vectors once per pool, the query each call). */
  async searchAsync(pool: SearchPool, query: string, options: SearchOptions = {}): Promise<ToolSearchResult> {
    let queryVector: number[] | undefined;
    if (this.embedder && (options.mode ?? 'default') === 'default') {
      try {
        const index = this.poolIndex(pool);
        await this.toolVectors(index);
        queryVector = (await this.embedder.embed([cleanQuery(query)]))[0];
      } catch {
        queryVector = undefined;
      }
    }
    try {
      return this.searchUnsafe(pool, query, options, queryVector);
    } catch (error) {
      return { ...this.emptyResult(pool, cleanQuery(query), 'keyword'), error: String(error) };
    }
  }

  private searchUnsafe(
    pool: SearchPool,
    rawQuery: string,
    options: SearchOptions,
    queryVector: number[] | undefined,
  ): ToolSearchResult {
    const text = cleanQuery(rawQuery);
    const limit = clampResults(options.maxResults, this.maxResults);
    const index = this.poolIndex(pool);
    const mode = options.mode ?? 'default';
    if (mode === 'regex' || mode === 'bm25') return this.modeSearch(pool, index, text, limit, mode);

    const selected = parseSelect(text);
    if (selected)
      return withPlainExplanations(this.select(pool, index, text, selected), options, 'selected by name (select:)');

    const exact = this.poolTool(pool, index, text);
    if (exact)
      return withPlainExplanations(
        { ...this.emptyResult(pool, text, 'exact', index), matches: [exact.name] },
        options,
        'exact tool name',
      );

    const listed = this.serverListing(pool, index, text, limit);
    if (listed) return withPlainExplanations(listed, options, `server prefix ${listed.serversMatched ?? ''}`);

    const parsed = parseKeywordQuery(text);
    const hits = options.vectors
      ? this.rankWithVectors(index, parsed, limit, options.vectors)
      : this.rankKeywords(index, parsed, { limit, explain: options.explain === true }, queryVector);
    const result: ToolSearchResult = {
      ...this.emptyResult(pool, text, 'keyword', index),
      matches: hits.map((h) => h.name),
      ...hitEvidence(this.rankerIndex(index, this.ranker), parsed, hits),
    };
    if (options.explain) result.explanations = this.explainKeywords(index, parsed, hits);
    const withheld = this.policyWithheld(pool, index, text, { limit });
    return this.withSuggestions(pool, index, parsed, withheld ? { ...result, withheldByPolicy: withheld } : result);
  }

  /** G10: tools the client's policy left out that this answer would have held (search/policy-withheld.ts). */
  private policyWithheld(
    pool: SearchPool,
    index: PoolIndex,
    text: string,
    listing: { prefix?: string; limit: number },
  ) {
    if (!pool.policyHidden || pool.policyHidden.length === 0) return undefined;
    const searcher = (this.hiddenSearcher ??= new ToolSearcher({ ranker: this.ranker }));
    return policyWithheld((p, q, o) => searcher.search(p, q, o), index.deferredTools, pool.policyHidden, text, listing);
  }

  /** C12: a weak or empty keyword result gets the servers most likely to hold the tool. */
  private withSuggestions(
    pool: SearchPool,
    index: PoolIndex,
    query: ParsedQuery,
    result: ToolSearchResult,
  ): ToolSearchResult {
    if (query.terms.length === 0) return result;
    const rankerIndex = this.rankerIndex(index, this.ranker);
    if (!isLowConfidence(rankerIndex, query, result.matches)) return result;
    const servers = suggestServers(rankerIndex, query, (server) => index.facts.summary(server, pool.servers));
    return { ...result, lowConfidence: true, ...(servers.length > 0 && { suggestedServers: servers }) };
  }

  /** C11: the ranker's evidence per hit, plus the embedding and lexical ranks when fused. */
  private explainKeywords(index: PoolIndex, query: ParsedQuery, hits: readonly FusedHit[]): HitExplanation[] {
    const rankerIndex = this.rankerIndex(index, this.ranker);
    const names = hits.map((h) => h.name);
    const base =
      rankerIndex.explain?.(query, names) ??
      names.map((name, i) => ({ name, rank: i + 1, how: `${this.ranker.name} ranking` }));
    return base.map((e, i) => {
      const hit = hits[i]!;
      if (hit.learned) e = { ...e, learned: { searches: hit.learned.searches, similarity: hit.learned.similarity } };
      if (hit.words !== undefined) e = { ...e, learnedWords: hit.words };
      if (!hit.fused) return e;
      return {
        ...e,
        embedding: {
          ...(hit.embeddingRank !== undefined && { rank: hit.embeddingRank }),
          ...(hit.lexicalRank !== undefined && { lexicalRank: hit.lexicalRank }),
          ...(hit.gate && { gate: hit.gate, weight: hit.embeddingWeight ?? 0 }),
        },
      };
    });
  }

  /** C1: deferred pool first, then the whole pool; only names absent from both are "not found". */
  private select(pool: SearchPool, index: PoolIndex, text: string, names: string[]): ToolSearchResult {
    const matches: string[] = [];
    const notFound: string[] = [];
    for (const requested of names) {
      let found = this.poolTool(pool, index, requested)?.name;
      // A model that changed the case of a name still means that tool.
      if (found === undefined) found = this.poolNames.byLowercase(pool, requested.toLowerCase());
      if (found === undefined) notFound.push(requested);
      else if (!matches.includes(found)) matches.push(found);
    }
    return { ...this.emptyResult(pool, text, 'select', index), matches, notFound };
  }

  /** Any pool tool by exact name, deferred (the index's map) or loaded. */
  private poolTool(pool: SearchPool, index: PoolIndex, name: string): ToolSpec | undefined {
    return index.byName.get(name) ?? this.poolNames.loaded(pool, name);
  }

  /** C3/E4/C15: a server listing (search/server-listing.ts), with what policy left out of it. */
  private serverListing(pool: SearchPool, index: PoolIndex, text: string, limit: number): ToolSearchResult | undefined {
    const listing = serverListing(index.facts, pool.servers, text, limit);
    if (!listing) return undefined;
    const { prefix, ...found } = listing;
    const withheld = this.policyWithheld(pool, index, prefix, { prefix, limit });
    return {
      ...this.emptyResult(pool, text, 'prefix', index),
      ...found,
      ...(withheld && { withheldByPolicy: withheld }),
    };
  }

  private rankKeywords(
    index: PoolIndex,
    query: ParsedQuery,
    { limit, explain }: { limit: number; explain: boolean },
    queryVector: number[] | undefined,
  ): FusedHit[] {
    if (query.terms.length === 0) return [];
    const accept = query.required.length > 0 ? requiredTermFilter(index.deferredTools, query.required) : undefined;
    const rankerIndex = this.rankerIndex(index, this.ranker);
    // C15: a few hits past the limit, so the per-server cap has other servers' hits to move up.
    const lexicalOnly = () =>
      this.capped(
        index,
        this.lexicalList(index, rankerIndex, query, { limit: limit + SERVER_CAP_LOOKAHEAD, accept, explain }).map(
          (r) => ({
            name: r.name,
            fused: false,
            score: r.score,
            ...(r.learned && { learned: r.learned }),
            ...(r.words !== undefined && { words: r.words }),
          }),
        ),
        limit,
      );
    if (!this.embedder) return lexicalOnly();
    const vector = queryVector ?? this.syncQueryVector(query.text);
    const vectors = index.vectors ?? this.syncToolVectors(index);
    if (!vector || !vectors) return lexicalOnly();
    const lexical = this.lexicalList(index, rankerIndex, query, { limit: Math.max(50, limit * 10), accept });
    const lexicalWeak = lexicalIsWeak(rankerIndex, query, lexical);
    return fuseRanked(lexical, index.deferredTools, vectors, vector, limit, accept, { lexicalWeak });
  }

  /** C15: at most `SERVER_CAP` of the top `limit` from one server while another server's hit matches well. */
  private capped(index: PoolIndex, hits: FusedHit[], limit: number): FusedHit[] {
    return capPerServer(hits, serverOfTool(index.byName), limit);
  }

  /** C13: the lexical list, with learned evidence fused in when a learned log is attached. */
  private lexicalList(
    index: PoolIndex,
    rankerIndex: RankerIndex,
    query: ParsedQuery,
    cut: LearnedCut,
  ): readonly LearnedHit[] {
    const { accept } = cut;
    const search = (depth: number) => rankerIndex.search(query, depth, accept);
    if (!this.learned) return search(cut.limit);
    // The log's replay (the learned field's weight) searches past queries with the same ranker.
    const lexical: LexicalSource = {
      search,
      searchText: (text, depth) => rankerIndex.search(parseKeywordQuery(text), depth),
      lastScores: rankerIndex.lastScores && (() => rankerIndex.lastScores!()),
      searchBoosted:
        rankerIndex.searchBoosted && ((depth, boost) => rankerIndex.searchBoosted!(query, depth, boost, accept)),
    };
    return this.learned.rank(index.deferredTools, query.text, lexical, cut);
  }

  /** C10/C14: the gated fusion of the lexical list and the vectors the caller computed (an embedding server). */
  private rankWithVectors(index: PoolIndex, query: ParsedQuery, limit: number, vectors: SearchVectors): FusedHit[] {
    if (query.terms.length === 0) return [];
    const accept = query.required.length > 0 ? requiredTermFilter(index.deferredTools, query.required) : undefined;
    const rankerIndex = this.rankerIndex(index, this.ranker);
    const lexical = this.lexicalList(index, rankerIndex, query, { limit: Math.max(50, limit * 10), accept });
    const toolVectors = index.deferredTools.map((t) => vectors.tool(t));
    const lexicalWeak = lexicalIsWeak(rankerIndex, query, lexical);
    return fuseRanked(lexical, index.deferredTools, toolVectors, vectors.query, limit, accept, { lexicalWeak });
  }

  private modeSearch(
    pool: SearchPool,
    index: PoolIndex,
    text: string,
    limit: number,
    mode: 'regex' | 'bm25',
  ): ToolSearchResult {
    const ranker = this.namedRanker(mode);
    const rankerIndex = this.rankerIndex(index, ranker);
    const result = this.emptyResult(pool, text, mode, index);
    if (mode === 'regex') {
      const check = (ranker as Ranker & { validate?: (pattern: string) => string | undefined }).validate?.(text);
      if (check !== undefined) return { ...result, error: check };
    }
    return { ...result, matches: rankerIndex.search({ text, terms: [], required: [] }, limit).map((r) => r.name) };
  }

  private namedRanker(name: RankerName): Ranker {
    let ranker = this.rankerCache.get(name);
    if (!ranker) this.rankerCache.set(name, (ranker = createRanker(name)));
    return ranker;
  }

  private rankerIndex(index: PoolIndex, ranker: Ranker): RankerIndex {
    let built = index.rankers.get(ranker.name);
    if (!built)
      index.rankers.set(
        ranker.name,
        (built = ranker.build(index.deferredTools, index.servers ? { servers: index.servers } : {})),
      );
    return built;
  }

  /** The index for this pool's deferred tools: reused while the sorted deferred names are the same. */
  private poolIndex(pool: SearchPool): PoolIndex {
    const last = this.cachedFor;
    if (
      this.cached &&
      last &&
      last.tools === pool.tools &&
      last.deferred === pool.deferred &&
      last.size === pool.deferred.size
    ) {
      return this.withServers(this.cached, pool);
    }
    const deferredTools = pool.tools.filter((t) => pool.deferred.has(t.name));
    const key = deferredTools.map((t) => t.name).sort();
    if (!this.cached || !sameNames(this.cached.key, key)) {
      this.cached = {
        key,
        deferredTools,
        byName: new Map(deferredTools.map((t) => [t.name, t])),
        facts: new PoolFacts(deferredTools),
        rankers: new Map(),
        servers: pool.servers,
      };
    }
    this.cachedFor = { tools: pool.tools, deferred: pool.deferred, size: pool.deferred.size };
    return this.withServers(this.cached, pool);
  }

  /** Server info is ranking evidence: when it changes, the rankers are rebuilt (the vectors stay). */
  private withServers(index: PoolIndex, pool: SearchPool): PoolIndex {
    if (index.servers !== pool.servers) {
      index.servers = pool.servers;
      index.rankers.clear();
    }
    return index;
  }

  private syncToolVectors(index: PoolIndex): number[][] | undefined {
    if (index.vectors || index.vectorsPending) return index.vectors;
    const out = this.embedder!.embed(index.deferredTools.map(toolEmbeddingText));
    if (Array.isArray(out)) return (index.vectors = out);
    // An async embedder: keep the promise so searchAsync/prepare can use it; lexical until then.
    index.vectorsPending = out.then((v) => (index.vectors = v));
    index.vectorsPending.catch(() => undefined);
    return undefined;
  }

  private async toolVectors(index: PoolIndex): Promise<number[][]> {
    if (index.vectors) return index.vectors;
    if (!index.vectorsPending) {
      const out = this.embedder!.embed(index.deferredTools.map(toolEmbeddingText));
      index.vectorsPending = Promise.resolve(out).then((v) => (index.vectors = v));
    }
    return index.vectorsPending;
  }

  private syncQueryVector(text: string): number[] | undefined {
    const out = this.embedder!.embed([text]);
    if (Array.isArray(out)) return out[0];
    out.catch(() => undefined);
    return undefined;
  }

  /** The result's frame. With the pool's index the deferred count is known; without (an error path) it is counted. */
  private emptyResult(pool: SearchPool, query: string, kind: QueryKind, index?: PoolIndex): ToolSearchResult {
    let totalDeferred = index?.deferredTools.length ?? 0;
    if (!index) for (const tool of pool.tools) if (pool.deferred.has(tool.name)) totalDeferred++;
    return {
      query,
      kind,
      matches: [],
      notFound: [],
      totalDeferred,
      pendingServers: [...pool.pendingServers],
      ...(pool.failedServers?.length ? { failedServers: [...pool.failedServers] } : {}),
      ...(pool.installingServers?.length ? { installingServers: [...pool.installingServers] } : {}),
    };
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** select:, exact-name and prefix hits: the rule that found them is the whole explanation. */
function withPlainExplanations(result: ToolSearchResult, options: SearchOptions, how: string): ToolSearchResult {
  if (!options.explain) return result;
  return { ...result, explanations: result.matches.map((name, i) => ({ name, rank: i + 1, how })) };
}
