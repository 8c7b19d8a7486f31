/**
 * E5 — what a whole session costs under prompt caching, and whether deferral pays for a catalog.
 *
 * A request is an ordered list of blocks (each tool, the system text, each message). A provider
 * that caches prompts reads the longest prefix unchanged since the previous request from its cache
 * and writes the rest: a cache read costs about 0.1 of an input token and a write about 1.25
 * (Anthropic's published ratios; OpenAI caches prefixes automatically at a discount). Without
 * caching every token costs 1. `bench:session` prices scripted sessions with `requestCost`, and
 * `auto` prices a modelled session with `estimateSessionCost`: one arithmetic for both.
 */

export const CACHE_WRITE = 1.25;
export const CACHE_READ = 0.1;

export interface PromptBlock {
  /** Identity: two blocks with the same key are the same bytes. */
  readonly key: string;
  readonly tokens: number;
}

export interface RequestCost {
  readonly tokens: number;
  /** Tokens of the longest prefix unchanged since the previous request. */
  readonly cached: number;
  /** Cost in input-token units: cached × 0.1 + the rest × 1.25 (or every token × 1 without caching). */
  readonly weighted: number;
}

export function requestCost(
  previous: readonly PromptBlock[] | undefined,
  next: readonly PromptBlock[],
  caching = true,
): RequestCost {
  let tokens = 0;
  for (const block of next) tokens += block.tokens;
  let cached = 0;
  if (previous && caching) {
    for (let i = 0; i < next.length && i < previous.length && previous[i]!.key === next[i]!.key; i++)
      cached += next[i]!.tokens;
  }
  const weighted = caching ? cached * CACHE_READ + (tokens - cached) * CACHE_WRITE : tokens;
  return { tokens, cached, weighted };
}

/** What `auto` assumes about a session when it weighs deferral against loading everything. */
export interface SessionAssumptions {
  /** Intents in a session, each one search (deferred) and one tool call. Default 20. */
  readonly searches?: number;
  /** The client's provider caches prompt prefixes. Default true. */
  readonly promptCache?: boolean;
  /** `growing`: a search adds one definition to the list; `fixed`: it is in the answer instead. Default growing. */
  readonly toolList?: 'growing' | 'fixed';
}

export interface SessionCostInput extends SessionAssumptions {
  /** Every tool's definition, as sent when nothing is deferred. */
  readonly eagerTokens: number;
  /** What deferral always sends: the search tool with its announcement, call_tool, always-loaded tools. */
  readonly deferredBaseTokens: number;
  /** Tools that would be deferred. */
  readonly deferredTools: number;
  /** Their definitions' tokens (the mean definition is what a search loads). */
  readonly deferredToolTokens: number;
  /** A compact search answer. Default DEFAULT_ANSWER_TOKENS. */
  readonly answerTokens?: number;
  /** One intent's own messages (request, call, result, reply). Default DEFAULT_TURN_TOKENS. */
  readonly turnTokens?: number;
}

export interface SessionCostEstimate {
  readonly searches: number;
  /** Cost-weighted input tokens of the whole session, loading everything. */
  readonly eager: number;
  /** The same with deferral (a growing list loads one tool per intent; a fixed one never changes). */
  readonly deferred: number;
  /** deferred ÷ eager. */
  readonly ratio: number;
  /** The first intent after which deferral has cost more in total than eager; absent if never within the session. */
  readonly crossover?: number;
  /** Whether deferral saves anything over the session. */
  readonly defer: boolean;
}

export const DEFAULT_SEARCHES = 20;
/** A compact answer: five hit lines and the loaded tool's line (measured ~200–300 o200k tokens, bench:session). */
export const DEFAULT_ANSWER_TOKENS = 250;
/** An intent's request, the model's call, a short result and its reply. */
export const DEFAULT_TURN_TOKENS = 200;
/** The model's search call (tool name and a query). */
const SEARCH_CALL_TOKENS = 30;
/** A fixed system prompt, so the cache has something after the tools. */
const SYSTEM_TOKENS = 300;

/**
 * Price a modelled session both ways with `requestCost`: eager is two requests per intent (the
 * call, the reply after its result); deferred three (the search first), and its tool list grows by
 * one mean definition per intent, which rewrites everything after the tools once per intent.
 */
export function estimateSessionCost(input: SessionCostInput): SessionCostEstimate {
  const searches = input.searches ?? DEFAULT_SEARCHES;
  const caching = input.promptCache ?? true;
  const turn = input.turnTokens ?? DEFAULT_TURN_TOKENS;
  const perTool = input.deferredTools > 0 ? input.deferredToolTokens / input.deferredTools : 0;
  const fixed = input.toolList === 'fixed';
  // A fixed list's answer carries the best hit in full instead of the tool list carrying it.
  const answer = (input.answerTokens ?? DEFAULT_ANSWER_TOKENS) + (fixed ? perTool : 0);
  const eager = new Session(caching, [{ key: 'tools', tokens: input.eagerTokens }]);
  const deferred = new Session(caching, [{ key: 'tools', tokens: input.deferredBaseTokens }]);
  let crossover: number | undefined;
  for (let i = 0; i < searches; i++) {
    eager.request([{ key: `u${i}`, tokens: turn / 2 }]);
    eager.request([{ key: `r${i}`, tokens: turn / 2 }]);
    deferred.request([{ key: `u${i}`, tokens: turn / 4 }]);
    // The search's answer loads a tool: the next request carries the longer list.
    if (!fixed && i < input.deferredTools) deferred.load({ key: `t${i}`, tokens: perTool });
    deferred.request([{ key: `s${i}`, tokens: SEARCH_CALL_TOKENS + answer }]);
    deferred.request([{ key: `r${i}`, tokens: (turn * 3) / 4 }]);
    if (crossover === undefined && deferred.total > eager.total) crossover = i + 1;
  }
  const ratio = eager.total > 0 ? deferred.total / eager.total : 1;
  return {
    searches,
    eager: Math.round(eager.total),
    deferred: Math.round(deferred.total),
    ratio,
    ...(crossover !== undefined && { crossover }),
    defer: deferred.total < eager.total,
  };
}

/** A modelled conversation: tools, a system prompt, then messages; each request priced against the last. */
class Session {
  total = 0;
  private tools: PromptBlock[];
  private readonly history: PromptBlock[] = [];
  private last: PromptBlock[] | undefined;

  constructor(
    private readonly caching: boolean,
    tools: PromptBlock[],
  ) {
    this.tools = tools;
  }

  load(tool: PromptBlock): void {
    this.tools = [...this.tools, tool];
  }

  request(messages: readonly PromptBlock[]): void {
    this.history.push(...messages);
    const blocks = [...this.tools, { key: 'system', tokens: SYSTEM_TOKENS }, ...this.history];
    this.total += requestCost(this.last, blocks, this.caching).weighted;
    this.last = blocks;
  }
}
