/**
 * D1 — the provider-neutral history: the conversation reduced to the few events that discovery
 * and announcements depend on. Providers translate their wire messages into these events; the
 * text markers (markers.ts) let any text-bearing message carry them.
 */
import {
  ANNOUNCE_TAG,
  carriesNonce,
  DELTA_ADDED_HEADER,
  DELTA_REMOVED_HEADER,
  DELTA_TAG,
  LOADED_TAG,
  readTagBlocks,
  SNAPSHOT_TAG,
  UNLOADED_TAG,
} from './markers.js';

export type AnnouncementForm = 'list' | 'grouped';

export type HistoryEvent =
  /** A search result loaded these tools (a tool_reference block, a tool_search_output, …). */
  | { readonly type: 'loaded'; readonly names: readonly string[] }
  /** E5: a bounded working set let these tools go (F9: a `tool_removal` block); a later load brings one back. */
  | { readonly type: 'unloaded'; readonly names: readonly string[] }
  /** A compaction boundary with the snapshot of what was discovered before it (D2). */
  | { readonly type: 'compaction'; readonly discovered: readonly string[] }
  /** A full announcement (E1/E3): the units are tool names (list) or group keys (grouped). */
  | { readonly type: 'announcement'; readonly form: AnnouncementForm; readonly units: readonly string[] }
  /** A delta announcement (E2). */
  | {
      readonly type: 'delta';
      readonly form: AnnouncementForm;
      readonly added: readonly string[];
      readonly removed: readonly string[];
    };

/** `mcp__github: 42 tools` — one line of a grouped announcement. */
export const GROUP_LINE = /^(\S+): (\d+) tools?$/;

function formOf(attrs: string): AnnouncementForm {
  return /form="grouped"/.test(attrs) ? 'grouped' : 'list';
}

/** E5: a list line naming a server's prefix once: "mcp__github__: create_issue, list_repos". */
export const SERVER_NAMES_LINE = /^(mcp__\S+__): (\S.*)$/;

/** The names one list line stands for (a full name, or a server prefix with its tools). */
function expandNameLine(line: string): string[] {
  const m = SERVER_NAMES_LINE.exec(line);
  if (!m) return [line];
  return m[2]!.split(', ').map((name) => `${m[1]}${name.trim()}`);
}

function unitsOf(form: AnnouncementForm, lines: readonly string[]): string[] {
  if (form === 'list') return lines.flatMap(expandNameLine);
  return lines.flatMap((line) => {
    const m = GROUP_LINE.exec(line);
    return m?.[1] ? [m[1]] : [];
  });
}

function parseDelta(form: AnnouncementForm, lines: readonly string[]): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  let section: string[] | undefined;
  for (const line of lines) {
    if (line === DELTA_ADDED_HEADER) section = added;
    else if (line === DELTA_REMOVED_HEADER) section = removed;
    else section?.push(...unitsOf(form, [line]));
  }
  return { added, removed };
}

/** Events carried by one piece of text, in the order they appear per kind. */
export function eventsFromText(text: string): HistoryEvent[] {
  if (!text.includes('<')) return [];
  const events: HistoryEvent[] = [];
  // G5: only markers this process wrote add tools (markers.ts, MARKER_NONCE).
  for (const block of readTagBlocks(text, SNAPSHOT_TAG))
    if (carriesNonce(block.attrs)) events.push({ type: 'compaction', discovered: block.lines });
  for (const block of readTagBlocks(text, ANNOUNCE_TAG)) {
    const form = formOf(block.attrs);
    events.push({ type: 'announcement', form, units: unitsOf(form, block.lines) });
  }
  for (const block of readTagBlocks(text, DELTA_TAG)) {
    const form = formOf(block.attrs);
    events.push({ type: 'delta', form, ...parseDelta(form, block.lines) });
  }
  for (const block of readTagBlocks(text, LOADED_TAG))
    if (carriesNonce(block.attrs)) events.push({ type: 'loaded', names: block.lines });
  for (const block of readTagBlocks(text, UNLOADED_TAG))
    if (carriesNonce(block.attrs)) events.push({ type: 'unloaded', names: block.lines });
  return events;
}

/**
 * D1/D2 — the discovered set: every loaded name plus every compaction snapshot, unioned. Set
 * union makes this idempotent across repeated compactions and order-insensitive — except that an
 * unload (E5, a bounded working set) takes a name out until a later load adds it again, so
 * events are read in conversation order.
 */
export function extractDiscovered(events: Iterable<HistoryEvent>): Set<string> {
  const discovered = new Set<string>();
  for (const event of events) {
    if (event.type === 'loaded') for (const n of event.names) discovered.add(n);
    else if (event.type === 'unloaded') for (const n of event.names) discovered.delete(n);
    else if (event.type === 'compaction') for (const n of event.discovered) discovered.add(n);
  }
  return discovered;
}
