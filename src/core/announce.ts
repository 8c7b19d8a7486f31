/**
 * E1–E3 — telling the model what it can search for. A full list of deferred names (E1); deltas
 * against what earlier announcements in the history already said, so the cached prompt prefix
 * stays stable (E2); and, once the list would pass a token budget, a grouped form by server
 * whose cost grows with servers, not tools (E3).
 */
import type { AnnouncementForm, HistoryEvent } from './history.js';
import { ANNOUNCE_TAG, DELTA_ADDED_HEADER, DELTA_REMOVED_HEADER, DELTA_TAG, wrapTag } from './markers.js';
import { searchInstructions, type SearchInstructions } from './search-instructions.js';
import type { ToolSpec } from './tool.js';

export const DEFAULT_ANNOUNCE_TOKEN_BUDGET = 4_000;
export const LOCAL_GROUP = 'local';

export interface AnnounceOptions {
  /** Above this many tokens the name list gives way to the grouped form (E3). */
  readonly tokenBudget?: number;
  /** Token counter for announcement text (default: characters / 4, an estimate). */
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
  for (const t of tools) counts.set(groupKeyOf(t), (counts.get(groupKeyOf(t)) ?? 0) + 1);
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

function groupLine(key: string, count: number): string {
  return `${key}: ${count} ${count === 1 ? 'tool' : 'tools'}`;
}

function instructionsOf(options: AnnounceOptions): SearchInstructions {
  return options.instructions ?? searchInstructions('client', options.searchToolName);
}

function listText(deferred: readonly ToolSpec[], how: SearchInstructions): string {
  return `${how.listIntro}\n${wrapTag(
    ANNOUNCE_TAG,
    deferred.map((t) => t.name),
  )}`;
}

function groupedText(deferred: readonly ToolSpec[], how: SearchInstructions): string {
  const lines = [...groupCounts(deferred)].map(([key, n]) => groupLine(key, n));
  return `${how.groupedIntro(deferred.length)}\n${wrapTag(ANNOUNCE_TAG, lines, 'form="grouped"')}`;
}

/** E3: the list form unless it would pass the token budget. */
export function chooseForm(deferred: readonly ToolSpec[], options: AnnounceOptions = {}): AnnouncementForm {
  const budget = options.tokenBudget ?? DEFAULT_ANNOUNCE_TOKEN_BUDGET;
  const count = options.countTextTokens ?? estimateTextTokens;
  return count(listText(deferred, instructionsOf(options))) <= budget ? 'list' : 'grouped';
}

/** E1/E3: the whole state, in the form the budget allows. */
export function fullAnnouncement(deferred: readonly ToolSpec[], options: AnnounceOptions = {}): Announcement {
  const how = instructionsOf(options);
  const form = chooseForm(deferred, options);
  const units = form === 'list' ? deferred.map((t) => t.name) : [...groupCounts(deferred).keys()];
  const text = form === 'list' ? listText(deferred, how) : groupedText(deferred, how);
  return { kind: 'full', form, text, added: units, removed: [] };
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
  const added = [...current].filter((u) => !state.units.has(u));
  const removed = [...state.units].filter((u) => !current.has(u) && !inPool.has(u));
  if (!added.length && !removed.length) return null;
  return { kind: 'delta', form, text: deltaText(form, added, removed, counts), added, removed };
}
