/**
 * H3 — what the HTTP gateway says about itself: `/healthz` (liveness) for process managers and
 * containers, `/readyz` or `/healthz?ready=1` (readiness, see readiness.ts), and the status page's data (`/status.json`): each upstream server's state (connected /
 * connecting / failed + reason / quarantined), tools, resources, prompts, reconnects and last
 * error; sessions; tokens saved per request; and a live search with its explanation
 * (`/status/search?q=`). The page itself (`/status`) is static HTML with no data in it, so a
 * browser can open it; everything with data needs the same bearer token as `/mcp`, and every
 * path passes the same Origin and Host checks (`http.ts` calls these routes after them).
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FailedServer } from '../../core/catalog.js';
import type { ConfigStatus } from '../../mcp/config-reloader.js';
import type { ServerState, ServerStatus } from '../../mcp/server-state.js';
import { formatExplanation, ToolSearcher, type SuggestedServer } from '../../search/index.js';
import type { ToolsearchGateway } from '../gateway.js';
import type { ExtraRoutes } from '../transports/http/server.js';
import { METRICS_PATH, type GatewayMetrics } from './metrics.js';
import type { GatewayActivity, RecentSearch, ServerCalls } from './activity.js';
import { readiness } from './readiness.js';
import { statusPageHtml } from './page.js';
import { summarizeGateway, type CatalogSummary } from './summary.js';
import { type HeldToolView, HeldViews } from '../../trust/held-view.js';
import type { PinsDocument } from '../../trust/pins.js';

export const HEALTH_PATH = '/healthz';
/** Readiness (also `/healthz?ready=1`): 503 while a server connects for the first time, failed or is quarantined. */
export const READY_PATH = '/readyz';
export const STATUS_PATH = '/status';
export const STATUS_JSON_PATH = '/status.json';
export const STATUS_SEARCH_PATH = '/status/search';

export interface StatusSource {
  readonly gateway: ToolsearchGateway;
  /** The upstream servers' states (`McpHub.status()`). */
  servers(): readonly ServerStatus[];
  /** Open MCP sessions on this process. */
  sessions(): number;
  /** Epoch ms the gateway started. Default: when the routes were made. */
  readonly startedAt?: number;
  /** G9: serve `/metrics` (with the token, as the status data); its running tokens-saved total. */
  readonly metrics?: GatewayMetrics;
  /** G7: the config file and its last reload (absent: no file, e.g. the bundled servers). */
  config?(): ConfigStatus | undefined;
  /** G9: recent searches and per-server call latency for the page. */
  readonly activity?: GatewayActivity;
  /** G9: the profiles served (`/mcp/<name>`) and their servers. */
  profiles?(): readonly StatusProfile[];
  /** G10: the trust gate's pins, for the tools held until an operator approves them (absent: trust is off). */
  pins?(): PinsDocument;
  /**
   * G3: profiles with a token of their own. The status data is read with the gateway's token,
   * which cannot use those endpoints, so their searches are listed without the query text.
   */
  privateProfiles?(): readonly string[];
}

export interface StatusProfile {
  readonly name: string;
  readonly path: string;
  readonly servers: readonly string[];
  readonly tools: number;
  readonly sessions: number;
}

export interface StatusSnapshot {
  readonly version: string;
  readonly uptimeSeconds: number;
  readonly servers: readonly ServerStatus[];
  readonly states: Readonly<Record<ServerState, number>>;
  readonly sessions: number;
  readonly tools: { readonly total: number; readonly deferred: number };
  /** Tool-definition tokens of one request: everything eager vs through the gateway. */
  readonly tokens: {
    readonly eager: number;
    readonly deferred: number;
    readonly savedPerRequest: number;
    /** G9: saved since start, over every tools/list answered (needs metrics). */
    readonly savedTotal?: number;
    readonly counted: string;
  };
  /** G9: recent searches, misses first. */
  readonly searches?: readonly RecentSearch[];
  /** G9: calls per server with p50/p99 latency. */
  readonly calls?: readonly ServerCalls[];
  readonly profiles?: readonly StatusProfile[];
  /** G10: the first HELD_SHOWN held tools (their diffs bounded); `heldTotal` counts them all. */
  readonly held?: readonly HeldToolView[];
  readonly heldTotal?: number;
  readonly pendingServers: readonly string[];
  readonly failedServers: readonly FailedServer[];
  /** G7: the config file and how its last reload went (a refused file says why). */
  readonly config?: ConfigStatus;
}

export interface StatusSearchHit {
  readonly rank: number;
  readonly name: string;
  readonly server?: string;
  readonly description: string;
  /** C11: why it ranks here (terms and fields, expansions, server and clause evidence). */
  readonly explanation: readonly string[];
}

export interface StatusSearchAnswer {
  readonly query: string;
  readonly kind: string;
  readonly totalDeferred: number;
  readonly lowConfidence: boolean;
  readonly hits: readonly StatusSearchHit[];
  readonly suggestedServers: readonly SuggestedServer[];
  readonly pendingServers: readonly string[];
  readonly failedServers: readonly FailedServer[];
}

const COUNTED = 'exact o200k_base count (OpenAI GPT-4o/4.1/5); an estimate for Claude';
const SEARCH_RESULTS = 10;
const QUERY_CHARS = 500;
/** G5: held tools in one status answer (the page polls every 3 s; `toolsearch tools --held` lists them all). */
export const HELD_SHOWN = 20;

export function countStates(servers: readonly ServerStatus[]): Record<ServerState, number> {
  const states: Record<ServerState, number> = {
    connected: 0,
    connecting: 0,
    installing: 0,
    failed: 0,
    quarantined: 0,
    'needs-sign-in': 0,
    closed: 0,
  };
  for (const s of servers) states[s.state]++;
  return states;
}

/**
 * The status page's data. Token figures are memoized by catalog version: a page polling every few
 * seconds must not re-tokenize a 10,000-tool catalog each time.
 */
export function statusReporter(source: StatusSource, version: string): () => Promise<StatusSnapshot> {
  const startedAt = source.startedAt ?? Date.now();
  let memo: { version: number; summary: CatalogSummary } | undefined;
  const held = new HeldViews();
  return async () => {
    const catalog = source.gateway.catalog;
    if (memo?.version !== catalog.version)
      memo = { version: catalog.version, summary: await summarizeGateway(source.gateway) };
    const { summary } = memo;
    const servers = source.servers();
    const config = source.config?.();
    return {
      version,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      servers,
      states: countStates(servers),
      sessions: source.sessions(),
      tools: { total: summary.tools, deferred: summary.deferredTools },
      tokens: {
        eager: summary.eagerTokens,
        deferred: summary.deferredTokens,
        savedPerRequest: summary.eagerTokens - summary.deferredTokens,
        ...(source.metrics && { savedTotal: source.metrics.tokensSaved }),
        counted: COUNTED,
      },
      ...(source.activity && {
        searches: visibleSearches(source.activity.recentSearches(), source.privateProfiles?.() ?? []),
        calls: source.activity.serverCalls(),
      }),
      ...(source.profiles && { profiles: source.profiles() }),
      ...heldPart(source, held),
      pendingServers: catalog.pendingServers,
      failedServers: catalog.failedServers,
      ...(config && { config }),
    };
  };
}

/** G10/G5: each held version's view is made once (`HeldViews`) and a poll lists at most HELD_SHOWN. */
function heldPart(source: StatusSource, views: HeldViews): { held?: readonly HeldToolView[]; heldTotal?: number } {
  if (!source.pins) return {};
  const { views: held, total } = views.list(source.pins(), HELD_SHOWN);
  return { held, heldTotal: total };
}

/**
 * G3: a session never sees another's query, and the status data is read with the gateway's token:
 * a search made through a profile with its own token keeps its matches (which tools get found
 * is the operator's business) but not its text (a user's words, names, numbers).
 */
export function visibleSearches(searches: readonly RecentSearch[], privateProfiles: readonly string[]): RecentSearch[] {
  if (privateProfiles.length === 0) return [...searches];
  return searches.map((s) =>
    s.profile !== undefined && privateProfiles.includes(s.profile)
      ? { ...s, query: `(hidden: made through profile "${s.profile}", which has its own token)` }
      : s,
  );
}

/**
 * The live search as the status page shows it: the deferred pool the model searches, ranked with
 * explanations. It loads nothing into any session.
 */
export function statusSearcher(gateway: ToolsearchGateway): (query: string) => Promise<StatusSearchAnswer> {
  const searcher = new ToolSearcher();
  return async (query) => {
    const catalog = gateway.catalog;
    const pool = {
      tools: catalog.tools,
      deferred: gateway.deferred(),
      pendingServers: catalog.pendingServers,
      failedServers: catalog.failedServers,
      servers: catalog.serverInfo,
    };
    const result = searcher.search(pool, query, { maxResults: SEARCH_RESULTS, explain: true });
    const hits = result.matches.map((name, i): StatusSearchHit => {
      const tool = catalog.get(name);
      const explanation = result.explanations?.[i];
      return {
        rank: i + 1,
        name,
        ...(tool?.origin.kind === 'mcp' && { server: tool.origin.server }),
        description: (tool?.description ?? '').slice(0, 300),
        explanation: explanation ? formatExplanation(explanation) : [],
      };
    });
    return {
      query: result.query,
      kind: result.kind,
      totalDeferred: result.totalDeferred,
      lowConfidence: result.lowConfidence === true,
      hits,
      suggestedServers: result.suggestedServers ?? [],
      pendingServers: result.pendingServers,
      failedServers: result.failedServers ?? [],
    };
  };
}

/** The routes `startHttpGateway({ routes })` serves besides `/mcp`. */
export function statusRoutes(source: StatusSource, version: string): ExtraRoutes {
  const snapshot = statusReporter(source, version);
  const search = statusSearcher(source.gateway);
  return async (req, res, url, authorized) => {
    const known = [HEALTH_PATH, READY_PATH, STATUS_PATH, `${STATUS_PATH}/`, STATUS_JSON_PATH, STATUS_SEARCH_PATH];
    if (!known.includes(url.pathname) && !(source.metrics && url.pathname === METRICS_PATH)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendJson(res, 405, { error: 'use GET' });
      return true;
    }
    if (url.pathname === READY_PATH || (url.pathname === HEALTH_PATH && url.searchParams.has('ready'))) {
      // For balancers and orchestrators: every server usable. Names only with the token.
      const servers = source.servers();
      const { ready, waitingFor } = readiness(servers);
      sendJson(res, ready ? 200 : 503, {
        status: ready ? 'ready' : 'not ready',
        servers: countStates(servers),
        ...(authorized && !ready && { waitingFor }),
      });
      return true;
    }
    if (url.pathname === HEALTH_PATH) {
      // For process managers: alive and serving. No server names or errors without the token.
      sendJson(res, 200, { status: 'ok', servers: countStates(source.servers()) });
      return true;
    }
    if (url.pathname === `${STATUS_PATH}/`) {
      // The page fetches `status.json` relative to itself; from `/status/` that would be
      // `/status/status.json`. A relative redirect keeps any path prefix a proxy adds.
      res.writeHead(308, { Location: '../status' });
      res.end();
      return true;
    }
    if (url.pathname === STATUS_PATH) {
      sendPage(res);
      return true;
    }
    if (!authorized) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      sendJson(res, 401, { error: 'Missing or invalid bearer token (the same token as /mcp).' });
      return true;
    }
    if (url.pathname === STATUS_JSON_PATH) {
      sendJson(res, 200, await snapshot());
      return true;
    }
    if (url.pathname === METRICS_PATH && source.metrics) {
      await sendMetrics(res, source.metrics);
      return true;
    }
    const query = (url.searchParams.get('q') ?? '').slice(0, QUERY_CHARS);
    if (query.trim() === '') {
      sendJson(res, 400, { error: 'give a query: /status/search?q=…' });
      return true;
    }
    sendJson(res, 200, await search(query));
    return true;
  };
}

function sendPage(res: ServerResponse): void {
  // The page's one inline script runs by nonce; nothing else may load or run (the data it shows
  // is third-party text: server names, error lines, tool descriptions).
  const nonce = randomBytes(16).toString('base64');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  res.end(statusPageHtml(nonce));
}

/** G9: the Prometheus text exposition (also served alone by `serve --metrics HOST:PORT`). */
export async function sendMetrics(res: ServerResponse, metrics: GatewayMetrics): Promise<void> {
  const body = await metrics.render();
  res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .end(JSON.stringify(body));
}
