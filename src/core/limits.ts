/**
 * G5 — every input from servers and clients is bounded by a named limit. This is the one place
 * that names them, with their defaults. Config (`toolSearch.limits`) and `serve` flags override
 * single fields; `resolveLimits` checks them.
 *
 * Kept in core (pure data) because the search index (src/search) reads one of them and must not
 * depend on the MCP layer.
 */
import { ToolsearchError } from './errors.js';

export interface Limits {
  /** Characters of one upstream tool description kept (the rest is cut, marked and logged). */
  readonly descriptionChars: number;
  /** Characters of one text field (description, hint, parameter description) the search index reads. */
  readonly indexedCharsPerField: number;
  /** Tools accepted from one server's `tools/list` (the list is cut there, with a warning). */
  readonly toolsPerServer: number;
  /** Pages read from one paginated upstream list (the list is cut there, with a warning). */
  readonly pagesPerList: number;
  /** Time allowed for one whole upstream list (every page) on a refresh; past it the refresh fails and the previous list stays. */
  readonly refreshTimeoutMs: number;
  /** Characters of one upstream stderr line written to the log (the rest is cut and marked). */
  readonly stderrLineChars: number;
  /** Bytes of upstream stderr held while waiting for a newline; past it the partial line is logged cut and the rest of that line dropped. */
  readonly stderrBufferBytes: number;
  /** Bytes of one JSON-RPC message line from a stdio server (the SDK's read buffer); past it the connection is closed and retried. */
  readonly upstreamMessageBytes: number;
  /** Bytes of one HTTP request body to the gateway; past it the request gets 413. */
  readonly requestBodyBytes: number;
  /** Open MCP sessions on one HTTP gateway; a full gateway answers 503 with Retry-After. */
  readonly sessions: number;
  /** Close HTTP sessions idle this long (0: never). */
  readonly idleSessionTimeoutMs: number;
  /** How long an ended or cancelled call still claims the sampling, elicitation and logs its server sends (ms; 0: none). */
  readonly attributionGraceMs: number;
  /** How long a 2026-07-28 call parked on `input_required` still claims what its server sends (ms; 0: none); then, until its retry, nothing. */
  readonly parkedAttributionMs: number;
  /** Total time of one upstream call that keeps reporting progress (progress restarts the per-call timeout, never this). */
  readonly callTotalTimeoutMs: number;
  /** Minimum time between two starts of one server's list refresh (list_changed bursts coalesce). */
  readonly refreshMinGapMs: number;
  /** How long the gateway works on one server's tool listing (pinning, admission, the catalog update) before other requests get a turn (ms). */
  readonly listingSliceMs: number;
  /** A 2026-07-28 server's `ttlMs` shorter than this re-lists no sooner (0 or no `ttlMs`: re-listed only on `list_changed`). */
  readonly listTtlFloorMs: number;
  /** A `ttlMs` longer than this re-lists after this instead (a hostile 1e15 cannot overflow a timer or pin a list for ever). */
  readonly listTtlMaxMs: number;
  /** Resource subscriptions one session may hold; past it `resources/subscribe` is refused. */
  readonly subscriptionsPerSession: number;
  /** Characters of a resource URI a client may read, subscribe to or complete; longer ones are refused before routing. */
  readonly resourceUriChars: number;
  // Per-session HTTP bounds (issue 21): stream queues and the initialize rate.
  /** Bytes one session's SSE stream may hold that its client has not read; past it that stream is closed (0: no cap). */
  readonly streamQueuedBytes: number;
  /** Sustained `initialize` requests per minute from one client address; past it (and the burst) `429` with Retry-After (0: no limit). */
  readonly initializePerMinute: number;
  /** `initialize` requests one client address may send at once before `initializePerMinute` paces it. */
  readonly initializeBurst: number;
  /** Per-session upstream connections one `"isolation": "session"` server may hold; past it the session's request fails naming this limit. */
  readonly sessionConnectionsPerServer: number;
  /** Of those, how many the sessions of one client address may hold (its share); past it that client's next session is refused. */
  readonly sessionConnectionsPerClient: number;
  /** Close a per-session upstream connection unused this long (ms; 0: only when its session closes). */
  readonly sessionConnectionIdleMs: number;
  /** Characters of one `tool_search` query the gateway accepts; past it the call gets an error naming this limit. */
  readonly searchQueryChars: number;
  /** Bytes of one answer from an authorization server (discovery, registration, token, refresh); past it that request fails naming this limit. */
  readonly oauthResponseBytes: number;
  /** Time for one request to an authorization server, answer included; past it the request (and a refresh waiting on it) fails naming this limit. */
  readonly oauthTimeoutMs: number;
  /** Parts (objects and lists) of a tool's input schema compiled to check a call's arguments; a bigger schema is not checked, and the call's result says so naming this limit. */
  readonly argumentSchemaParts: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  descriptionChars: 16_384,
  indexedCharsPerField: 8_192,
  toolsPerServer: 20_000,
  pagesPerList: 1_000,
  refreshTimeoutMs: 30_000,
  stderrLineChars: 2_000,
  stderrBufferBytes: 64 * 1024,
  upstreamMessageBytes: 10 * 1024 * 1024,
  requestBodyBytes: 4 * 1024 * 1024,
  sessions: 1_000,
  idleSessionTimeoutMs: 30 * 60 * 1000,
  attributionGraceMs: 30_000,
  // Long enough for a second question sent with a parked call's first; short beside a person answering it.
  parkedAttributionMs: 1_000,
  resourceUriChars: 16_384,
  callTotalTimeoutMs: 60 * 60 * 1000,
  subscriptionsPerSession: 1_000,
  refreshMinGapMs: 1_000,
  // A request that arrives while a 20,000-tool listing is applied waits about this long, not for all of it.
  listingSliceMs: 10,
  // G12: a server's own TTL re-lists it; never more than twice a minute, at least once a day.
  listTtlFloorMs: 30_000,
  listTtlMaxMs: 24 * 60 * 60 * 1000,
  // Per-session HTTP bounds (issue 21): stream queues and the initialize rate.
  streamQueuedBytes: 8 * 1024 * 1024,
  initializePerMinute: 600,
  initializeBurst: 300,
  // Per-session upstream connections (issue 21, `"isolation": "session"`).
  sessionConnectionsPerServer: 50,
  // A fifth of the server's places: one client cannot take them all (issue 32).
  sessionConnectionsPerClient: 10,
  sessionConnectionIdleMs: 10 * 60 * 1000,
  // Search reads the first 8,192 characters; twice that leaves room for a pasted task.
  searchQueryChars: 16_384,
  // Token answers are a few KB; metadata documents a few tens of KB.
  oauthResponseBytes: 1024 * 1024,
  oauthTimeoutMs: 30_000,
  // The largest of 10,768 real tool schemas (Smithery, LiveMCPBench, 13 npm servers) has 2,342 parts.
  argumentSchemaParts: 5_000,
});

export type LimitName = keyof Limits;

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as readonly LimitName[];

/** Limits that may be 0 (meaning "off"); all others must be at least 1. */
const ZERO_MEANS_OFF: ReadonlySet<LimitName> = new Set([
  'idleSessionTimeoutMs',
  'attributionGraceMs',
  'parkedAttributionMs',
  'refreshMinGapMs',
  // Per-session HTTP bounds (issue 21).
  'streamQueuedBytes',
  'initializePerMinute',
  // Per-session upstream connections (issue 21).
  'sessionConnectionIdleMs',
]);

/** A limit set to something that is not a usable number. */
export class InvalidLimitError extends ToolsearchError {
  override name = 'InvalidLimitError';
  readonly reason: string;
  constructor(
    readonly limit: string,
    readonly value: unknown,
    readonly source: string,
  ) {
    const reason = isLimitName(limit)
      ? `expected an integer >= ${ZERO_MEANS_OFF.has(limit) ? 0 : 1} (got ${JSON.stringify(value)})`
      : `unknown limit; known: ${LIMIT_NAMES.join(', ')}`;
    super(`Invalid limit "${limit}" in ${source}: ${reason}.`);
    this.reason = reason;
  }
}

export function isLimitName(name: string): name is LimitName {
  return (LIMIT_NAMES as readonly string[]).includes(name);
}

/**
 * Defaults, then each override layer in order (config, then CLI). Throws InvalidLimitError
 * naming the limit and where it came from.
 */
export function resolveLimits(
  ...layers: ReadonlyArray<{ values: Partial<Record<string, unknown>> | undefined; source: string }>
): Limits {
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const { values, source } of layers) {
    for (const [name, value] of Object.entries(values ?? {})) {
      if (value === undefined) continue;
      if (!isLimitName(name)) throw new InvalidLimitError(name, value, source);
      const min = ZERO_MEANS_OFF.has(name) ? 0 : 1;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
        throw new InvalidLimitError(name, value, source);
      out[name] = value;
    }
  }
  return Object.freeze(out) as unknown as Limits;
}

/** Cut `text` to `max` characters, saying how much was cut (never splits a surrogate pair). */
export function cutText(
  text: string,
  max: number,
  marker = (cut: number) => ` … [${cut} more characters cut by toolsearch]`,
): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + marker(text.length - end);
}
