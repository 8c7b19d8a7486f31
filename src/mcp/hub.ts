/**
 * G1/G2/A4 — the hub: connects every configured MCP server concurrently and keeps the catalog in
 * step with them.
 *
 * - A server still starting is *pending* in the catalog (C8: the search result says so).
 * - Its tools enter the catalog when its first `tools/list` answers; `tools/list_changed`
 *   replaces them (a catalog delta, G2).
 * - A server that drops is removed and marked pending while the hub reconnects with backoff;
 *   after the last attempt it is removed for good (no longer pending, so searches stop waiting).
 *
 * The hub never blocks on a server: `start()` returns at once, `settled()` waits for every
 * first attempt (or a timeout).
 */
import { errorMessage } from '../util/errors.js';
import { admitTool, Catalog } from '../core/catalog.js';
import type { ToolInput } from '../core/tool.js';
import { cutText, DEFAULT_LIMITS, type Limits } from '../core/limits.js';
import { ambiguousQualifiedName, qualifyMcpName } from '../core/names.js';
import { neutralizeStructuralTags } from '../core/untrusted.js';
import { isStdioServer, type HubConfig, type ServerConfig } from './config.js';
import { fetchServerFeatures, McpAggregate, type FeatureKind } from './aggregate.js';
import type {
  ConnectionFactory,
  ForwardOptions,
  McpConnection,
  McpMessage,
  UpstreamCallResult,
  UpstreamCapabilities,
  UpstreamTool,
} from './connection.js';
import { UpstreamError } from './errors.js';
import {
  BackoffState,
  DEFAULT_RECONNECT,
  describeFailure,
  type ReconnectOptions,
  type RetryDecision,
  type ServerState,
  type ServerStatus,
} from './server-state.js';
import { sanitizeLogText, silentLogger, type Logger } from '../util/log.js';
import { sdkConnectionFactory } from './sdk-connection.js';

export type { ReconnectOptions, ServerState, ServerStatus } from './server-state.js';

export interface HubOptions {
  /** Catalog to feed (one with local tools, say). A new one by default. */
  catalog?: Catalog;
  /** Default connect timeout (spawn + initialize + first list). Config values win. Default 30 s. */
  connectTimeoutMs?: number;
  /** Default per-call timeout. Config values win. Default 60 s. */
  callTimeoutMs?: number;
  /** `false`: a server that fails or drops is removed and not retried (one-shot commands). */
  reconnect?: ReconnectOptions | false;
  logger?: Logger;
  /** Swap the MCP SDK (or fake servers in unit tests). */
  connectionFactory?: ConnectionFactory;
  /** G5 limits (defaults: DEFAULT_LIMITS; `resolveLimits` merges config and CLI). */
  limits?: Limits;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

interface ServerEntry {
  readonly name: string;
  readonly config: ServerConfig;
  state: ServerState;
  connection: McpConnection | undefined;
  /** Consecutive failures, drops, quarantines: the retry decisions (server-state.ts). */
  backoff: BackoffState;
  lastError: string | undefined;
  /** The last stderr line of the current attempt: the usual reason a server will not start. */
  lastStderr: string | undefined;
  retryTimer: NodeJS.Timeout | undefined;
  nextRetryAt: number | undefined;
  since: number;
  /** Serializes tool-list refreshes so an older list never overwrites a newer one. */
  refresh: Promise<void>;
  firstAttempt: Promise<void>;
  resolveFirstAttempt: () => void;
}

/** Routes a server → client request (sampling, elicitation, roots) to a client; the gateway sets it. */
export type ServerRequestHandler = (
  server: string,
  request: McpMessage,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

export class McpHub {
  readonly catalog: Catalog;
  /** G4: resources, templates and prompts of the connected servers, and who owns which. */
  readonly features: McpAggregate;
  /** Set by the gateway; without it, server → client requests are refused. */
  serverRequestHandler: ServerRequestHandler | undefined;
  private readonly notificationListeners = new Set<(server: string, notification: McpMessage) => void>();
  readonly config: HubConfig;
  private readonly entries = new Map<string, ServerEntry>();
  private readonly logger: Logger;
  private readonly factory: ConnectionFactory;
  private readonly reconnect: Required<ReconnectOptions> | false;
  readonly limits: Limits;
  private closed = false;

  constructor(
    config: HubConfig,
    private readonly options: HubOptions = {},
  ) {
    this.config = config;
    this.catalog = options.catalog ?? new Catalog();
    this.logger = options.logger ?? silentLogger;
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.factory = options.connectionFactory ?? sdkConnectionFactory(config.servers, this.limits);
    this.reconnect = options.reconnect === false ? false : { ...DEFAULT_RECONNECT, ...options.reconnect };
    this.features = new McpAggregate(Object.keys(config.servers), this.logger);
    for (const [name, serverConfig] of Object.entries(config.servers)) {
      let resolveFirstAttempt = () => {};
      const firstAttempt = new Promise<void>((resolve) => (resolveFirstAttempt = resolve));
      this.entries.set(name, {
        name,
        config: serverConfig,
        state: 'connecting',
        connection: undefined,
        backoff: new BackoffState(this.reconnect === false ? DEFAULT_RECONNECT : this.reconnect),
        lastError: undefined,
        lastStderr: undefined,
        retryTimer: undefined,
        nextRetryAt: undefined,
        since: Date.now(),
        refresh: Promise.resolve(),
        firstAttempt,
        resolveFirstAttempt,
      });
    }
  }

  /** Start connecting every server concurrently. Returns at once; servers are pending meanwhile. */
  start(): this {
    for (const entry of this.entries.values()) {
      this.catalog.markPending(entry.name);
      void this.attempt(entry);
    }
    return this;
  }

  /**
   * Wait until every server's first connection attempt finished (ready or failed), or until
   * `timeoutMs` passed; servers still starting then stay pending. Resolves, never rejects.
   */
  async settled(timeoutMs = this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all([...this.entries.values()].map((e) => e.firstAttempt)), timeout]);
    clearTimeout(timer);
  }

  servers(): string[] {
    return [...this.entries.keys()];
  }

  /** H3: every server's state, for `inspect`, `search --json`, logs and the status page. */
  status(): ServerStatus[] {
    return [...this.entries.values()].map((entry) => {
      const counts = this.features.counts(entry.name);
      return {
        server: entry.name,
        state: entry.state,
        tools: this.catalog.serverTools(entry.name).length,
        attempts: entry.backoff.attempts,
        reconnects: entry.backoff.reconnects,
        since: entry.since,
        ...(entry.lastError !== undefined && { lastError: entry.lastError }),
        ...(entry.nextRetryAt !== undefined && { nextRetryAt: entry.nextRetryAt }),
        ...(entry.connection?.pid !== undefined && { pid: entry.connection.pid }),
        resources: counts.resources + counts.templates,
        prompts: counts.prompts,
      };
    });
  }

  /**
   * Call a tool by its server-side name. Throws UpstreamError saying why (not connected,
   * reconnecting, timed out, transport error); a tool error from the server is returned as is.
   */
  async callTool(
    server: string,
    toolName: string,
    args: Record<string, unknown>,
    options: Omit<ForwardOptions, 'timeoutMs'> = {},
  ): Promise<UpstreamCallResult> {
    const { connection, timeoutMs } = this.ready(server);
    try {
      return await connection.callTool(toolName, args, { ...options, timeoutMs });
    } catch (error) {
      throw new UpstreamError(server, `failed to run "${toolName}": ${errorMessage(error)}`);
    }
  }

  /**
   * G4: forward any other request (`resources/read`, `prompts/get`, `completion/complete`, …) to
   * `server`; its result comes back unchanged. Throws UpstreamError saying why it could not.
   */
  async request(
    server: string,
    request: McpMessage,
    options: Omit<ForwardOptions, 'timeoutMs'> = {},
  ): Promise<Record<string, unknown>> {
    const { connection, timeoutMs } = this.ready(server);
    if (!connection.request)
      throw new UpstreamError(server, `cannot forward ${request.method} (its connection does not support it)`);
    try {
      return await connection.request(request, { ...options, timeoutMs });
    } catch (error) {
      throw new UpstreamError(
        server,
        `failed to answer ${request.method}: ${withoutRpcPrefix(errorMessage(error))}`,
        errorCode(error),
      );
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
  onNotification(listener: (server: string, notification: McpMessage) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  private ready(server: string): { connection: McpConnection; timeoutMs: number } {
    const entry = this.entries.get(server);
    if (!entry) throw new UpstreamError(server, 'is not configured');
    if (entry.state !== 'connected' || !entry.connection) {
      throw new UpstreamError(server, `is not connected (${describeState(entry)})`);
    }
    const timeoutMs =
      entry.config.callTimeoutMs ??
      this.config.toolSearch.callTimeoutMs ??
      this.options.callTimeoutMs ??
      DEFAULT_CALL_TIMEOUT_MS;
    return { connection: entry.connection, timeoutMs };
  }

  /** Close every connection and stop reconnecting. */
  async close(): Promise<void> {
    this.closed = true;
    const closing: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      clearTimeout(entry.retryTimer);
      entry.state = 'closed';
      entry.resolveFirstAttempt();
      if (entry.connection) closing.push(entry.connection.close());
    }
    await Promise.allSettled(closing);
  }

  /**
   * Last resort for process exit (signals, `process.exit`): SIGTERM every spawned server now,
   * synchronously, so none outlives the hub as an orphan. `close()` is the graceful path.
   */
  terminateNow(): void {
    for (const entry of this.entries.values()) {
      const pid = entry.connection?.pid;
      if (pid === undefined) continue;
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }

  private async attempt(entry: ServerEntry): Promise<void> {
    const connection = this.factory(entry.name, {
      onToolsChanged: () => this.scheduleRefresh(entry, connection),
      onClosed: (reason) => this.handleDrop(entry, connection, reason),
      onStderr: (line) => {
        entry.lastStderr = line;
        this.logger.debug(`[${entry.name}] ${line}`);
      },
      onInvalidTool: (tool, reason) => this.logger.error(`"${entry.name}": skipping tool "${tool}": ${reason}`),
      onLimit: (message) => this.logger.warn(message),
      onListChanged: (kind) => this.scheduleFeatureRefresh(entry, connection, kind),
      onNotification: (notification) => {
        for (const listener of this.notificationListeners) listener(entry.name, notification);
      },
      onServerRequest: (request, signal) => {
        if (!this.serverRequestHandler)
          return Promise.reject(
            new UpstreamError(entry.name, `sent ${request.method}, but no client is attached to answer it`),
          );
        return this.serverRequestHandler(entry.name, request, signal);
      },
    });
    entry.connection = connection;
    const timeoutMs =
      entry.config.timeoutMs ??
      this.config.toolSearch.connectTimeoutMs ??
      this.options.connectTimeoutMs ??
      DEFAULT_CONNECT_TIMEOUT_MS;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    try {
      await connection.connect(abort.signal);
      const tools = await raceAbort(connection.listTools(), abort.signal);
      const features = await raceAbort(fetchServerFeatures(connection, this.logger), abort.signal);
      if (this.closed || entry.connection !== connection) return void (await connection.close());
      this.recordServerInfo(entry.name, connection);
      this.applyTools(entry, tools);
      this.setState(entry, 'connected');
      entry.backoff.connected(Date.now());
      // After `connected`: listeners (subscriptions remade on reconnect) may call the server at once.
      this.features.setServer(entry.name, features);
      this.logger.info(`connected to "${entry.name}" (${tools.length} tools)`);
    } catch (error) {
      const message = abort.signal.aborted ? errorMessage(abort.signal.reason) : errorMessage(error);
      await connection.close();
      if (this.closed || entry.connection !== connection) return;
      entry.connection = undefined;
      // A timeout is the reason, not the SIGTERM that the abort sent.
      const reason = abort.signal.aborted
        ? message
        : describeFailure({
            message,
            ...(isStdioServer(entry.config) && { command: entry.config.command }),
            ...(connection.exitStatus?.() !== undefined && { exit: connection.exitStatus()! }),
            ...(entry.lastStderr !== undefined && { lastStderr: entry.lastStderr }),
          });
      this.handleFailure(entry, `could not connect: ${reason}`, entry.backoff.failed());
    } finally {
      clearTimeout(timer);
      entry.resolveFirstAttempt();
    }
  }

  /** C12: the server's title/instructions go to the catalog as search evidence (third-party text). */
  private recordServerInfo(server: string, connection: McpConnection): void {
    const info = connection.serverInfo?.();
    const title = typeof info?.title === 'string' ? this.untrusted(info.title) : undefined;
    const description = typeof info?.instructions === 'string' ? this.untrusted(info.instructions) : undefined;
    this.catalog.setServerInfo(server, {
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
    });
  }

  /**
   * Replace the server's tools in the catalog. A bad tool (invalid schema, a name it repeats, a
   * name another server or a local tool already holds) is skipped with a logged reason; the rest
   * stay. One pass, so a 10,000-tool server with one bad tool costs no more than without it.
   */
  private applyTools(entry: ServerEntry, tools: UpstreamTool[]): void {
    const accepted = new Map<string, Omit<ToolInput, 'origin'>>();
    for (const tool of tools) {
      const input = this.toToolInput(entry, tool);
      const skip = (reason: string) => this.logger.error(`"${entry.name}": skipping tool "${tool.name}": ${reason}`);
      let name: string;
      try {
        name = admitTool({ ...input, origin: { kind: 'mcp', server: entry.name } }).name;
      } catch (error) {
        skip(errorMessage(error));
        continue;
      }
      const clash = ambiguousQualifiedName(entry.name, tool.name);
      if (clash !== undefined)
        this.logger.warn(`"${entry.name}": tool "${tool.name}" is exposed as "${name}": ${clash}`);
      const first = accepted.get(name);
      if (first) {
        skip(`the server lists the name "${first.name}" twice (model-facing "${name}"); the first one is kept`);
        continue;
      }
      const owner = this.catalog.get(name);
      if (owner && !(owner.origin.kind === 'mcp' && owner.origin.server === entry.name)) {
        skip(
          `"${name}" is already registered from ${owner.origin.kind === 'mcp' ? `MCP server "${owner.origin.server}"` : 'a local tool'}`,
        );
        continue;
      }
      accepted.set(name, input);
    }
    this.catalog.setServerTools(entry.name, [...accepted.values()]);
  }

  /**
   * A2 inputs from config: per-server `defer`, `alwaysLoad` (true or tool list), and the global
   * `toolSearch.alwaysLoad` list (`mcp__server__tool` or `mcp__server`). The server's own
   * `_meta["anthropic/alwaysLoad"]` applies unless the config says `defer: true`.
   */
  private toToolInput(entry: ServerEntry, tool: UpstreamTool): Omit<ToolInput, 'origin'> {
    const alwaysLoad = configuredAlwaysLoad(
      entry.name,
      entry.config,
      tool.name,
      this.config.toolSearch.alwaysLoad ?? [],
    );
    const { name: _name, description: _description, inputSchema: _inputSchema, _meta, ...mcpFields } = tool;
    return {
      name: tool.name,
      originalName: tool.name,
      description: this.upstreamDescription(entry, tool),
      inputSchema: tool.inputSchema,
      ...(_meta !== undefined && { meta: _meta }),
      ...(Object.keys(mcpFields).length > 0 && { mcpFields }),
      ...(alwaysLoad !== undefined && { alwaysLoad }),
    };
  }

  /**
   * G5: third-party text, bounded (`descriptionChars`) and unable to pose as the structure the
   * gateway writes around it (fake `</available-deferred-tools>`, `<system>` tags).
   */
  private upstreamDescription(entry: ServerEntry, tool: UpstreamTool): string {
    const raw = tool.description ?? '';
    if (raw.length > this.limits.descriptionChars) {
      this.logger.warn(
        `"${entry.name}": tool "${tool.name}" has a ${raw.length}-character description; kept ${this.limits.descriptionChars} (limit descriptionChars)`,
      );
    }
    return this.untrusted(raw);
  }

  /** Third-party text as the catalog keeps it: at most `descriptionChars`, no structural tags. */
  private untrusted(text: string): string {
    return neutralizeStructuralTags(cutText(text, this.limits.descriptionChars));
  }

  private scheduleRefresh(entry: ServerEntry, connection: McpConnection): void {
    entry.refresh = entry.refresh.then(async () => {
      if (entry.connection !== connection || entry.state !== 'connected') return;
      try {
        // G5: a server whose list never ends cannot hold the refresh queue (the list walk has the
        // same deadline; this also bounds connections that do not walk pages themselves).
        const tools = await withTimeout(
          connection.listTools(),
          this.limits.refreshTimeoutMs,
          `refresh timed out after ${this.limits.refreshTimeoutMs} ms (limit refreshTimeoutMs); keeping the previous tools`,
        );
        if (entry.connection === connection && entry.state === 'connected') this.applyTools(entry, tools);
        this.logger.debug(`"${entry.name}" tools changed (${tools.length} tools)`);
      } catch (error) {
        this.logger.warn(`"${entry.name}": refreshing tools failed: ${errorMessage(error)}`);
      }
    });
  }

  /** Same serialization as tool refreshes: an older list never overwrites a newer one. */
  private scheduleFeatureRefresh(entry: ServerEntry, connection: McpConnection, kind: FeatureKind): void {
    entry.refresh = entry.refresh.then(async () => {
      if (entry.connection !== connection || entry.state !== 'connected') return;
      const features = await fetchServerFeatures(connection, this.logger, [kind]);
      if (entry.connection === connection && entry.state === 'connected') this.features.setServer(entry.name, features);
    });
  }

  private handleDrop(entry: ServerEntry, connection: McpConnection, reason: string): void {
    // A drop while connecting surfaces as that attempt's failure instead.
    if (this.closed || entry.connection !== connection || entry.state !== 'connected') return;
    entry.connection = undefined;
    this.logger.warn(`"${entry.name}" disconnected: ${reason}`);
    void connection.close();
    const exit = connection.exitStatus?.();
    const why = exit
      ? describeFailure({
          message: reason,
          exit,
          ...(entry.lastStderr !== undefined && { lastStderr: entry.lastStderr }),
        })
      : reason;
    this.handleFailure(entry, `disconnected: ${why}`, entry.backoff.dropped(Date.now()), { dropped: true });
  }

  private setState(entry: ServerEntry, state: ServerState): void {
    if (entry.state !== state) entry.since = Date.now();
    entry.state = state;
  }

  /**
   * After a failed attempt or a drop: `failed` (named with its reason to the model and the status
   * page, retried with backoff), `connecting` for the first retry after a drop (searches wait for
   * it), `quarantined` when it flaps, or `failed` for good after `maxAttempts`.
   */
  private handleFailure(
    entry: ServerEntry,
    rawReason: string,
    decision: RetryDecision,
    options: { dropped?: boolean } = {},
  ): void {
    // G5: the reason reaches the model, the status page and stdout banners: third-party text
    // (stderr, URLs with credentials) made safe once, here.
    const reason = neutralizeStructuralTags(sanitizeLogText(rawReason));
    entry.lastError = reason;
    entry.lastStderr = undefined;
    entry.nextRetryAt = undefined;
    this.features.removeServer(entry.name);
    if (this.reconnect === false || decision.kind === 'give-up') {
      const final =
        this.reconnect === false ? reason : `${reason} (gave up after ${entry.backoff.attempts - 1} retries)`;
      this.setState(entry, 'failed');
      this.catalog.markFailed(entry.name, final);
      this.logger.error(`"${entry.name}" ${final}`);
      return;
    }
    const retryIn = `${Math.round(decision.delayMs / 100) / 10} s`;
    if (decision.kind === 'quarantine') {
      this.setState(entry, 'quarantined');
      this.catalog.markFailed(entry.name, `quarantined: ${decision.reason} (last: ${reason}); next try in ${retryIn}`);
      this.logger.error(`"${entry.name}" quarantined: ${decision.reason} (last: ${reason}); next try in ${retryIn}`);
    } else if (options.dropped) {
      this.setState(entry, 'connecting');
      this.catalog.removeServer(entry.name, { pending: true });
      this.logger.warn(`"${entry.name}" ${reason}; reconnecting in ${retryIn}`);
    } else {
      this.setState(entry, 'failed');
      this.catalog.markFailed(entry.name, `${reason} (retrying in ${retryIn})`);
      this.logger.error(`"${entry.name}" ${reason}; retrying in ${retryIn}`);
    }
    entry.nextRetryAt = Date.now() + decision.delayMs;
    entry.retryTimer = setTimeout(() => {
      if (this.closed) return;
      entry.nextRetryAt = undefined;
      entry.backoff.reconnects++;
      void this.attempt(entry);
    }, decision.delayMs);
    entry.retryTimer.unref();
  }
}

function configuredAlwaysLoad(
  server: string,
  config: ServerConfig,
  tool: string,
  globalList: readonly string[],
): boolean | undefined {
  if (config.defer === true) return false;
  if (config.defer === false || config.alwaysLoad === true) return true;
  if (Array.isArray(config.alwaysLoad) && config.alwaysLoad.includes(tool)) return true;
  if (globalList.includes(qualifyMcpName(server, tool)) || globalList.includes(`mcp__${server}`)) return true;
  return undefined;
}

function describeState(entry: ServerEntry): string {
  switch (entry.state) {
    case 'connecting':
      return entry.lastError !== undefined ? `reconnecting after: ${entry.lastError}` : 'still connecting';
    case 'failed':
      return `failed: ${entry.lastError ?? 'unknown error'}`;
    case 'quarantined':
      return `quarantined after repeated crashes: ${entry.lastError ?? 'unknown error'}`;
    case 'closed':
      return 'the hub is closed';
    case 'connected':
      return 'connected';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(message)), ms);
  return raceAbort(promise, abort.signal).finally(() => clearTimeout(timer));
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    promise.then(resolve, reject);
  });
}

/** The JSON-RPC code of an SDK error (McpError), if any. */
function errorCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

/** The SDK prefixes "MCP error N: " once per hop; the code travels separately, so say it once. */
function withoutRpcPrefix(message: string): string {
  return message.replace(/^(MCP error -?\d+: )+/, '');
}
