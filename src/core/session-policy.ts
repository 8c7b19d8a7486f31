/**
 * E5 — where a session's cost is decided: from what a search found, how sure it is, what the
 * session already holds and which tool-list mode it runs, to what to load, what to list (one
 * `select:` away), what to show in full and what to unload. One pure function, so the gateway,
 * every library adapter and `bench:session` apply the same rule.
 *
 * - A hit is loaded only when the search is confident in it (C12's confidence) and its score is
 *   within a margin of the best hit's: often one tool, not five. The rest are listed compactly.
 * - Asked-for names (`select:`, an exact name) load whatever their confidence.
 * - A server listing (`mcp__<server>`) lists; it loads nothing.
 * - While servers are still starting, a weak search loads nothing (the best tool may be theirs).
 * - `fixed`: the tool list never changes; the best hit is shown in full instead (calls go
 *   through `call_tool`), and so are the hits close to it (C15, `closeHits`): when the ranker
 *   cannot tell the top hits apart, the model sees each of them whole and picks, instead of acting
 *   on the first. A server listing shows none in full (it is a list). While servers are still
 *   starting, only a strong match (`strongMatch`) is shown in full: the best tool may be theirs.
 *   Except a tool with an app view (`joinsFixedList`): a host renders the
 *   view only for a tool in its list called by its own name, so such a tool joins the list as soon
 *   as a search names it (an MCP App must not stop working because the list is fixed).
 * - Loaded tools are appended in load order; past the working-set cap, the least recently used
 *   ones are unloaded in one batch, at a search that changes the list anyway.
 */

/** `growing`: loaded tools join the tool list (appended); `fixed`: the list never changes. */
export type ToolListMode = 'growing' | 'fixed';
export const TOOL_LIST_MODES: readonly ToolListMode[] = ['growing', 'fixed'];

/** Below this confidence (C12's share of the query's words) a hit is listed, never loaded. */
export const LOAD_CONFIDENCE = 0.5;
/** A hit after the first loads only when its score is at least this share of the best hit's. */
export const LOAD_SCORE_MARGIN = 0.9;
/**
 * C15 "close": a hit after the first is close to it when it is confident and scores at least this
 * share of the best hit's score, each hit in turn (the run stops at the first that is not). On the
 * everyday request sets (1,812 requests) the best hit alone is the right tool for 68 %; the close
 * hits shown with it hold the right tool for 76.5 %, at 1.57 definitions per answer
 * (bench/results/recovery.md).
 */
export const CLOSE_HIT_SHARE = 0.8;
/** At most this many full definitions in one answer (the best hit and its close runners-up). */
export const MAX_FULL_DEFINITIONS = 3;
/**
 * C15 "strong": while servers are still starting, the best hit is shown in full only when it holds
 * the request's words (C12 confidence 1) and scores at least this many times the runner-up. On the
 * everyday request sets such a hit was the right tool 94 % of the time (1 in 5 requests qualify).
 */
export const STRONG_MATCH_LEAD = 1.5;
/** Default cap on tools a growing-list session holds; 0 turns unloading off. */
export const DEFAULT_WORKING_SET = 24;

export interface SessionHit {
  readonly name: string;
  /** C12: 0–1, how much of the query the tool covers (absent: the ranker has no such measure). */
  readonly confidence?: number;
  /** The ranker's score (absent for fused or rule-based hits: only the best one can then load). */
  readonly score?: number;
}

export interface SessionPolicyInput {
  /** How the search matched: names asked for, a server listing, or a ranking. */
  readonly kind: 'select' | 'exact' | 'prefix' | 'keyword' | 'regex' | 'bm25';
  /** Hits, best first; only tools the session could load (deferred ones). */
  readonly hits: readonly SessionHit[];
  /** C12: the search judged its best hit weak. */
  readonly lowConfidence?: boolean;
  /** Servers still on their first connect (their tools are not searchable yet). */
  readonly startingServers?: readonly string[];
  /** What the session has loaded, in load order. */
  readonly held: readonly string[];
  /** When each held tool was last called or loaded (any increasing clock); unknown counts as oldest. */
  readonly lastUsed?: ReadonlyMap<string, number>;
  readonly toolList?: ToolListMode;
  /** Fixed list: the tools that still join it when found (those with an app view). */
  readonly joinsFixedList?: (name: string) => boolean;
  /** Tools a growing list may hold before a batch is unloaded; 0 or absent: never unload. */
  readonly workingSetCap?: number;
  /** The query asked for definitions (`select:` / `describe:`). */
  readonly describe?: boolean;
  readonly loadConfidence?: number;
  readonly scoreMargin?: number;
  /** Fixed list: the share of the best score a close hit needs (default `CLOSE_HIT_SHARE`). */
  readonly closeShare?: number;
}

export interface SessionDecision {
  /** Appended to the session's tool list, in this order (growing mode). */
  readonly load: readonly string[];
  /** Hits shown as one compact line each (not loaded). */
  readonly list: readonly string[];
  /** Hits whose full definition goes into the answer. */
  readonly describe: readonly string[];
  /** Held tools dropped from the list in this batch (announced as no longer available). */
  readonly unload: readonly string[];
  /** Names of the session's tool list after this search, in order. */
  readonly held: readonly string[];
}

export function decideSession(input: SessionPolicyInput): SessionDecision {
  const names = input.hits.map((h) => h.name);
  const chosen = chosenHits(input);
  const fixed = input.toolList === 'fixed';
  const heldSet = new Set(input.held);
  const load = (fixed ? names.filter((n) => input.joinsFixedList?.(n) === true) : chosen).filter(
    (n) => !heldSet.has(n),
  );
  const describe = describedHits(input, chosen, fixed).filter((n) => !fixed || !load.includes(n));
  const unload = fixed ? [] : unloadBatch(input, load);
  const dropped = new Set(unload);
  return {
    load,
    list: names.filter((n) => !describe.includes(n) && !load.includes(n) && (fixed || !chosen.includes(n))),
    describe,
    unload,
    held: [...input.held.filter((n) => !dropped.has(n)), ...load],
  };
}

/** The hits the search is sure of: asked-for names, or the confident head of a ranking. */
export function chosenHits(input: SessionPolicyInput): string[] {
  if (input.kind === 'select' || input.kind === 'exact') return input.hits.map((h) => h.name);
  if (input.kind === 'prefix' || input.lowConfidence === true) return [];
  const [best, ...rest] = input.hits;
  const threshold = input.loadConfidence ?? LOAD_CONFIDENCE;
  if (!best || !confident(best, threshold)) return [];
  const margin = input.scoreMargin ?? LOAD_SCORE_MARGIN;
  const close = (h: SessionHit) =>
    best.score !== undefined && best.score > 0 && h.score !== undefined && h.score >= best.score * margin;
  const out = [best.name];
  // A partial catalog's runner-up may be a worse tool than one a starting server is about to list.
  if ((input.startingServers?.length ?? 0) > 0) return out;
  for (const hit of rest) {
    if (!close(hit) || !confident(hit, threshold)) break;
    out.push(hit.name);
  }
  return out;
}

function confident(hit: SessionHit, threshold: number): boolean {
  return hit.confidence === undefined || hit.confidence >= threshold;
}

/**
 * Full definitions: what was asked for, or (fixed list) the best hit and the hits close to it,
 * which the model calls through `call_tool`. A server listing is a list; a partial catalog shows
 * only a strong match in full.
 */
function describedHits(input: SessionPolicyInput, chosen: readonly string[], fixed: boolean): string[] {
  if (input.describe === true || input.kind === 'select') return input.hits.map((h) => h.name);
  if (!fixed || input.kind === 'prefix') return [];
  if ((input.startingServers?.length ?? 0) > 0) return strongMatch(input) ? [input.hits[0]!.name] : [];
  if (input.kind === 'exact') return chosen.slice(0, MAX_FULL_DEFINITIONS);
  if (chosen.length > 0) return closeHits(input);
  const best = input.lowConfidence === true ? undefined : input.hits[0]?.name;
  return best === undefined ? [] : [best];
}

/**
 * C15: the best hit and the confident hits right behind it, each scoring at least `closeShare` of
 * the best's score, at most `MAX_FULL_DEFINITIONS`. Without scores (a fused or rule-based ranking)
 * only the best.
 */
export function closeHits(input: Pick<SessionPolicyInput, 'hits' | 'closeShare' | 'loadConfidence'>): string[] {
  const [best, ...rest] = input.hits;
  if (!best) return [];
  const out = [best.name];
  const share = input.closeShare ?? CLOSE_HIT_SHARE;
  const threshold = input.loadConfidence ?? LOAD_CONFIDENCE;
  if (best.score === undefined || best.score <= 0) return out;
  for (const hit of rest) {
    if (out.length >= MAX_FULL_DEFINITIONS) break;
    if (hit.score === undefined || hit.score < best.score * share || !confident(hit, threshold)) break;
    out.push(hit.name);
  }
  return out;
}

/**
 * C15: a match strong enough to show in full while servers are still starting: an asked-for name,
 * or a best hit that holds the request's words and leads the runner-up by `STRONG_MATCH_LEAD`.
 */
export function strongMatch(input: Pick<SessionPolicyInput, 'kind' | 'hits' | 'lowConfidence'>): boolean {
  const [best, second] = input.hits;
  if (!best) return false;
  if (input.kind === 'select' || input.kind === 'exact') return true;
  if (input.kind === 'prefix' || input.lowConfidence === true) return false;
  if (best.confidence !== undefined && best.confidence < 1) return false;
  if (best.score === undefined || best.score <= 0) return false;
  return second?.score === undefined || best.score >= STRONG_MATCH_LEAD * second.score;
}

/**
 * Past the cap, drop the least recently used held tools (never the ones being loaded) down to half
 * the cap, so the next batch is far away: each batch costs one cache rebuild, and this one happens
 * at a search that changes the list anyway.
 */
function unloadBatch(input: SessionPolicyInput, load: readonly string[]): string[] {
  const cap = input.workingSetCap ?? 0;
  if (cap <= 0 || load.length === 0 || input.held.length + load.length <= cap) return [];
  const keep = Math.max(load.length, Math.ceil(cap / 2));
  const excess = input.held.length + load.length - keep;
  const used = input.lastUsed ?? new Map<string, number>();
  const byAge = input.held
    .map((name, order) => ({ name, order, at: used.get(name) ?? Number.NEGATIVE_INFINITY }))
    .sort((a, b) => a.at - b.at || a.order - b.order);
  return byAge.slice(0, Math.min(excess, input.held.length)).map((e) => e.name);
}
