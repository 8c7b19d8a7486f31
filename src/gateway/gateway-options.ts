/** G3 — what a gateway is built from: its catalog, stores, upstream, searcher and the choices of its config. */
import type { Catalog } from '../core/catalog.js';
import type { SessionAssumptions } from '../core/session-cost.js';
import type { ToolListMode } from '../core/session-policy.js';
import type { Learner } from '../usage/learner.js';
import type { Logger } from '../util/log.js';
import type { UpstreamCaller } from './ports.js';
import type { NotificationBus } from './sessions/bus.js';
import type { SessionStore } from './sessions/store.js';
import type { Operations } from './status/operations.js';
import type { ListTtlOptions } from './tools/cache-hints.js';
import type { CodeModeOption } from './tools/run-code.js';
import type { GatewaySearcher } from './tools/search.js';

export interface GatewayOptions {
  catalog: Catalog;
  /** Routes calls of MCP tools. Required when the catalog holds MCP tools. */
  upstream?: UpstreamCaller;
  sessions?: SessionStore;
  /**
   * G6: how out-of-band notifications reach sessions served by other processes. Default
   * in-memory (one process); use `RedisNotificationBus` with a shared session store.
   */
  bus?: NotificationBus;
  searcher?: GatewaySearcher;
  /** B1 mode: `always` (default), `never`, `auto`, `auto:N`. */
  mode?: string;
  /** Context window for `auto:N`, in tokens. Default 200 000. */
  contextWindow?: number;
  /** C8: how long a search that finds nothing waits for servers still connecting. Default 5000 ms. */
  pendingWaitMs?: number;
  /** Offer `call_tool` for clients that never refresh their tool list. Default true. */
  callThrough?: boolean;
  /** E4: tokens for `tool_search` (with its announcement) + `call_tool`. Default 2000. */
  deferredTokenBudget?: number;
  logger?: Logger;
  /** G9: metrics, audit and traces listen here (a fresh one when absent). */
  operations?: Operations;
  /** G5: roots a multi-user gateway answers upstream `roots/list` with (never a client's). */
  operatorRoots?: (server: string) => Array<{ uri: string; name?: string }>;
  /** G5: how long an ended call still claims its server's sampling, elicitation and logs (ms). */
  attributionGraceMs?: number;
  /** G5/G8: how long a parked 2026 call still claims what its server sends (ms). */
  parkedAttributionMs?: number;
  /** G5: resource subscriptions one session may hold. */
  subscriptionsPerSession?: number;
  /** G5: characters of one `tool_search` query accepted (`searchQueryChars`; default 16,384). */
  searchQueryChars?: number;
  /** G5/C15: parts of an input schema compiled to check arguments (`argumentSchemaParts`; default 5,000). */
  argumentSchemaParts?: number;
  /**
   * G9: a profile's servers: resources, prompts and completions of others are not listed or
   * reached. Read live: a reload that changes the profile updates the set in place.
   */
  servers?: ReadonlySet<string>;
  /**
   * C13: learn from use — a search followed by a call of one of its results (or a select:) in the
   * same session teaches the default searcher. Every session's searches teach every session.
   */
  learner?: Learner;
  /** G11: offer `run_code` (scripts that search and call tools in a sandbox); `true` or limit knobs. Default off. */
  codeMode?: CodeModeOption;
  /**
   * E5: `fixed` (default) never changes the list (found tools are called through `call_tool`);
   * `growing` appends what a search is sure of. With `callThrough: false` the default is `growing`.
   */
  toolList?: ToolListMode;
  /** E5: tools a growing list holds before the least recently used are unloaded in one batch (0: never). Default 24. */
  workingSet?: number;
  /** E5: what a plain `auto` assumes about a session (searches per session, prompt caching). */
  sessionCost?: SessionAssumptions;
  /** G12: `ttlMs` on list results to 2026-07-28 clients, connecting and settled (default DEFAULT_LIST_TTL). */
  listTtl?: Partial<ListTtlOptions>;
  /**
   * G12: whether other endpoints of this process serve other views of the catalog (profiles),
   * read at each answer (a reload adds and removes profiles); then no list is `public`. Default: no.
   */
  endpointViews?: () => boolean;
}
