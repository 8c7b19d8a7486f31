/**
 * G1/G2/A4 — the hub: connects every configured MCP server concurrently and keeps the catalog in step with them.
 *
 * - A server still starting is *pending* in the catalog (C8: the search result says so).
 * - Its tools enter the catalog when its first `tools/list` answers; `tools/list_changed`
 *   replaces them (a catalog delta, G2).
 * - A server that drops is removed and marked pending while the hub reconnects with backoff;
 *   after the last attempt it is removed for good (no longer pending, so searches stop waiting).
 *
 * It never blocks on a server: `start()` returns at once, `settled()` awaits first attempts (or a
 * timeout). Its parts: server-entry.ts, catalog-feed.ts, failure-outcome.ts, hub-options.ts.
 */
import { errorMessage } from '../util/errors.js';
import { Catalog } from '../core/catalog.js';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.js';
import { neutralizeUntrusted } from '../core/untrusted.js';
import { markedResult } from './marked-results.js';
import type { HubConfig, ServerConfig } from './config.js';
import { diffServers, type ServerChanges } from './reload-plan.js';
import type { ToolRules } from './tool-rules.js';
import { raceAbort } from './deadlines.js';
import { errorCode, withoutRpcPrefix } from './rpc-errors.js';
import { fetchServerFeatures, McpAggregate } from './aggregate.js';
import type {
  ConnectionFactory,
  McpConnection,
  McpMessage,
  UpstreamCallResult,
  UpstreamCapabilities,
} from './connection.js';
import { UpstreamError } from './errors.js';
import { DEFAULT_RECONNECT, type ReconnectOptions, type RetryDecision, type ServerStatus } from './server-state.js';
import { sanitizeLogText, silentLogger, type Logger } from '../util/log.js';
import { sdkConnectionFactory } from './sdk-connection.js';
import { remoteOptions } from './remote/options.js';
import { isNeedsSignIn, type NeedsSignInError } from './remote/oauth/provider.js';
import { CatalogFeed } from './catalog-feed.js';
import { LIST_KINDS, type ListKind } from './list-ttl.js';
import { createServerEntry, describeState, entryStatus, setEntryState, type ServerEntry } from './server-entry.js';
import { applyFailure, type FailureContext } from './entry-failure.js';
import { connectedLine, redactConfigSecrets } from './server-messages.js';
import { callTimeoutOf, connectTimeoutOf, DEFAULT_CONNECT_TIMEOUT_MS } from './hub-options.js';
import { serverRunner } from './package-runner.js';
import * as install from './install-phase.js';
import type { HubForwardOptions, HubOptions, ServerRequestHandler } from './hub-options.js';
import { type HeldConnection, SessionConnections } from './session-connections.js';
import { terminateProcesses } from './terminate.js';
import { SelfListedEntries } from './self-reference.js';
import { type NotificationListener, UpstreamTraffic } from './upstream-traffic.js';
import { StderrTail } from './stderr-reason.js';

export type { HubOptions, ServerRequestHandler } from './hub-options.js';
export type { ReconnectOptions, ServerState, ServerStatus } from './server-state.js';

type Ready = { connection: McpConnection; timeoutMs: number; rules: ToolRules; done?: HeldConnection['done'] };

export class McpHub {
  readonly catalog: Catalog;
  /** G4: resources, templates and prompts of the connected servers, and who owns which. */
  readonly features: McpAggregate;
  /** Set by the gateway; without it, server → client requests are refused. */
  serverRequestHandler: ServerRequestHandler | undefined;
  /** What every connection's server sends on its own: to the gateway (upstream-traffic.ts). */
  private readonly traffic = new UpstreamTraffic(() => this.serverRequestHandler);
  private current: HubConfig;
  /** What connections are made from: replaced entry by entry on reload (G7). */
  private readonly serverConfigs: Record<string, ServerConfig>;
  private readonly entries = new Map<string, ServerEntry>();
  private readonly logger: Logger;
  private readonly factory: ConnectionFactory;
  private readonly reconnect: Required<ReconnectOptions> | false;
  readonly limits: Limits;
  /** What the hub writes into the catalog and the feature aggregate (catalog-feed.ts). */
  private readonly feed: CatalogFeed;
  /** G5: `"isolation": "session"` servers' per-session connections. */
  readonly isolated: SessionConnections;
  private closed = false;
  private started = false;
  private readonly selfListed = new SelfListedEntries((line) => this.logger.warn(line)); // G1: self-reference.ts

  constructor(
    config: HubConfig,
    private readonly options: HubOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    config = this.current = this.selfListed.filter(config);
    this.serverConfigs = { ...config.servers };
    this.catalog = options.catalog ?? new Catalog();
    this.limits = options.limits ?? DEFAULT_LIMITS;
    const remote = remoteOptions(this.limits, options.stateDir, config.source, options.credentials);
    this.factory = options.connectionFactory ?? sdkConnectionFactory(this.serverConfigs, remote);
    this.reconnect = options.reconnect === false ? false : { ...DEFAULT_RECONNECT, ...options.reconnect };
    this.features = new McpAggregate(Object.keys(config.servers), this.logger, this.limits.resourceUriChars);
    this.feed = new CatalogFeed({
      catalog: this.catalog,
      features: this.features,
      limits: this.limits,
      logger: this.logger,
      config: () => this.current,
      ...(options.trust && { trust: options.trust }),
    });
    options.trust?.onChange(() => this.feed.reapply(this.entries.values()));
    for (const [name, serverConfig] of Object.entries(config.servers)) this.addEntry(name, serverConfig);
    const { factory, limits, logger, traffic } = this;
    this.isolated = new SessionConnections({ factory, limits, logger, traffic, config: (s) => this.serverConfigs[s] });
  }

  /** The config in force (after a reload, the reloaded one). */
  get config(): HubConfig {
    return this.current;
  }

  private addEntry(name: string, config: ServerConfig): ServerEntry {
    const backoff = this.reconnect === false ? DEFAULT_RECONNECT : this.reconnect;
    const entry = createServerEntry(name, config, backoff, serverRunner(config));
    this.serverConfigs[name] = config;
    this.entries.set(name, entry);
    return entry;
  }

  /** Start connecting every server concurrently. Returns at once; servers are pending meanwhile. */
  start(): this {
    // G10/G6: no listing is judged without the pins (their Redis is down): servers start once they are read.
    if (this.options.trust?.deferUntilLoaded(() => void (this.closed || this.start()))) return this;
    this.started = true;
    for (const entry of this.entries.values()) this.startEntry(entry);
    return this;
  }

  private startEntry(entry: ServerEntry): void {
    this.catalog.markPending(entry.name);
    void this.attempt(entry);
  }

  /**
   * G7 live reload: servers added connect, removed ones stop (their tools leave the catalog, so
   * every session gets list_changed), changed ones (compared after `${VAR}` expansion) restart;
   * the rest keep running untouched. The `toolSearch` section is not reloaded (the caller says so).
   */
  async reconfigure(config: HubConfig): Promise<ServerChanges> {
    const next = this.selfListed.filter(config);
    const changes = diffServers(this.current.servers, next.servers);
    this.current = { ...next, toolSearch: this.current.toolSearch };
    if (this.closed) return changes;
    await Promise.all([...changes.removed, ...changes.changed].map((name) => this.stopServer(name)));
    for (const name of [...changes.added, ...changes.changed]) {
      const entry = this.addEntry(name, next.servers[name]!);
      if (this.started) this.startEntry(entry);
    }
    return changes;
  }

  /** Stop one server for good: no retry, its tools, resources and prompts gone. */
  private async stopServer(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    delete this.serverConfigs[name];
    clearTimeout(entry.retryTimer);
    install.letInstallFinish(entry, this.logger);
    entry.state = 'closed';
    entry.resolveFirstAttempt();
    const connection = entry.connection;
    entry.connection = undefined;
    this.features.removeServer(name);
    this.catalog.removeServer(name);
    this.catalog.setServerInfo(name, {});
    this.feed.forgetServer(name);
    await Promise.all([connection?.close(), this.isolated.closeServer(name)]);
  }

  /**
   * Wait until every server's first connection attempt finished (ready or failed), or until
   * `timeoutMs` passed; servers still starting then stay pending. Resolves, never rejects. G13:
   * `waitForInstalls` waits on for servers still installing (their own bounds end them), so a
   * one-shot command that closes the hub next does not kill an install halfway.
   */
  async settled(
    timeoutMs = this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    options: { readonly waitForInstalls?: boolean } = {},
  ): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all([...this.entries.values()].map((e) => e.firstAttempt)), timeout]);
    clearTimeout(timer);
    if (!options.waitForInstalls) return;
    const installing = [...this.entries.values()].filter((e) => e.state === 'installing');
    await Promise.all(installing.map((e) => e.firstAttempt));
  }

  servers(): string[] {
    return [...this.entries.keys()];
  }

  /** H3: every server's state, for `inspect`, `search --json`, logs and the status page. */
  status(): ServerStatus[] {
    return [...this.entries.values()].map((entry) => ({
      ...entryStatus(entry, this.catalog.serverTools(entry.name).length, this.features.counts(entry.name)),
      ...(this.isolated.isolates(entry.name) && { sessionConnections: this.isolated.count(entry.name) }),
    }));
  }

  /**
   * Call a tool by its server-side name. Throws UpstreamError saying why (not connected,
   * reconnecting, timed out, transport error); a tool error from the server is returned as is.
   */
  async callTool(
    server: string,
    toolName: string,
    args: Record<string, unknown>,
    { session, ...options }: HubForwardOptions = {},
  ): Promise<UpstreamCallResult> {
    const visibility = this.ready(server).rules.visibility(toolName);
    if (!visibility.visible)
      throw new UpstreamError(server, `does not offer "${toolName}" here: the config hides it (${visibility.reason})`);
    this.feed.refuseHeld(server, toolName);
    const { connection, timeoutMs, done } = await this.connectionFor(server, session);
    try {
      const result = await connection.callTool(toolName, args, { ...options, timeoutMs });
      return markedResult(result, this.options.markResults);
    } catch (error) {
      this.signInLost(server, connection, error);
      throw new UpstreamError(server, `failed to run "${toolName}": ${this.redact(errorMessage(error))}`);
    } finally {
      done?.();
    }
  }

  /**
   * G4: forward any other request (`resources/read`, `prompts/get`, `completion/complete`, …) to
   * `server`; its result comes back unchanged. Throws UpstreamError saying why it could not.
   */
  async request(
    server: string,
    request: McpMessage,
    { session, ...options }: HubForwardOptions = {},
  ): Promise<Record<string, unknown>> {
    if (!this.ready(server).connection.request)
      throw new UpstreamError(server, `cannot forward ${request.method} (its connection does not support it)`);
    const { connection, timeoutMs, done } = await this.connectionFor(server, session);
    try {
      const result = await connection.request!(request, { ...options, timeoutMs });
      done?.(request); // G5: a session connection keeps what it subscribed to (session-connections.ts)
      return result;
    } catch (error) {
      throw new UpstreamError(
        server,
        `failed to answer ${request.method}: ${this.redact(withoutRpcPrefix(errorMessage(error)))}`,
        errorCode(error),
      );
    } finally {
      done?.();
    }
  }

  /** A client → server notification to every ready server (`notifications/roots/list_changed`). */
  notifyAll(notification: McpMessage): void {
    for (const entry of this.entries.values()) {
      if (entry.state === 'connected')
        entry.connection
          ?.notify?.(notification)
          .catch((error: unknown) =>
            this.logger.debug(`"${entry.name}": ${notification.method} not sent: ${errorMessage(error)}`),
          );
    }
  }

  /** What a ready server said it offers at initialize (undefined while it is not ready). */
  capabilities(server: string): UpstreamCapabilities | undefined {
    const entry = this.entries.get(server);
    return entry?.state === 'connected' ? entry.connection?.capabilities : undefined;
  }

  /** Upstream notifications the gateway relays (`resources/updated`, logging `message`). */
  onNotification(listener: NotificationListener): () => void {
    return this.traffic.listen(listener);
  }

  private ready(server: string): Ready {
    const entry = this.entries.get(server);
    if (!entry) throw new UpstreamError(server, 'is not configured');
    if (entry.state !== 'connected' || !entry.connection) {
      throw new UpstreamError(server, `is not connected (${describeState(entry)})`);
    }
    const timeoutMs = callTimeoutOf(entry.config, this.config.toolSearch, this.options);
    return { connection: entry.connection, timeoutMs, rules: entry.rules };
  }

  /**
   * G5: the connection a request runs on: the shared one (which must be ready: it feeds the
   * catalog), or for an `"isolation": "session"` server and a gateway session, that session's own.
   */
  private async connectionFor(server: string, session?: string): Promise<Ready> {
    const shared = this.ready(server);
    if (session === undefined || !this.isolated.isolates(server)) return shared;
    const connectMs = connectTimeoutOf(this.entries.get(server)!.config, this.config.toolSearch, this.options);
    return { ...shared, ...(await this.isolated.acquire(server, session, connectMs)) };
  }

  /** G12: the shortest re-list interval upstream TTLs put in force for `kind` (of `servers` when named). */
  listTtlMs(kind: ListKind, servers?: ReadonlySet<string>): number | undefined {
    return this.feed.shortestTtlMs(kind, servers);
  }

  /** Close every connection and stop reconnecting. */
  async close(): Promise<void> {
    this.closed = true;
    this.feed.close();
    const closing: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      clearTimeout(entry.retryTimer);
      install.letInstallFinish(entry, this.logger);
      entry.state = 'closed';
      entry.resolveFirstAttempt();
      if (entry.connection) closing.push(entry.connection.close());
    }
    await Promise.allSettled([...closing, this.isolated.close()]);
  }

  /** Last resort at process exit: SIGTERM every spawned server now (terminate.ts); `close()` is the graceful one. */
  terminateNow(): void {
    terminateProcesses([...[...this.entries.values()].map((entry) => entry.connection?.pid), ...this.isolated.pids()]);
  }

  private async attempt(entry: ServerEntry): Promise<void> {
    const abort = new AbortController();
    const deadline = install.attemptDeadline(entry, this.installContext(), (error) => abort.abort(error));
    const connection = this.factory(entry.name, {
      onToolsChanged: () => this.feed.scheduleRefresh(entry, connection),
      onClosed: (reason) => this.handleDrop(entry, connection, reason),
      onStderr: (line) => {
        const redacted = this.redact(line);
        entry.stderr.add(redacted);
        deadline.progress();
        this.logger.debug(`[${entry.name}] ${redacted}`);
      },
      onFirstOutput: () => {
        deadline.running();
        install.markInstalled(entry, connection, this.catalog);
      },
      onInvalidTool: (tool, reason) => this.logger.error(`"${entry.name}": skipping tool "${tool}": ${reason}`),
      onLimit: (message) => this.logger.warn(message),
      onListChanged: (kind) => this.feed.scheduleFeatureRefresh(entry, connection, kind),
      onNotification: (notification) => this.traffic.notify(entry.name, notification),
      onServerRequest: (request, signal) => this.traffic.ask(entry.name, request, signal),
    });
    entry.connection = connection;
    entry.stderr = new StderrTail();
    install.markInstalling(entry, deadline, this.installContext());
    try {
      await connection.connect(abort.signal);
      const tools = await raceAbort(connection.listTools(), abort.signal);
      const features = await raceAbort(fetchServerFeatures(connection, this.logger), abort.signal);
      const current = () => !this.closed && entry.connection === connection;
      if (!current()) return void (await connection.close());
      this.feed.recordServerInfo(entry.name, connection);
      await this.feed.applyTools(entry, tools, current); // G5: in slices (feed.applyTools)
      if (!current()) return void (await connection.close());
      setEntryState(entry, 'connected');
      entry.backoff.connected(Date.now());
      // After `connected`: listeners (subscriptions remade on reconnect) may call the server at once.
      this.features.setServer(entry.name, features);
      for (const kind of LIST_KINDS) this.feed.armRelist(entry, connection, kind);
      this.logger.info(connectedLine(entry.name, tools.length));
    } catch (error) {
      const message = abort.signal.aborted ? errorMessage(abort.signal.reason) : errorMessage(error);
      await connection.close();
      if (this.closed || entry.connection !== connection) return;
      entry.connection = undefined;
      if (isNeedsSignIn(error)) return this.awaitSignIn(entry, error);
      if (this.selfListed.refused(entry.name, entry.stderr.last)) return void (await this.stopServer(entry.name));
      const explained = install.attemptFailure(entry, connection, message, abort.signal.reason, this.current);
      this.handleFailure(entry, `could not connect: ${explained.reason}`, entry.backoff.failed(), explained);
    } finally {
      deadline.stop();
      entry.resolveFirstAttempt();
    }
  }

  private installContext(): install.InstallPhaseContext {
    return { config: this.current, options: this.options, catalog: this.catalog, logger: this.logger };
  }

  /** G7: a call found the sign-in gone (revoked, refresh refused): the server waits for a new one. */
  private signInLost(server: string, connection: McpConnection, error: unknown): void {
    const entry = this.entries.get(server);
    if (!isNeedsSignIn(error) || !entry || entry.connection !== connection || entry.state !== 'connected') return;
    entry.connection = undefined;
    void connection.close();
    this.awaitSignIn(entry, error);
  }

  /**
   * G7: a server waiting for `toolsearch auth login`: no backoff (retrying cannot help); it
   * connects again as soon as a sign-in writes its credentials, without a restart.
   */
  private awaitSignIn(entry: ServerEntry, error: NeedsSignInError): void {
    entry.lastError = error.message;
    this.features.removeServer(entry.name);
    setEntryState(entry, 'needs-sign-in');
    this.catalog.markFailed(entry.name, error.message);
    this.logger.warn(`"${entry.name}" ${error.message}`);
    error.credentials.watch(() => {
      if (!this.closed && entry.state === 'needs-sign-in' && this.entries.get(entry.name) === entry)
        void this.attempt(entry);
    });
  }

  private handleDrop(entry: ServerEntry, connection: McpConnection, reason: string): void {
    // A drop while connecting surfaces as that attempt's failure instead.
    if (this.closed || entry.connection !== connection || entry.state !== 'connected') return;
    entry.connection = undefined;
    this.logger.warn(`"${entry.name}" disconnected: ${this.redact(reason)}`);
    void connection.close();
    const why = install.dropFailure(entry, connection, reason);
    this.handleFailure(entry, `disconnected: ${why.reason}`, entry.backoff.dropped(Date.now()), {
      dropped: true,
      ...why,
    });
  }

  /** G7: values from `${VAR}` references shown as the reference, never as the value. */
  private redact(text: string): string {
    return redactConfigSecrets(this.current, text);
  }

  /** After a failed attempt or a drop (entry-failure.ts). */
  private handleFailure(
    entry: ServerEntry,
    reason: string,
    decision: RetryDecision,
    options: { dropped?: boolean; fix?: string } = {},
  ): void {
    applyFailure(entry, reason, decision, this.failureContext, options);
  }

  private get failureContext(): FailureContext {
    return {
      catalog: this.catalog,
      features: this.features,
      logger: this.logger,
      reconnect: this.reconnect !== false,
      safe: (text) => neutralizeUntrusted(sanitizeLogText(this.redact(text))),
      retry: (entry) => {
        if (!this.closed) void this.attempt(entry);
      },
    };
  }
}
