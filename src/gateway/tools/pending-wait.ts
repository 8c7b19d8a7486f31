/**
 * C8 for one-shot clients: a search made while servers are still on their first connect waits
 * (bounded) for them before it answers, and one that finds nothing waits for any pending server. Clients that search right after start
 * (the Inspector CLI, scripts, an agent's first turn) would otherwise always get an empty answer.
 * Only `tool_search` waits; `tools/list` answers at once.
 */
import type { Catalog } from '../../core/catalog.js';

/** Default bound of that wait; `toolSearch.searchWaitMs` / `GatewayOptions.pendingWaitMs` change it. */
export const DEFAULT_PENDING_WAIT_MS = 5_000;

/** Resolves at the catalog's next change (a server connected, failed, changed its tools) or after `ms`. */
export function nextCatalogChange(catalog: Catalog, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = catalog.onChange(done);
  });
}

/**
 * Run `search` again at each catalog change while it is worth waiting, until `waitMs` has passed:
 * while it finds nothing and some server is pending, or — whatever it found — while a server is
 * still on its first connect (`firstConnect`), since a partial catalog's best hit can be a worse
 * tool than the one that server is about to list. A server that is only reconnecting delays a
 * search that found something not at all. Returns the last outcome.
 */
export async function searchWhilePending<T extends { matches: readonly unknown[]; kind?: string }>(
  catalog: Catalog,
  waitMs: number,
  search: () => Promise<T>,
  firstConnect: () => readonly string[] = () => [],
): Promise<T> {
  const deadline = Date.now() + waitMs;
  const worthWaiting = (outcome: T) =>
    outcome.matches.length === 0
      ? soonReady(catalog, catalog.pendingServers).length > 0
      : isRanked(outcome) && soonReady(catalog, firstConnect()).length > 0;
  let outcome = await search();
  while (worthWaiting(outcome)) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await nextCatalogChange(catalog, left);
    outcome = await search();
  }
  return outcome;
}

/**
 * G13: the pending servers worth a few seconds' wait: not those a package runner is installing
 * (an install takes minutes; the answer names them instead, and every search would pay the wait).
 */
function soonReady(catalog: Catalog, pending: readonly string[]): readonly string[] {
  const installing = catalog.installingServers;
  return installing.length === 0 ? pending : pending.filter((s) => !installing.some((i) => i.server === s));
}

/** Only ranked answers can get better as servers join; a `select:` or exact name that was found cannot. */
function isRanked(outcome: { kind?: string }): boolean {
  return (
    outcome.kind === undefined || outcome.kind === 'keyword' || outcome.kind === 'bm25' || outcome.kind === 'regex'
  );
}

/**
 * Which pending servers have never listed tools in this process (their first connect), tracked
 * from the catalog's changes. A server that listed once and drops is reconnecting, not new.
 */
export function firstConnectTracker(catalog: Catalog): { pending(): string[]; stop(): void } {
  const listed = new Set<string>();
  const record = () => {
    for (const server of catalog.servers()) listed.add(server);
  };
  record();
  const stop = catalog.onChange(record);
  return { pending: () => catalog.pendingServers.filter((s) => !listed.has(s)), stop: () => void stop() };
}
