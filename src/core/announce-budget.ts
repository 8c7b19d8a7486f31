/**
 * E4 — the hard token budget for everything the first request carries about deferred tools (the
 * search tool, its announcement and any call-through tool). The announcement degrades to fit it:
 * names while they fit (E1) → every server with its count (E3) → the servers most likely to matter
 * plus one line for the rest. Pure: token counts come from a counter passed in.
 */
import { toolDefinitionJson, type ToolDefinitionLike } from './tool.js';

/** Search tool + announcement + call-through tool, in tokens, at any catalog size. */
export const DEFAULT_DEFERRED_TOKEN_BUDGET = 2_000;

/**
 * An offline token count that stays above o200k's on every shared catalog's announcement (1.06–1.6×
 * in bench/results/announce-budget.md): a run of ASCII letters costs one token per 4 letters, up
 * to 3 digits one token, any other character (punctuation, non-ASCII) one token, a line break one.
 * A hard budget needs an estimate that errs high; characters / 4 undercounts server names 1.6×.
 */
export function boundedTextTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(/[A-Za-z]+|[0-9]{1,3}|\s+|[^\sA-Za-z0-9]/g)) {
    const run = match[0];
    const first = run.charCodeAt(0);
    if (first === 32 || first === 9) continue; // spaces join the next word
    if (run.trim() === '') tokens += run.includes('\n') ? 1 : 0;
    else if (/^[A-Za-z]/.test(run)) tokens += Math.ceil(run.length / 4);
    else tokens += 1;
  }
  return tokens;
}

/** The same estimate for text that travels inside a JSON tool definition (escapes counted). */
export function boundedJsonTextTokens(text: string): number {
  return boundedTextTokens(JSON.stringify(text));
}

/**
 * What is left of the total budget for the announcement itself, once the tool definitions sent
 * beside it (the search tool without announcement, a call-through tool) are paid for. Never
 * negative: a budget smaller than the tools leaves the one-line summary only.
 */
export function announcementBudget(
  total: number,
  alongside: readonly ToolDefinitionLike[],
  count: (text: string) => number = boundedTextTokens,
): number {
  let fixed = 0;
  for (const tool of alongside) fixed += count(toolDefinitionJson(tool));
  return Math.max(0, total - fixed);
}

/** One server (an announcement group) and how many deferred tools it holds. */
export interface ServerGroup {
  readonly key: string;
  readonly tools: number;
}

/**
 * E4: how likely a server is to matter, higher first. The default is its size; issue 23's learned
 * evidence plugs in here. Must depend on the catalog only, or the cached prompt prefix churns.
 */
export type ServerPriority = (group: ServerGroup) => number;

export interface GroupRanking {
  /** Servers (group keys or bare server names) used recently, most recent first: named before the rest. */
  readonly recentServers?: readonly string[];
  readonly priority?: ServerPriority;
}

const bySize: ServerPriority = (group) => group.tools;

/** E4: the order in which servers earn a line once not all of them fit. Deterministic for a given catalog. */
export function rankGroups(groups: readonly ServerGroup[], ranking: GroupRanking = {}): ServerGroup[] {
  const recent = new Map<string, number>();
  (ranking.recentServers ?? []).forEach((s, i) => {
    const key = s.startsWith('mcp__') ? s : `mcp__${s}`;
    if (!recent.has(key)) recent.set(key, i);
    if (!recent.has(s)) recent.set(s, i);
  });
  const priority = ranking.priority ?? bySize;
  const scored = groups.map((g) => ({ g, recent: recent.get(g.key) ?? Number.POSITIVE_INFINITY, p: priority(g) }));
  scored.sort((a, b) => a.recent - b.recent || b.p - a.p || (a.g.key < b.g.key ? -1 : a.g.key > b.g.key ? 1 : 0));
  return scored.map((s) => s.g);
}

/** The largest n in [0, max] for which `fits(n)` holds; `fits` must be monotone (more lines, more tokens). */
export function largestFitting(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
