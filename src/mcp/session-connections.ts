/**
 * G5 — `"isolation": "session"`: one upstream connection per gateway session for a server.
 *
 * Under the 2025 protocol a shared connection's sampling, elicitation, roots requests and log
 * lines do not say which client request caused them, so the gateway attributes them by timing
 * (src/gateway/proxy/attribution.ts) and refuses what it cannot attribute. A session's own
 * connection needs no attribution: everything the server sends on it is that session's.
 *
 * - Made lazily, on the session's first request to the server (call, read, prompt, completion).
 * - The shared connection stays: it lists the tools, resources and prompts for the catalog;
 *   a session connection's own list changes are not read (the catalog is one for everyone).
 * - At most `sessionConnectionsPerServer` per server: the next session's request fails with an
 *   error naming that limit (a child process per session must not be unbounded).
 * - At most `sessionConnectionsPerClient` of those for the sessions of one client (the address its
 *   HTTP requests come from, `ownedBy`): one client opening sessions in a loop would otherwise take
 *   every place and lock the others out until its connections go idle. A session with no known
 *   client (stdio: one client only) counts against the server's cap alone.
 * - A session's `logging/setLevel` is sent to its own connections, and to each it opens later.
 * - Resource subscriptions of the session are made on it: it is not idle while it holds one, and
 *   a connection made again for the session (after a drop) subscribes to them again.
 * - Closed when unused for `sessionConnectionIdleMs` (never while a request runs on it), when its
 *   session closes, and when the server is stopped or the hub closes; a stdio server's process
 *   ends with it. A connection that drops is forgotten; the session's next request makes another.
 */
import type { Limits } from '../core/limits.js';
import type { ServerConfig } from './config.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { ConnectionFactory, McpConnection, McpConnectionEvents, McpMessage } from './connection.js';
import { withTimeout } from './deadlines.js';
import { UpstreamError } from './errors.js';
import type { UpstreamTraffic } from './upstream-traffic.js';

/** A session's connection in use; `done()` when the request ended (starts the idle clock). */
export interface HeldConnection {
  readonly connection: McpConnection;
  /** `answered`: the request it ran, when the server answered it (a subscribe is remembered). Once only. */
  done(answered?: McpMessage): void;
}

interface Held {
  readonly ready: Promise<McpConnection>;
  readonly connection: McpConnection;
  busy: number;
  idleTimer: NodeJS.Timeout | undefined;
}

export interface SessionConnectionsOptions {
  readonly factory: ConnectionFactory;
  readonly limits: Pick<
    Limits,
    'sessionConnectionsPerServer' | 'sessionConnectionsPerClient' | 'sessionConnectionIdleMs'
  >;
  readonly logger: Logger;
  /** Where what a session connection's server sends goes, tagged with its session. */
  readonly traffic: UpstreamTraffic;
  /** The server's config in force (a reload may change it). */
  readonly config: (server: string) => ServerConfig | undefined;
}

export class SessionConnections {
  /** server → session → its connection. */
  private readonly byServer = new Map<string, Map<string, Held>>();
  /** session → the log level it asked for (what its connections are set to). */
  private readonly logLevels = new Map<string, string>();
  /** session → the client it belongs to (the per-client share). */
  private readonly owners = new Map<string, string>();
  /** `server\nsession` → resource URIs that session subscribed to there (kept across a drop). */
  private readonly subscribed = new Map<string, Set<string>>();
  private readonly factory: ConnectionFactory;
  private readonly limits: SessionConnectionsOptions['limits'];
  private readonly logger: Logger;
  private readonly traffic: UpstreamTraffic;

  constructor(private readonly options: SessionConnectionsOptions) {
    ({ factory: this.factory, limits: this.limits, logger: this.logger, traffic: this.traffic } = options);
  }

  /** Whether `server` is configured `"isolation": "session"`. */
  isolates(server: string): boolean {
    return this.options.config(server)?.isolation === 'session';
  }

  /** The session's connection to `server`, made (and connected within `connectTimeoutMs`) on first use. */
  async acquire(server: string, session: string, connectTimeoutMs: number): Promise<HeldConnection> {
    const sessions = this.byServer.get(server) ?? new Map<string, Held>();
    this.byServer.set(server, sessions);
    let held = sessions.get(session);
    if (!held) {
      this.refuseOverCap(server, sessions.size);
      this.refuseOverShare(server, session, sessions);
      held = this.open(server, session, connectTimeoutMs);
      sessions.set(session, held);
    }
    held.busy++;
    clearTimeout(held.idleTimer);
    const entry = held;
    try {
      const connection = await held.ready;
      let released = false;
      const done = (answered?: McpMessage) => {
        if (!released) this.release(server, session, entry, answered);
        released = true;
      };
      return { connection, done };
    } catch (error) {
      entry.busy--;
      throw error;
    }
  }

  /** The session belongs to `client` (its first word wins: a session does not change owners). */
  ownedBy(session: string, client: string): void {
    if (!this.owners.has(session)) this.owners.set(session, client);
  }

  /** How many session connections `server` holds (connecting ones included). */
  count(server: string): number {
    return this.byServer.get(server)?.size ?? 0;
  }

  /** Process ids of the stdio children (the hub's last-resort kill at exit). */
  pids(): number[] {
    const pids: number[] = [];
    for (const sessions of this.byServer.values())
      for (const held of sessions.values()) if (held.connection.pid !== undefined) pids.push(held.connection.pid);
    return pids;
  }

  /** A session's `logging/setLevel`: to its open connections now, and to those it opens later. */
  async setLogLevel(session: string, level: string): Promise<void> {
    this.logLevels.set(session, level);
    const open = [...this.byServer.values()].map((sessions) => sessions.get(session)?.connection);
    await Promise.allSettled(open.map((connection) => connection && sendLogLevel(connection, level)));
  }

  /** The gateway session closed: close its connections (and their processes). */
  async closeSession(session: string): Promise<void> {
    this.logLevels.delete(session);
    this.owners.delete(session);
    for (const server of this.byServer.keys()) this.subscribed.delete(`${server}\n${session}`);
    await Promise.allSettled([...this.byServer.keys()].map((server) => this.evict(server, session)));
  }

  /** The server was stopped or reconfigured: close every session's connection to it. */
  async closeServer(server: string): Promise<void> {
    const sessions = [...(this.byServer.get(server)?.keys() ?? [])];
    for (const session of sessions) this.subscribed.delete(`${server}\n${session}`);
    await Promise.allSettled(sessions.map((session) => this.evict(server, session)));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.byServer.keys()].map((server) => this.closeServer(server)));
  }

  private refuseOverCap(server: string, open: number): void {
    const max = this.limits.sessionConnectionsPerServer;
    if (open < max) return;
    this.logger.warn(`"${server}": ${max} per-session connections open, the limit (sessionConnectionsPerServer)`);
    throw new UpstreamError(
      server,
      `has ${max} per-session connections open, the limit (sessionConnectionsPerServer): this session gets none until another session ends or goes idle. Try again later.`,
    );
  }

  /** The session's client already holds its share of `server`'s places: refused, naming the limit. */
  private refuseOverShare(server: string, session: string, sessions: ReadonlyMap<string, Held>): void {
    const client = this.owners.get(session);
    if (client === undefined) return;
    const max = this.limits.sessionConnectionsPerClient;
    let held = 0;
    for (const other of sessions.keys()) if (this.owners.get(other) === client) held++;
    if (held < max) return;
    this.logger.warn(
      `"${server}": client ${client} holds ${max} per-session connections, its share (sessionConnectionsPerClient)`,
    );
    throw new UpstreamError(
      server,
      `has ${max} per-session connections open for your client address, its share (sessionConnectionsPerClient): end or leave idle one of your other sessions, then try again.`,
    );
  }

  private open(server: string, session: string, connectTimeoutMs: number): Held {
    let held: Held | undefined;
    const connection = this.factory(
      server,
      this.events(server, session, () => held),
    );
    const ready = withTimeout(
      connection.connect(new AbortController().signal),
      connectTimeoutMs,
      `timed out after ${connectTimeoutMs} ms`,
    ).then(
      async () => {
        const level = this.logLevels.get(session);
        if (level !== undefined) await sendLogLevel(connection, level).catch(() => undefined);
        await this.resubscribe(server, session, connection, connectTimeoutMs);
        return connection;
      },
      async (error: unknown) => {
        if (held) this.forget(server, session, held);
        await connection.close();
        throw new UpstreamError(server, `could not open this session's connection: ${errorMessage(error)}`);
      },
    );
    ready.catch(() => undefined);
    this.logger.debug(`"${server}": opening a connection for session ${session}`);
    held = { ready, connection, busy: 0, idleTimer: undefined };
    return held;
  }

  /** A session connection's events: what it sends is its session's; its own lists are not read. */
  private events(server: string, session: string, held: () => Held | undefined): McpConnectionEvents {
    return {
      onToolsChanged: () => {},
      onClosed: (reason) => {
        this.logger.debug(`"${server}": session ${session}'s connection closed: ${reason}`);
        const current = held();
        if (current) this.forget(server, session, current);
      },
      onStderr: (line) => this.logger.debug(`[${server} ${session}] ${line}`),
      onLimit: (message) => this.logger.warn(message),
      onNotification: (notification) => this.traffic.notify(server, notification, session),
      onServerRequest: (request, signal) => this.traffic.ask(server, request, signal, session),
    };
  }

  /** A connection made again for a session that held subscriptions there: they are made again. */
  private async resubscribe(server: string, session: string, connection: McpConnection, timeoutMs: number) {
    for (const uri of this.subscribed.get(`${server}\n${session}`) ?? []) {
      await connection
        .request?.({ method: 'resources/subscribe', params: { uri } }, { timeoutMs })
        .catch((error: unknown) =>
          this.logger.warn(`"${server}": resubscribing ${uri} failed: ${errorMessage(error)}`),
        );
    }
  }

  private release(server: string, session: string, held: Held, answered?: McpMessage): void {
    held.busy--;
    const uris = this.track(`${server}\n${session}`, answered);
    const idleMs = this.limits.sessionConnectionIdleMs;
    if (held.busy > 0 || uris > 0 || idleMs <= 0) return;
    clearTimeout(held.idleTimer);
    held.idleTimer = setTimeout(() => {
      this.logger.debug(`"${server}": closing session ${session}'s connection, idle ${idleMs} ms`);
      void this.evict(server, session, held);
    }, idleMs);
    held.idleTimer.unref();
  }

  /** Remember an answered subscribe or unsubscribe; returns how many URIs the session holds there. */
  private track(key: string, answered: McpMessage | undefined): number {
    const uri = answered?.params?.['uri'];
    const uris = this.subscribed.get(key) ?? new Set<string>();
    if (typeof uri === 'string' && answered?.method === 'resources/subscribe') uris.add(uri);
    if (typeof uri === 'string' && answered?.method === 'resources/unsubscribe') uris.delete(uri);
    if (uris.size > 0) this.subscribed.set(key, uris);
    else this.subscribed.delete(key);
    return uris.size;
  }

  private async evict(server: string, session: string, only?: Held): Promise<void> {
    const held = this.byServer.get(server)?.get(session);
    if (!held || (only !== undefined && held !== only)) return;
    this.forget(server, session, held);
    await held.connection.close();
  }

  private forget(server: string, session: string, held: Held): void {
    clearTimeout(held.idleTimer);
    const sessions = this.byServer.get(server);
    if (sessions?.get(session) !== held) return;
    sessions.delete(session);
    if (sessions.size === 0) this.byServer.delete(server);
  }
}

/** How long a log level change may take on one connection. */
const SET_LEVEL_TIMEOUT_MS = 10_000;

async function sendLogLevel(connection: McpConnection, level: string): Promise<void> {
  if (connection.capabilities?.logging === undefined || !connection.request) return;
  await connection.request({ method: 'logging/setLevel', params: { level } }, { timeoutMs: SET_LEVEL_TIMEOUT_MS });
}
