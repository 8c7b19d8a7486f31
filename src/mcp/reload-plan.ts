/**
 * G7 — what a reload changes: servers added, removed, changed (restart) and unchanged (left
 * running). Entries are compared after `${VAR}` expansion, so a rotated secret in the environment
 * restarts the server that uses it and an edit that only reformats the file restarts nothing.
 * Pure: no I/O.
 */
import type { ServerConfig } from './config.js';

export interface ServerChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  readonly unchanged: readonly string[];
}

export function diffServers(
  before: Readonly<Record<string, ServerConfig>>,
  after: Readonly<Record<string, ServerConfig>>,
): ServerChanges {
  const added: string[] = [];
  const changed: string[] = [];
  const unchanged: string[] = [];
  for (const [name, entry] of Object.entries(after)) {
    const previous = before[name];
    if (previous === undefined) added.push(name);
    else if (canonical(previous) !== canonical(entry)) changed.push(name);
    else unchanged.push(name);
  }
  const removed = Object.keys(before).filter((name) => !(name in after));
  return { added, removed, changed, unchanged };
}

/** Nothing to do. */
export function isEmptyChange(changes: ServerChanges): boolean {
  return changes.added.length + changes.removed.length + changes.changed.length === 0;
}

/** JSON with keys sorted at every level: key order in the file is not a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
