/**
 * G3 — the gateway: one MCP server per client session, all over one shared catalog.
 *
 * Per session, `tools/list` is: always-loaded tools + `tool_search` + `call_tool` + the deferred
 * tools this session has discovered (D3). A search loads what it finds into the session and sends
 * `notifications/tools/list_changed`; its result also carries each loaded tool's description and
 * schema so a client that never refreshes can still run it through `call_tool`. Catalog changes
 * (upstream list_changed, a server dying or returning) reach every session as list_changed.
 *
 * The low-level SDK `Server` (not McpServer): tools go out with the raw JSON Schemas servers sent.
 */
import { Server, type Tool, type Transport } from '@modelcontextprotocol/server';
import type { Catalog } from '../core/catalog.js';
import { hasAppUi } from '../core/visibility.js';
import type { ToolDefinitionLike, ToolSpec } from '../core/tool.js';
import { SEARCH_TOOL_NAME } from '../core/search-tool.js';
import { DEFAULT_CONTEXT_WINDOW } from '../core/threshold.js';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { isUpstreamProxy, type UpstreamCaller } from './ports.js';
import { errorMessage } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { type OwnTool, ToolCalls } from './tools/calls.js';
import { type CodeMode, createCodeMode, RUN_CODE_TOOL_NAME } from './tools/run-code.js';
import { CALL_TOOL_NAME, callToolDefinition, gatewayInstructions } from './tools/definitions.js';
import { AnnouncedSearchTool } from './tools/announcement.js';
import { deferredNames, parseGatewayMode, type GatewayMode } from './tools/deferral.js';
import { VisibleTools } from './tools/visible.js';
import { defaultGatewaySearcher, type GatewaySearcher } from './tools/search.js';
import { DEFAULT_PENDING_WAIT_MS, firstConnectTracker } from './tools/pending-wait.js';
import { InMemorySessionStore, type SessionStore } from './sessions/store.js';
import { SessionGoneError } from './errors.js';
import { gatewayToolList } from './tools/tool-list.js';
import { DEFAULT_WORKING_SET, type ToolListMode } from '../core/session-policy.js';
import type { SessionAssumptions } from '../core/session-cost.js';
import { InMemoryNotificationBus, type BusEvent, type BusNotification, type NotificationBus } from './sessions/bus.js';
import { COALESCED_NOTIFICATIONS } from './proxy/notifications.js';
import { GATEWAY_CAPABILITIES, GatewayProxy } from './proxy/proxy.js';
import { VERSION } from '../util/version.js';
import { Operations } from './status/operations.js';
import type { Learner } from '../usage/learner.js';
import type { UsageSignal } from '../usage/signal.js';
import { learningSignal } from '../usage/usage.js';
import { ParkedCalls } from './proxy/input-required.js';
import { ParkedRelay } from './proxy/parked-relay.js';
import { ListenStreams } from './sessions/listen.js';
import type { ClientIdentity } from './sessions/identity.js';
import { GatewayClients } from './sessions/clients.js';
import type { GatewayOptions } from './gateway-options.js';
import { DEFAULT_LIST_TTL, type ResultCacheHints, resultCacheHints, withCacheHint } from './tools/cache-hints.js';

export type { GatewayOptions } from './gateway-options.js';

/** Catalog changes closer together than this reach clients as one list_changed. */
const BROADCAST_DEBOUNCE_MS = 50;

export const GATEWAY_SERVER_INFO = { name: 'toolsearch', version: VERSION } as const;

export class ToolsearchGateway {
  readonly catalog: Catalog;
  readonly sessions: SessionStore;
  readonly bus: NotificationBus;
  /** G4: resources, prompts, completions, logging and server → client requests (proxy.ts). */
  readonly proxy: GatewayProxy;
  /** G9: requests, calls, searches and sessions as events; others emit sign-ins and reloads here. */
  readonly operations: Operations;
  /** C13: what searches learned from use (absent when learning is off). */
  readonly learner: Learner | undefined;
  private readonly usage: UsageSignal | undefined;
  /** G8: change notifications for 2026-07-28 clients' `subscriptions/listen` streams. */
  readonly listeners = new ListenStreams();
  /** G8: 2026 tool calls waiting for the client's answer to an upstream's question (MRTR). */
  private readonly parked = new ParkedCalls();
  private readonly relay: ParkedRelay | undefined;
  private readonly upstream: UpstreamCaller | undefined;
  private readonly searcher: GatewaySearcher;
  /** tools/call: the search tool, call-through, and routing to local or upstream tools (tools/calls.ts). */
  private readonly calls: ToolCalls;
  /** G11: `run_code`, when code mode is on (tools/run-code.ts). */
  private readonly codeMode: CodeMode | undefined;
  private readonly mode: GatewayMode;
  private readonly contextWindow: number;
  private readonly sessionCost: SessionAssumptions | undefined;
  private readonly callThrough: boolean;
  private readonly deferredTokenBudget: number | undefined;
  private readonly pendingWaitMs: number;
  readonly toolList: ToolListMode;
  /** Servers pending on their first connect: a search waits for them (bounded) even when it found something. */
  private readonly firstConnect: ReturnType<typeof firstConnectTracker>;
  private readonly logger: Logger;
  /** Live sessions, to broadcast list_changed. */
  private readonly live = new Map<string, Server>();
  /** C15/G11: who each session's client is; transports tell it (`identify`, `learnFrom`). */
  readonly clients: GatewayClients;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeBus: () => void;
  private broadcastQueued = false;
  /** Set by close(): sessions closed by our own shutdown stay in the (maybe shared) store. */
  private shuttingDown = false;
  private deferredCache: { version: number; names: Set<string> } | undefined;
  private readonly visibleTools: VisibleTools;
  /** `tool_search` with its announcement, per catalog version and recent servers (E4, tools/announcement.ts). */
  private readonly searchTool: AnnouncedSearchTool;
  /** G12: the cache hints a 2026-07-28 request's results carry (tools/cache-hints.ts). */
  private readonly cacheHints: ResultCacheHints;

  constructor(options: GatewayOptions) {
    this.catalog = options.catalog;
    this.upstream = options.upstream;
    this.sessions = options.sessions ?? new InMemorySessionStore();
    this.learner = options.learner;
    this.clients = new GatewayClients(this.learner);
    const learner = this.learner;
    this.searcher = options.searcher ?? defaultGatewaySearcher(undefined, learner?.ranking);
    this.usage = learner && learningSignal(learner, this.catalog, options.logger ?? silentLogger);
    this.mode = parseGatewayMode(options.mode);
    this.contextWindow = options.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    this.sessionCost = options.sessionCost;
    this.callThrough = options.callThrough ?? true;
    this.toolList = gatewayToolList(options.toolList, this.callThrough);
    this.deferredTokenBudget = options.deferredTokenBudget;
    const upstream = options.upstream;
    this.cacheHints = resultCacheHints({
      connecting: () => this.catalog.pendingServers.length > 0,
      upstreamTtlMs: (kind) => (isUpstreamProxy(upstream) ? upstream.listTtlMs?.(kind, options.servers) : undefined),
      endpointViews: options.endpointViews ?? (() => false),
      ttl: { ...DEFAULT_LIST_TTL, ...options.listTtl },
    });
    this.visibleTools = new VisibleTools(this.catalog);
    this.searchTool = new AnnouncedSearchTool(
      this.catalog,
      () => ({
        callThrough: this.callThrough,
        ...(this.deferredTokenBudget !== undefined && { tokenBudget: this.deferredTokenBudget }),
      }),
      learner && (() => learner.summary()),
    );
    this.pendingWaitMs = options.pendingWaitMs ?? DEFAULT_PENDING_WAIT_MS;
    this.firstConnect = firstConnectTracker(this.catalog);
    this.logger = options.logger ?? silentLogger;
    this.bus = options.bus ?? new InMemoryNotificationBus();
    this.operations = options.operations ?? new Operations();
    // G5: span names carry the gateway's own tools and catalog names only (never a client's text).
    this.operations.knownTool = (name) =>
      name === SEARCH_TOOL_NAME || name === CALL_TOOL_NAME || name === RUN_CODE_TOOL_NAME || this.catalog.has(name);
    this.unsubscribeBus = this.bus.subscribe((event) => this.onBusEvent(event));
    // G6/G8: replicas sharing a bus continue each other's parked calls for retries that land astray.
    this.relay = options.bus && new ParkedRelay(this.bus, this.parked, this.logger);
    this.proxy = new GatewayProxy({
      upstream: options.upstream,
      send: (sessionId, notification) => this.notifySession(sessionId, notification),
      sendAll: (notification) => this.notifyAllSessions(notification),
      sessionServer: (sessionId) => this.live.get(sessionId),
      liveSessions: () => [...this.live.keys()],
      logger: this.logger,
      ...(options.operatorRoots !== undefined && { operatorRoots: options.operatorRoots }),
      ...(options.attributionGraceMs !== undefined && { attributionGraceMs: options.attributionGraceMs }),
      ...(options.parkedAttributionMs !== undefined && { parkedAttributionMs: options.parkedAttributionMs }),
      ...(options.subscriptionsPerSession !== undefined && {
        subscriptionsPerSession: options.subscriptionsPerSession,
      }),
      ...(options.servers !== undefined && { servers: options.servers }),
    });
    const ownTools = new Map<string, OwnTool>();
    this.calls = new ToolCalls({
      catalog: this.catalog,
      sessions: this.sessions,
      searcher: this.searcher,
      upstream: this.upstream,
      router: this.proxy.router,
      callThrough: this.callThrough,
      pendingWaitMs: this.pendingWaitMs,
      maxQueryChars: options.searchQueryChars ?? DEFAULT_LIMITS.searchQueryChars,
      maxSchemaParts: options.argumentSchemaParts ?? DEFAULT_LIMITS.argumentSchemaParts,
      firstConnectPending: () => this.firstConnect.pending(),
      deferred: () => this.deferred(),
      discovered: (sessionId) => this.discovered(sessionId),
      operations: this.operations,
      ...(this.usage && { usage: this.usage }),
      teacher: (sessionId) => this.clients.teacherOf(sessionId),
      ownTools,
      toolList: this.toolList,
      workingSetCap: options.workingSet ?? DEFAULT_WORKING_SET,
      logger: this.logger,
    });
    this.codeMode = createCodeMode(options.codeMode, this.calls, this.catalog, (sessionId) =>
      this.clients.shareOf(sessionId),
    );
    if (this.codeMode) ownTools.set(RUN_CODE_TOOL_NAME, this.codeMode.handle);
    this.unsubscribe = this.catalog.onChange((delta) => {
      this.learner?.checkSchemas(toolsNamed(this.catalog, [...delta.added, ...(delta.changed ?? [])]));
      if (delta.added.length > 0 || delta.removed.length > 0 || (delta.changed?.length ?? 0) > 0) this.queueBroadcast();
    });
  }

  /** A new MCP server for one client session. Call `connect` with its transport. */
  createServer(sessionId: string): Server {
    const server = new Server(GATEWAY_SERVER_INFO, {
      capabilities: GATEWAY_CAPABILITIES,
      instructions: gatewayInstructions(this.toolList, this.codeMode !== undefined),
      debouncedNotificationMethods: [...COALESCED_NOTIFICATIONS],
    });
    server.setRequestHandler('tools/list', async () => ({ tools: await this.listTools(sessionId) }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      const { result, listChanged } = await this.calls.handle(sessionId, request.params.name, args, ctx);
      // Sent on the request's own stream, before the result: reliable on stdio and HTTP alike.
      if (listChanged) await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' }).catch(() => undefined);
      return result;
    });
    this.proxy.attach(server, sessionId);
    return server;
  }

  /** G11: code mode's scripts running and waiting now (undefined: code mode is off). */
  get codeRuns(): { readonly running: number; readonly waiting: number; readonly heldBytes: number } | undefined {
    return this.codeMode?.load();
  }

  /**
   * G8: a server for 2026-07-28 requests, which carry no session: the HTTP entry makes one per
   * request, stdio one per connection. Deferral without a session is tools/stateless.ts; an
   * upstream's question during a tool call, a resource read or a prompt get goes back as
   * `input_required` (proxy/input-required.ts).
   * `identity` is who sent the request (sessions/identity.ts): its searches pair with its calls to
   * teach (C13), as that identity (C15), and its code runs count against its share (G11).
   */
  createStatelessServer(identity: ClientIdentity): Server {
    const server = new Server(GATEWAY_SERVER_INFO, {
      capabilities: GATEWAY_CAPABILITIES,
      instructions: gatewayInstructions(this.toolList, this.codeMode !== undefined),
    });
    const id = this.clients.statelessId(identity);
    const hints = this.cacheHints;
    server.setRequestHandler('tools/list', async () =>
      withCacheHint({ tools: await this.listTools() }, hints.list('tools')),
    );
    server.setRequestHandler('tools/call', (request, ctx) => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      return this.parked.serve(
        ctx,
        async (channel) => (await this.calls.handle(id, request.params.name, args, ctx, channel)).result,
      );
    });
    // resources/read and prompts/get park too: an upstream's question there becomes input_required.
    this.proxy.attach(server, id, (ctx, run) => this.parked.serve(ctx, run), hints);
    return server;
  }

  /**
   * G8: a listen stream asked for updates of these resource URIs: subscribe upstream (as a session
   * would) until the returned release is called (the stream closed).
   */
  async listenToResources(uris: readonly string[]): Promise<() => void> {
    const holder = this.listeners.hold();
    // G5: each URI once; the subscription cap refuses the rest before anything goes upstream.
    await Promise.all(
      [...new Set(uris)].map(async (uri) => {
        const route = this.proxy.features?.routeUri(uri);
        if (route) await this.proxy.subscriptions.subscribe(holder, uri, route).catch(() => undefined);
      }),
    );
    return () => {
      this.proxy.subscriptions.release(holder);
      this.listeners.release(holder);
    };
  }

  /**
   * Serve one session over `transport`; the session ends when the transport closes.
   * `openInStore: false` leaves recording the session in the store to the caller: the HTTP gateway
   * does it once the SDK accepts the handshake (so a refused initialize leaves no entry), and never
   * for a session resumed from a shared store (already there; writing it again would bring it
   * back empty if the store lost it in between, e.g. Redis restarted empty).
   */
  async connect(transport: Transport, sessionId: string, options: { openInStore?: boolean } = {}): Promise<Server> {
    const server = this.openSession(sessionId);
    if (options.openInStore !== false) await this.sessions.open?.(sessionId);
    await server.connect(transport);
    this.operations.watch(transport, sessionId);
    this.logger.debug(`session ${sessionId} opened`);
    return server;
  }

  /**
   * A session's server, live (broadcasts reach it) until it closes; the caller connects it (the
   * stdio entry lets the SDK do that once the client chose the 2025 era).
   */
  openSession(sessionId: string): Server {
    const server = this.createServer(sessionId);
    this.live.set(sessionId, server);
    server.onclose = () => {
      this.live.delete(sessionId);
      this.proxy.detach(sessionId);
      this.operations.closed(sessionId);
      this.usage?.ended(sessionId);
      this.calls.ended(sessionId);
      this.clients.ended(sessionId);
      // A shutdown (or a dropped shared session) keeps it: another process sharing the store may go on.
      if (!this.shuttingDown && !this.sessions.shared)
        this.sessions
          .delete(sessionId)
          .catch((error: unknown) =>
            this.logger.warn(`session ${sessionId}: not removed from the store: ${errorMessage(error)}`),
          );
      this.logger.debug(`session ${sessionId} closed`);
    };
    return server;
  }

  /**
   * The client ended the session (HTTP DELETE), or it is gone from the store: forget it in the
   * store (a shared store keeps a tombstone) and close it on every process that has it open.
   */
  async endSession(sessionId: string): Promise<void> {
    try {
      await this.sessions.delete(sessionId);
    } finally {
      this.bus.publish({ type: 'ended', sessionId });
    }
  }

  /**
   * Send a notification to one session's client out of band (not in answer to a request), on
   * whichever process holds its stream.
   */
  notifySession(sessionId: string, notification: BusNotification): void {
    this.bus.publish({ type: 'notify', sessionId, notification });
  }

  /**
   * Send a notification to every session's client, on every process sharing the bus (an upstream
   * change seen by this process's hub concerns sessions whose streams are elsewhere too).
   */
  notifyAllSessions(notification: BusNotification): void {
    this.bus.publish({ type: 'notify-all', notification });
  }

  /** Names deferred in the current pool (memoized by catalog version). */
  deferred(): ReadonlySet<string> {
    const version = this.catalog.version;
    if (this.deferredCache?.version !== version) {
      const session = {
        toolList: this.toolList,
        ...(this.codeMode && { ownTools: [this.codeMode.definition as ToolDefinitionLike] }),
        ...(this.sessionCost && { assumptions: this.sessionCost }),
        budget: {
          callThrough: this.callThrough,
          ...(this.deferredTokenBudget && { tokenBudget: this.deferredTokenBudget }),
        },
      };
      this.deferredCache = { version, names: deferredNames(this.catalog, this.mode, this.contextWindow, session) };
    }
    return this.deferredCache.names;
  }

  /**
   * D3: what this session's model sees. Discovered tools no longer in the pool drop out. Without a
   * session: what a new session sees (no store access, so it works while a shared store is down).
   */
  async listTools(sessionId?: string): Promise<Tool[]> {
    const deferred = this.deferred();
    // E5: a fixed list shows of what searches found only the tools with an app view (the rest run
    // through call_tool); a host renders a view only for a listed tool.
    const found = sessionId === undefined ? [] : await this.discovered(sessionId);
    const discovered = this.toolList === 'fixed' ? found.filter((name) => hasAppUi(this.catalog.get(name))) : found;
    const tools: Tool[] = [];
    if (deferred.size > 0 || this.catalog.pendingServers.length > 0) {
      // E5: the announcement changes only with the catalog, never with what the session loads: it
      // sits at the front of the prompt, so any change there would rebuild the client's cache.
      tools.push(this.searchTool.tool(deferred));
      if (this.callThrough) tools.push(callToolDefinition());
    }
    if (this.codeMode) tools.push(this.codeMode.definition);
    // Cached per catalog version: a request costs the session's discoveries, not a pass over the pool.
    for (const tool of this.visibleTools.list(deferred, discovered)) tools.push(tool);
    return tools;
  }

  /**
   * What the session loaded. A shared store that no longer knows the session (ended elsewhere,
   * expired, Redis restarted empty) is an error, not an empty set: answering as if nothing had been
   * discovered would make loaded tools fail as "not loaded" (G6).
   */
  private async discovered(sessionId: string): Promise<readonly string[]> {
    const record = await this.sessions.get(sessionId);
    if (!record && this.sessions.shared) throw new SessionGoneError(sessionId);
    return record?.discovered ?? [];
  }

  /** Stop listening to the catalog and close every live session. */
  async close(): Promise<void> {
    this.shuttingDown = true;
    this.unsubscribe();
    this.firstConnect.stop();
    this.unsubscribeBus();
    this.proxy.close();
    await this.learner?.close();
    this.relay?.close();
    this.parked.close();
    this.codeMode?.close();
    const servers = [...this.live.values()];
    this.live.clear();
    await Promise.allSettled(servers.map((s) => s.close()));
  }

  get liveSessions(): number {
    return this.live.size;
  }

  /**
   * One list_changed per burst of catalog changes (servers connecting together), to every live
   * session of every process sharing the bus.
   */
  private queueBroadcast(): void {
    if (this.broadcastQueued) return;
    this.broadcastQueued = true;
    setTimeout(() => {
      this.broadcastQueued = false;
      this.notifyAllSessions({ method: 'notifications/tools/list_changed' });
    }, BROADCAST_DEBOUNCE_MS).unref();
  }

  /** G6: act on an event from this process or another one; only sessions open here are touched. */
  private onBusEvent(event: BusEvent): void {
    const failed = (sessionId: string, what: string) => (error: unknown) =>
      this.logger.debug(`session ${sessionId}: ${what} not sent: ${errorMessage(error)}`);
    if (event.type === 'notify-all') {
      this.listeners.deliverAll(event.notification);
      for (const [sessionId, server] of this.live)
        server.notification(event.notification).catch(failed(sessionId, event.notification.method));
      return;
    }
    // The G8 relay's events are the relay's (proxy/parked-relay.ts).
    if (event.type !== 'notify' && event.type !== 'ended') return;
    if (event.type === 'notify' && this.listeners.deliver(event.sessionId, event.notification)) return;
    const server = this.live.get(event.sessionId);
    if (!server) return;
    if (event.type === 'notify')
      server.notification(event.notification).catch(failed(event.sessionId, event.notification.method));
    else void server.close();
  }
}

export type { UpstreamCaller } from './ports.js';
export { toMcpTool } from './tools/definitions.js';

function toolsNamed(catalog: Catalog, names: readonly string[]): ToolSpec[] {
  return names.map((n) => catalog.get(n)).filter((t): t is ToolSpec => t !== undefined);
}
