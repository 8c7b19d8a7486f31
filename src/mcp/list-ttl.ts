/**
 * G12 — an upstream server's own cache hints (SEP-2549, protocol 2026-07-28): every `tools/list`,
 * `prompts/list`, `resources/list` and `resources/templates/list` result carries `ttlMs`, how long
 * it stays fresh. The hub keeps its lists fresh for clients it cannot see, so it re-lists a server
 * when its TTL runs out instead of waiting for `list_changed` (which a server without a listen
 * stream, or one that simply does not send it, never delivers).
 *
 * `ttlMs` is third-party input, bounded like the rest (G5):
 * - absent, invalid or `0` ("immediately stale", also the v2 SDK's default): no timer. The spec
 *   lets a client re-fetch whenever it needs the list; the hub needs it all the time, so that
 *   would be polling for ever on a default value. Such a server is re-listed on `list_changed`
 *   only, as the spec says for a missing TTL.
 * - shorter than `listTtlFloorMs`: re-listed no sooner than the floor;
 * - longer than `listTtlMaxMs` (a hostile 1e15 would overflow a timer into firing at once): the max.
 * The spec asks pollers for jitter, so up to a tenth is added (within the max).
 *
 * A re-list goes through the refresh a `list_changed` would start (catalog-feed.ts): the same
 * refresh gate, the same trust review (a changed tool is held exactly as it would be then).
 */
import type { Limits } from '../core/limits.js';

/** The lists the hub keeps per server: tools, resources (with templates) and prompts. */
export type ListKind = 'tools' | 'resources' | 'prompts';
export const LIST_KINDS: readonly ListKind[] = ['tools', 'resources', 'prompts'];

/** Jitter added to a re-list delay: up to this share of it. */
const JITTER_SHARE = 0.1;

/** A page's `ttlMs` when it is usable: a non-negative safe integer (the schema's own rule); else undefined. */
export function pageTtlMs(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * A whole list's TTL from its pages' (each page is its own cacheable result, fresh from when it
 * arrived): the shortest. One page without a usable TTL makes the list "immediately stale" (0).
 */
export function walkTtlMs(pages: readonly (number | undefined)[]): number | undefined {
  if (pages.length === 0) return undefined;
  let shortest = Number.POSITIVE_INFINITY;
  for (const ttl of pages) shortest = Math.min(shortest, ttl ?? 0);
  return shortest;
}

/** One connection's list TTLs, as its last complete walk of each list method carried them. */
export class WalkTtls {
  private readonly ttls = new Map<string, number | undefined>();

  /** A walk of `method` (`tools/list`, `resources/templates/list`, …) ended with these page TTLs. */
  record(method: string, pages: readonly (number | undefined)[]): void {
    this.ttls.set(method, walkTtlMs(pages));
  }

  /** `resources` covers resources and templates: the shorter of the two. */
  of(kind: ListKind): number | undefined {
    if (kind !== 'resources') return this.ttls.get(`${kind}/list`);
    const known = [this.ttls.get('resources/list'), this.ttls.get('resources/templates/list')].filter(
      (ttl): ttl is number => ttl !== undefined,
    );
    return known.length > 0 ? Math.min(...known) : undefined;
  }
}

/** How long the hub trusts a list with this TTL before re-listing; undefined: only on `list_changed`. */
export function relistIntervalMs(
  ttlMs: number | undefined,
  limits: Pick<Limits, 'listTtlFloorMs' | 'listTtlMaxMs'>,
): number | undefined {
  if (ttlMs === undefined || ttlMs <= 0) return undefined;
  return Math.min(Math.max(ttlMs, limits.listTtlFloorMs), limits.listTtlMaxMs);
}

/** The interval with its jitter, never past the max. */
export function withJitter(intervalMs: number, maxMs: number, random: () => number = Math.random): number {
  return Math.min(maxMs, Math.round(intervalMs * (1 + JITTER_SHARE * random())));
}

/**
 * One timer per server and list kind (so at most servers × 3 of them), replaced each time that
 * list arrives and cleared when the server goes. Timers never hold the process open.
 */
export class ListTtlTimers {
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; intervalMs: number }>();

  constructor(
    private readonly limits: Pick<Limits, 'listTtlFloorMs' | 'listTtlMaxMs'>,
    private readonly random: () => number = Math.random,
  ) {}

  /** A list of `kind` arrived from `server` with `ttlMs`: re-list by `relist` when it runs out. */
  arm(server: string, kind: ListKind, ttlMs: number | undefined, relist: () => void): void {
    const key = keyOf(server, kind);
    const previous = this.timers.get(key);
    if (previous) clearTimeout(previous.timer);
    const intervalMs = relistIntervalMs(ttlMs, this.limits);
    if (intervalMs === undefined) {
      this.timers.delete(key);
      return;
    }
    const timer = setTimeout(
      () => {
        if (this.timers.get(key)?.timer === timer) this.timers.delete(key);
        relist();
      },
      withJitter(intervalMs, this.limits.listTtlMaxMs, this.random),
    );
    timer.unref();
    this.timers.set(key, { timer, intervalMs });
  }

  /** The server went (dropped, stopped, closed): none of its lists re-lists by TTL. */
  forget(server: string): void {
    for (const [key, { timer }] of this.timers)
      if (key.startsWith(`${server}\n`)) {
        clearTimeout(timer);
        this.timers.delete(key);
      }
  }

  /** The shortest re-list interval in force for `kind`, of `servers` when named (undefined: none gave one). */
  shortestMs(kind: ListKind, servers?: ReadonlySet<string>): number | undefined {
    let shortest: number | undefined;
    for (const [key, { intervalMs }] of this.timers) {
      if (!key.endsWith(`\n${kind}`)) continue;
      if (servers && !servers.has(key.slice(0, key.length - kind.length - 1))) continue;
      shortest = shortest === undefined ? intervalMs : Math.min(shortest, intervalMs);
    }
    return shortest;
  }

  get size(): number {
    return this.timers.size;
  }

  clear(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

function keyOf(server: string, kind: ListKind): string {
  return `${server}\n${kind}`;
}
