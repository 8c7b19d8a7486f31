/**
 * G12 — the cache hints (SEP-2549) on what the gateway answers 2026-07-28 clients: every
 * `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list` and `resources/read`
 * result carries `ttlMs` (how long it stays fresh) and `cacheScope` (who may be served a cached
 * copy). 2025-era sessions get neither: their revision has no such fields.
 *
 * TTL: short while servers are still connecting (each one that arrives changes the lists), longer
 * once the catalog is settled, and never longer than the shortest re-list interval an upstream's
 * own TTL put in force (the gateway cannot promise fresher lists than it has). A client with a
 * listen stream hears every change as `list_changed` anyway; the TTL is for the others.
 */

export type CacheScope = 'public' | 'private';

export interface CacheHint {
  readonly ttlMs: number;
  readonly cacheScope: CacheScope;
}

/** The gateway's list TTLs (ms). */
export interface ListTtlOptions {
  /** While any server is still connecting (or reconnecting). */
  readonly connectingMs: number;
  /** Once every server has connected or failed. */
  readonly settledMs: number;
}

/**
 * Defaults, and why: a stdio server takes 0.25–1 s to connect and list, so while servers arrive a
 * list older than 2 s has likely missed one (and a client asking more often than that is polling).
 * Settled, the catalog changes only when a server changes its list, drops, or the config reloads:
 * a client without a listen stream sees that within a minute. The upstream re-list floor
 * (`listTtlFloorMs`, 30 s) is below it, so an upstream's short TTL reaches clients in one settled
 * TTL plus one floor at most.
 */
export const DEFAULT_LIST_TTL: ListTtlOptions = Object.freeze({ connectingMs: 2_000, settledMs: 60_000 });

/** What the gateway knows when it answers a list, beyond the list itself. */
export interface ListFreshness {
  /** Servers still connecting (or reconnecting). */
  readonly connecting: boolean;
  /** The shortest re-list interval upstream TTLs put in force for this list (undefined: none). */
  readonly upstreamTtlMs?: number | undefined;
}

export function listTtlMs(freshness: ListFreshness, options: ListTtlOptions = DEFAULT_LIST_TTL): number {
  const own = freshness.connecting ? options.connectingMs : options.settledMs;
  return freshness.upstreamTtlMs === undefined ? own : Math.min(own, freshness.upstreamTtlMs);
}

/**
 * A `resources/read` result's TTL: the upstream server's own (it knows its content), at most the
 * settled list TTL; none given (or a 2025-era server): 0, immediately stale — the gateway cannot
 * know how long content it only relays stays true.
 */
export function readTtlMs(upstream: unknown, options: ListTtlOptions = DEFAULT_LIST_TTL): number {
  return typeof upstream === 'number' && Number.isSafeInteger(upstream) && upstream >= 0
    ? Math.min(upstream, options.settledMs)
    : 0;
}

/** What a result may depend on besides the catalog every client of the gateway shares. */
export interface AnswerDependence {
  /**
   * The gateway serves profiles (`/mcp/<profile>`), or this is one: endpoints see different servers
   * and policies, so one endpoint's list is not every client's.
   */
  readonly endpointViews: boolean;
  /** The result holds what one session did (a growing tool list, its own upstream connections). */
  readonly session: boolean;
  /** The result is content an upstream server returned, which may depend on whose credentials asked. */
  readonly upstreamContent: boolean;
}

/**
 * The rule for `cacheScope`, with its reasons. The spec: `public` lets any shared cache serve the
 * result to any user; `private` keeps it to the client that asked. So `public` only for a result
 * that is the same for every client of the gateway:
 * - a profile's list differs from another profile's (servers, policy): private whenever profiles exist;
 * - a session's list holds what that session loaded: private;
 * - a resource read is an upstream's answer, possibly per user (its own OAuth, per-session
 *   connections): always private;
 * - everything else (the stateless tool list, the merged prompt and resource lists of a gateway
 *   with one endpoint) is the same for every client: public.
 */
export function cacheScopeFor(dependence: AnswerDependence): CacheScope {
  if (dependence.upstreamContent) return 'private';
  if (dependence.session) return 'private';
  if (dependence.endpointViews) return 'private';
  return 'public';
}

/** The hints a 2026-07-28 request's handlers stamp on their results (absent for 2025 sessions). */
export interface ResultCacheHints {
  /** A list result's hint; `kind`: which upstream lists it merges. */
  list(kind: 'tools' | 'resources' | 'prompts'): CacheHint;
  /** A `resources/read` result's hint, from the upstream's own `ttlMs`. */
  read(upstreamTtlMs: unknown): CacheHint;
}

/** What the gateway reads at each answer (live: servers connect, profiles come and go). */
export interface GatewayCacheFacts {
  /** Servers still connecting or reconnecting. */
  connecting(): boolean;
  /** The shortest re-list interval upstream TTLs put in force for `kind` (of this endpoint's servers). */
  upstreamTtlMs(kind: 'tools' | 'resources' | 'prompts'): number | undefined;
  endpointViews(): boolean;
  readonly ttl: ListTtlOptions;
}

/**
 * The hints of what a 2026-07-28 request is answered. It has no session (tools/stateless.ts), so
 * only the endpoint views and a read's upstream content make a result private.
 */
export function resultCacheHints(facts: GatewayCacheFacts): ResultCacheHints {
  const scope = (upstreamContent: boolean) =>
    cacheScopeFor({ endpointViews: facts.endpointViews(), session: false, upstreamContent });
  return {
    list: (kind) => ({
      ttlMs: listTtlMs({ connecting: facts.connecting(), upstreamTtlMs: facts.upstreamTtlMs(kind) }, facts.ttl),
      cacheScope: scope(false),
    }),
    read: (upstreamTtlMs) => ({ ttlMs: readTtlMs(upstreamTtlMs, facts.ttl), cacheScope: scope(true) }),
  };
}

/**
 * `result` with the hint's fields (a handler-set value is what the SDK sends). Only a complete
 * result is cacheable: an `input_required` one (an upstream's question, G8) goes as it is.
 */
export function withCacheHint<T extends object>(result: T, hint: CacheHint | undefined): T {
  const type = (result as { resultType?: unknown }).resultType;
  if (!hint || (type !== undefined && type !== 'complete')) return result;
  return { ...result, ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
}
