/**
 * C8 for one-shot clients: a search that finds nothing while servers are still connecting waits
 * (bounded) for them before it answers "nothing found". Clients that search right after start
 * (the Inspector CLI, scripts, an agent's first turn) would otherwise always get an empty answer.
 * Only `tool_search` waits; `tools/list` answers at once.
 */
import type { Catalog } from '../core/catalog.js';

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
 * Run `search` until it finds something, no server is pending any more, or `waitMs` has passed;
 * each catalog change re-runs it. Returns the last outcome.
 */
export async function searchWhilePending<T extends { matches: readonly unknown[] }>(catalog: Catalog, waitMs: number, search: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + waitMs;
  let outcome = await search();
  while (outcome.matches.length === 0 && catalog.pendingServers.length > 0) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await nextCatalogChange(catalog, left);
    outcome = await search();
  }
  return outcome;
}
