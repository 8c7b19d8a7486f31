/**
 * G5 — the one walker for every paginated upstream list (tools/list today; resources, prompts and
 * resource templates use it too). An upstream decides how many pages there are, so the walk is
 * bounded on three sides:
 *
 * - **pages** (`maxPages`) and **items** (`maxItems`): the list is *cut* there and the result says
 *   so (`truncated`). Cutting is deterministic (the same first N every time), so a server that
 *   lists too much still works with a stable subset, and a refresh does not flap.
 * - **cursor cycles**: a cursor seen before ends the walk (also a cut: the pages read are valid).
 * - **deadline** (`deadlineMs`, whole walk): a *typed error* (`ListDeadlineError`). A list cut at
 *   a random time would be a different subset each refresh (tools appearing and vanishing), so the
 *   caller keeps its previous list instead.
 *
 * Upstream cursors never leave this module (a cursor of one server means nothing to another).
 */
import { ToolsearchError } from '../core/errors.js';
import { plural } from '../core/plural.js';

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | undefined;
}

export interface PageWalkLimits {
  /** Pages read at most. */
  readonly maxPages: number;
  /** Items kept at most (across pages). */
  readonly maxItems: number;
  /** Time for the whole walk, in ms. */
  readonly deadlineMs: number;
}

export type TruncationReason = 'pages' | 'items' | 'cycle';

export interface PageWalkResult<T> {
  readonly items: T[];
  readonly pages: number;
  /** Set when the list was cut; `message` is ready for a log line. */
  readonly truncated?: { readonly reason: TruncationReason; readonly message: string };
}

/** The whole walk took longer than its deadline; nothing of it should be used. */
export class ListDeadlineError extends ToolsearchError {
  override name = 'ListDeadlineError';
  constructor(
    readonly what: string,
    readonly deadlineMs: number,
    readonly pages: number,
  ) {
    super(
      `${what}: not complete after ${deadlineMs} ms (${plural(pages, 'page')} read); raise the refreshTimeoutMs limit if this server is just slow.`,
    );
  }
}

/**
 * Read every page of a list. `fetchPage` gets the cursor (undefined first) and a signal that
 * aborts at the deadline (or when `signal` aborts); pass it to the request so a hanging page
 * stops too.
 */
export async function walkPages<T>(
  what: string,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>,
  limits: PageWalkLimits,
  signal?: AbortSignal,
): Promise<PageWalkResult<T>> {
  const items: T[] = [];
  const seen = new Set<string>();
  let pages = 0;
  let cursor: string | undefined;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new ListDeadlineError(what, limits.deadlineMs, pages)),
    limits.deadlineMs,
  );
  const stop = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
  try {
    for (;;) {
      const page = await fetchOnePage(fetchPage, cursor, stop);
      pages++;
      const room = limits.maxItems - items.length;
      for (let i = 0; i < page.items.length && i < room; i++) items.push(page.items[i]!);
      if (page.items.length > room)
        return cut(
          items,
          pages,
          'items',
          `${what}: more than ${limits.maxItems} items; kept the first ${limits.maxItems}`,
        );
      cursor = page.nextCursor;
      if (cursor === undefined) return { items, pages };
      if (seen.has(cursor))
        return cut(
          items,
          pages,
          'cycle',
          `${what}: the server repeated a page cursor after ${plural(pages, 'page')}; kept the ${plural(items.length, 'item')} read`,
        );
      seen.add(cursor);
      if (pages >= limits.maxPages)
        return cut(
          items,
          pages,
          'pages',
          `${what}: more than ${limits.maxPages} pages; kept the ${plural(items.length, 'item')} of the first ${plural(limits.maxPages, 'page')} (limit pagesPerList)`,
        );
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One page under its own signal, chained to the walk's: the SDK leaves an abort listener on the
 * signal it is given, so sharing one signal across a thousand pages would pile them up.
 */
async function fetchOnePage<T>(
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>,
  cursor: string | undefined,
  stop: AbortSignal,
): Promise<Page<T>> {
  const pageAbort = new AbortController();
  const onStop = () => pageAbort.abort(stop.reason);
  stop.addEventListener('abort', onStop, { once: true });
  try {
    return await raceSignal(fetchPage(cursor, pageAbort.signal), stop);
  } finally {
    stop.removeEventListener('abort', onStop);
  }
}

function cut<T>(items: T[], pages: number, reason: TruncationReason, message: string): PageWalkResult<T> {
  return { items, pages, truncated: { reason, message } };
}

/** Settle with the signal's reason as soon as it aborts, even if `promise` never settles. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
