/**
 * E1–E4 — telling the model what it can search for. A full list of deferred names (E1); deltas
 * against what earlier announcements in the history already said, so the cached prompt prefix
 * stays stable (E2); once the list would pass the token budget, a grouped form by server whose
 * cost grows with servers, not tools (E3); and past the budget even for that, the servers most
 * likely to matter plus one line for the rest, so the cost stops growing at all (E4).
 */
import {
  boundedTextTokens,
  largestFitting,
  rankGroups,
  type GroupRanking,
  type ServerGroup,
} from './announce-budget.js';
import type { AnnouncementForm, HistoryEvent } from './history.js';
import { SERVER_NAMES_LINE } from './history.js';
import { ANNOUNCE_TAG, DELTA_ADDED_HEADER, DELTA_REMOVED_HEADER, DELTA_TAG, wrapTag } from './markers.js';
import { searchInstructions, type SearchInstructions } from './search-instructions.js';
import type { ToolSpec } from './tool.js';

/**
 * The announcement's own budget when the caller gives none: what DEFAULT_DEFERRED_TOKEN_BUDGET
 * leaves once the search tool (~270 tokens) and a call-through tool (~110) are paid for.
 */
export const DEFAULT_ANNOUNCE_TOKEN_BUDGET = 1_600;
export const LOCAL_GROUP = 'local';

export interface AnnounceOptions extends GroupRanking {
  /**
   * The announcement text's hard budget (E4): above it the name list gives way to the grouped form
   * (E3), and past it for that too, to the servers most likely to matter plus one line for the rest.
   */
  readonly tokenBudget?: number;
  /** Token counter for announcement text (default: `boundedTextTokens`, an estimate that errs high). */
  readonly countTextTokens?: (text: string) => number;
  readonly searchToolName?: string;
  /** What the intro lines say about searching (default: the client `tool_search` with `searchToolName`). */
  readonly instructions?: SearchInstructions;
}

export interface Announcement {
  readonly kind: 'full' | 'delta';
  readonly form: AnnouncementForm;
  /** The text to put in front of the model (it carries the markers that later turns read). */
  readonly text: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** E3: the group a tool is announced under. */
export function groupKeyOf(tool: ToolSpec): string {
  return tool.origin.kind === 'mcp' ? `mcp__${tool.origin.server}` : LOCAL_GROUP;
}

function groupCounts(tools: readonly ToolSpec[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tools) {
    const key = groupKeyOf(t);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Map([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function groupLine(key: string, count: number): string {
  return `${key}: ${count} ${count === 1 ? 'tool' : 'tools'}`;
}

function instructionsOf(options: AnnounceOptions): SearchInstructions {
  return options.instructions ?? searchInstructions('client', options.searchToolName);
}

function listText(deferred: readonly ToolSpec[], how: SearchInstructions): string {
  const lines = compactNameLines(deferred);
  const grouped = lines.some((l) => SERVER_NAMES_LINE.test(l));
  return `${how.listIntro}${grouped ? `\n${GROUPED_NAMES_NOTE}` : ''}\n${wrapTag(ANNOUNCE_TAG, lines)}`;
}

/** E5: how a list line with a server prefix reads (said once, only when a line uses it). */
const GROUPED_NAMES_NOTE =
  'A server\'s tools share one line: "mcp__<server>__: tool_a, tool_b" stands for mcp__<server>__tool_a and mcp__<server>__tool_b.';

/**
 * E5: the list form names each server's prefix once ("mcp__github__: create_issue, list_repos")
 * instead of repeating it per tool; a server with one deferred tool, and local tools, keep the full
 * name. `expandNameLine` (history.ts) reads both forms back.
 */
function compactNameLines(deferred: readonly ToolSpec[]): string[] {
  const byPrefix = new Map<string, string[]>();
  const lines: Array<string | { prefix: string }> = [];
  for (const tool of deferred) {
    const prefix = `${groupKeyOf(tool)}__`;
    if (tool.origin.kind !== 'mcp' || !tool.name.startsWith(prefix)) {
      lines.push(tool.name);
      continue;
    }
    let names = byPrefix.get(prefix);
    if (!names) {
      byPrefix.set(prefix, (names = []));
      lines.push({ prefix });
    }
    names.push(tool.name.slice(prefix.length));
  }
  return lines.map((line) => {
    if (typeof line === 'string') return line;
    const names = byPrefix.get(line.prefix)!;
    return names.length === 1 ? `${line.prefix}${names[0]}` : `${line.prefix}: ${names.join(', ')}`;
  });
}

/** E3 (all groups) or E4 (the first `shown`, then one line for `rest` more servers). */
function groupedText(total: number, shown: readonly ServerGroup[], rest: number, how: SearchInstructions): string {
  const lines = shown.map((g) => groupLine(g.key, g.tools));
  if (rest > 0) lines.push(how.moreServers(rest));
  return `${how.groupedIntro(total)}\n${wrapTag(ANNOUNCE_TAG, lines, 'form="grouped"')}`;
}

function budgetOf(options: AnnounceOptions): { budget: number; count: (text: string) => number } {
  return {
    budget: options.tokenBudget ?? DEFAULT_ANNOUNCE_TOKEN_BUDGET,
    count: options.countTextTokens ?? boundedTextTokens,
  };
}

/** E3: the list form unless it would pass the token budget. */
export function chooseForm(deferred: readonly ToolSpec[], options: AnnounceOptions = {}): AnnouncementForm {
  const { budget, count } = budgetOf(options);
  // Every name costs at least a token: past that many names the list cannot fit, so skip writing it.
  if (deferred.length > budget) return 'grouped';
  return count(listText(deferred, instructionsOf(options))) <= budget ? 'list' : 'grouped';
}

/**
 * E3/E4: the servers the grouped form names. All of them while they fit (alphabetical); past the
 * budget the best-ranked ones (`rankGroups`: recent use, priority, size) that fit beside the line
 * for the rest, in rank order.
 */
export function groupsWithinBudget(
  deferred: readonly ToolSpec[],
  options: AnnounceOptions = {},
): { shown: ServerGroup[]; rest: number; text: string } {
  const how = instructionsOf(options);
  const { budget, count } = budgetOf(options);
  const all = [...groupCounts(deferred)].map(([key, tools]) => ({ key, tools }));
  const whole = groupedText(deferred.length, all, 0, how);
  if (count(whole) <= budget) return { shown: all, rest: 0, text: whole };
  const ranked = rankGroups(all, options);
  const textOf = (n: number) => groupedText(deferred.length, ranked.slice(0, n), ranked.length - n, how);
  const n = largestFitting(ranked.length - 1, (k) => count(textOf(k)) <= budget);
  return { shown: ranked.slice(0, n), rest: ranked.length - n, text: textOf(n) };
}

/** E1/E3/E4: the whole state, in the form the budget allows. */
export function fullAnnouncement(deferred: readonly ToolSpec[], options: AnnounceOptions = {}): Announcement {
  const how = instructionsOf(options);
  if (chooseForm(deferred, options) === 'list') {
    const names = deferred.map((t) => t.name);
    return { kind: 'full', form: 'list', text: listText(deferred, how), added: names, removed: [] };
  }
  const { shown, text } = groupsWithinBudget(deferred, options);
  return { kind: 'full', form: 'grouped', text, added: shown.map((g) => g.key), removed: [] };
}

interface AnnouncedState {
  form: AnnouncementForm;
  units: Set<string>;
}

/**
 * What the history has announced so far. A compaction boundary resets it: the summary ate the
 * earlier announcements, so the full state must be said again (E2).
 */
export function announcedState(events: Iterable<HistoryEvent>): AnnouncedState | undefined {
  let state: AnnouncedState | undefined;
  for (const event of events) {
    if (event.type === 'compaction') state = undefined;
    else if (event.type === 'announcement') state = { form: event.form, units: new Set(event.units) };
    else if (event.type === 'delta') {
      if (!state || state.form !== event.form) state = { form: event.form, units: new Set() };
      for (const u of event.added) state.units.add(u);
      for (const u of event.removed) state.units.delete(u);
    }
  }
  return state;
}

function deltaText(form: AnnouncementForm, added: string[], removed: string[], counts: Map<string, number>): string {
  const render = (unit: string) => (form === 'list' ? unit : groupLine(unit, counts.get(unit) ?? 0));
  const lines = [
    ...(added.length ? [DELTA_ADDED_HEADER, ...added.map(render)] : []),
    ...(removed.length ? [DELTA_REMOVED_HEADER, ...removed.map(render)] : []),
  ];
  return wrapTag(DELTA_TAG, lines, form === 'grouped' ? 'form="grouped"' : '');
}

/**
 * E2: what changed since the history's announcements, or null when nothing did. With no
 * announcement in the history (first turn, or after compaction) or a change of form, the full
 * state is announced. A tool still in the pool but no longer deferred (it became loaded) is not
 * "removed": it is still available, just loaded differently.
 */
export function deferredDelta(
  deferred: readonly ToolSpec[],
  pool: readonly ToolSpec[],
  events: Iterable<HistoryEvent>,
  options: AnnounceOptions = {},
): Announcement | null {
  const state = announcedState(events);
  const form = chooseForm(deferred, options);
  if (!state || state.form !== form) return deferred.length || state ? fullAnnouncement(deferred, options) : null;
  const counts = groupCounts(deferred);
  const unitOf = (t: ToolSpec) => (form === 'list' ? t.name : groupKeyOf(t));
  const current = new Set(deferred.map(unitOf));
  const inPool = new Set(pool.map(unitOf));
  // E4: past the budget only the servers a full announcement would name now can be "added"; the
  // rest stay behind the announcement's one line (and are found by name), so a delta is no longer
  // than a full announcement and an unchanged catalog says nothing.
  const named = form === 'list' ? current : new Set(groupsWithinBudget(deferred, options).shown.map((g) => g.key));
  const added = [...named].filter((u) => !state.units.has(u));
  const removed = [...state.units].filter((u) => !current.has(u) && !inPool.has(u));
  if (!added.length && !removed.length) return null;
  return { kind: 'delta', form, text: deltaText(form, added, removed, counts), added, removed };
}
