/**
 * G3/G6 — the HTTP gateway's open sessions, and how a request finds its session.
 *
 * Each entry is a promise that settles once the session's MCP `Server` is connected to its
 * transport: every request of a session waits on it. (Handing out a transport before its `Server`
 * is connected drops the request: the SDK transport has no `onmessage` yet. Two requests of a
 * session arriving together on a replica that has not seen it — the GET stream and a POST, as the
 * SDK client sends right after connecting — hit exactly that.)
 *
 * With a shared store every request also asks the store whether the session still lives: a
 * session ended by DELETE on another replica, expired, or lost by a Redis that restarted empty
 * answers 404, so the client starts a new session instead of continuing with nothing discovered.
 */
import type { ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { errorMessage } from '../../../util/errors.js';
import type { Logger } from '../../../util/log.js';
import { GatewayFullError, SessionGoneError } from '../../errors.js';
import type { ToolsearchGateway } from '../../gateway.js';
import { replyError, storeUnavailableMessage } from './replies.js';
import { plural } from '../../../core/plural.js';

export type SessionLookup =
  | { ok: true; transport: StreamableHTTPServerTransport }
  | { ok: false; status: 404 | 503; message: string; retryAfterSeconds?: number };

/** Builds a transport for a session opened on another process, in its post-initialize state. */
export type ResumedTransportFactory = (sessionId: string) => StreamableHTTPServerTransport;

/**
 * G5: whether one more session fits under the cap; throws GatewayFullError when not. Checked
 * before a session is resumed here (a resume takes a place like a new session).
 */
export type RoomCheck = () => void;

/** At most one "sessions vanished from the store" warning per this interval (a Redis restart loses them all at once). */
const VANISHED_WARNING_INTERVAL_MS = 30_000;

export class HttpSessions {
  private readonly entries = new Map<string, Promise<StreamableHTTPServerTransport | undefined>>();
  private readonly open = new Map<string, StreamableHTTPServerTransport>();
  /** Resumes under way: they hold a place under the cap until they are open or failed. */
  private resuming = 0;
  private vanishedSinceWarning = 0;
  private lastVanishedWarning = 0;

  constructor(
    private readonly gateway: ToolsearchGateway,
    private readonly createResumed: ResumedTransportFactory,
    private readonly logger: Logger,
    private readonly checkRoom: RoomCheck = () => undefined,
    private readonly fullRetryAfterSeconds = 10,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Places taken under the session cap: open sessions and resumes under way. */
  get occupied(): number {
    return this.open.size + this.resuming;
  }

  /** The transport of a session open on this process, if any (no store check). */
  local(sessionId: string): StreamableHTTPServerTransport | undefined {
    return this.open.get(sessionId);
  }

  /** A session initialized here: usable at once (its `Server` was connected before the handshake). */
  add(sessionId: string, transport: StreamableHTTPServerTransport): void {
    this.open.set(sessionId, transport);
    this.entries.set(sessionId, Promise.resolve(transport));
  }

  /** The session's transport closed. */
  forget(sessionId: string, transport: StreamableHTTPServerTransport): void {
    if (this.open.get(sessionId) !== transport) return;
    this.open.delete(sessionId);
    this.entries.delete(sessionId);
  }

  async closeAll(): Promise<void> {
    const transports = [...this.open.values()];
    this.open.clear();
    this.entries.clear();
    await Promise.allSettled(transports.map((t) => t.close()));
  }

  /** The session of a request carrying `Mcp-Session-Id`, ready to handle it, or why not. */
  async lookup(sessionId: string): Promise<SessionLookup> {
    const pending = this.entries.get(sessionId);
    try {
      if (pending) {
        const transport = await pending;
        if (!transport) return notFound();
        if (this.gateway.sessions.shared && !(await this.gateway.sessions.get(sessionId))) {
          await this.vanished(sessionId);
          return notFound();
        }
        return { ok: true, transport };
      }
      const transport = await this.resume(sessionId);
      return transport ? { ok: true, transport } : notFound();
    } catch (error) {
      if (error instanceof SessionGoneError) return notFound();
      if (error instanceof GatewayFullError)
        return { ok: false, status: 503, message: error.message, retryAfterSeconds: this.fullRetryAfterSeconds };
      this.logger.debug(`session ${sessionId}: session store failed: ${errorMessage(error)}`);
      return { ok: false, status: 503, message: storeUnavailableMessage(errorMessage(error)) };
    }
  }

  /**
   * Before a new session: with a shared store down, say 503 (retry shortly) up front. The SDK
   * would turn a store failure while it accepts the handshake into a 400 "Parse error", which no
   * client retries. One store read per initialize.
   */
  async storeUnavailable(): Promise<string | undefined> {
    if (!this.gateway.sessions.shared) return undefined;
    try {
      await this.gateway.sessions.get('\0probe');
      return undefined;
    } catch (error) {
      return storeUnavailableMessage(errorMessage(error));
    }
  }

  /**
   * DELETE: the tombstone is written (and every process told to close the session) BEFORE the
   * client hears 200, so no request it sends afterwards, to any replica, finds the session alive.
   * The SDK transport's own DELETE handling would answer first. A store failure answers 503: DELETE
   * is safe to retry.
   */
  async end(sessionId: string, res: ServerResponse): Promise<void> {
    try {
      await this.gateway.endSession(sessionId);
    } catch (error) {
      return replyError(res, 503, storeUnavailableMessage(errorMessage(error)), 1);
    }
    res.writeHead(200).end();
  }

  /**
   * Scale-out: a session id this process never saw, but which the session store knows (another
   * gateway process opened it and may be gone), continues here with its discovered tools.
   * Concurrent requests of the session share one resume. G5: a resume takes a place under the
   * session cap like a new session; a full process answers 503 (the client retries, maybe on
   * another replica) instead of growing past its limit.
   */
  private resume(sessionId: string): Promise<StreamableHTTPServerTransport | undefined> {
    const pending = (async () => {
      if (!(await this.gateway.sessions.get(sessionId))) {
        this.logger.debug(`session ${sessionId}: not in the session store (never opened, ended or expired): 404`);
        return undefined;
      }
      this.checkRoom();
      this.resuming++;
      const transport = await this.connectResumed(sessionId).finally(() => this.resuming--);
      this.open.set(sessionId, transport);
      this.logger.info(`session ${sessionId} resumed from the session store`);
      return transport;
    })();
    this.entries.set(sessionId, pending);
    // A failed or refused resume leaves nothing behind: the next request tries again.
    pending.then(
      (transport) => {
        if (!transport && this.entries.get(sessionId) === pending) this.entries.delete(sessionId);
      },
      () => {
        if (this.entries.get(sessionId) === pending) this.entries.delete(sessionId);
      },
    );
    return pending;
  }

  private async connectResumed(sessionId: string): Promise<StreamableHTTPServerTransport> {
    const transport = this.createResumed(sessionId);
    await this.gateway.connect(transport, sessionId, { openInStore: false }).catch(async (error: unknown) => {
      await transport.close().catch(() => undefined);
      throw error;
    });
    return transport;
  }

  /** A session open here is gone from the shared store: close it everywhere; say why once in a while. */
  private async vanished(sessionId: string): Promise<void> {
    const deleted = await this.gateway.sessions.wasDeleted?.(sessionId).catch(() => false);
    await this.gateway.endSession(sessionId).catch(() => undefined);
    if (deleted) return this.logger.debug(`session ${sessionId} was ended on another replica: 404`);
    this.vanishedSinceWarning++;
    const now = Date.now();
    if (now - this.lastVanishedWarning < VANISHED_WARNING_INTERVAL_MS) return;
    this.logger.warn(
      `${plural(this.vanishedSinceWarning, 'open session')} no longer in the session store (e.g. ${sessionId}): expired, or the store lost its data ` +
        `(a Redis restarted without persistence?). Answering 404 so clients start new sessions.`,
    );
    this.vanishedSinceWarning = 0;
    this.lastVanishedWarning = now;
  }
}

/**
 * G6: a POST's SSE response goes out with its first event (a notification, the result, or the
 * SDK's keep-alive after 15 s) instead of at once. A replica that dies before answering then
 * leaves the balancer with no response, which it turns into a clean 502 for the client (and
 * may retry where safe), instead of a cut stream the SDK client waits out until its request
 * timeout (60 s by default).
 */
export function holdHeadersUntilFirstEvent(res: ServerResponse): void {
  res.flushHeaders = () => undefined;
}

function notFound(): SessionLookup {
  return { ok: false, status: 404, message: 'Session not found; initialize a new session.' };
}
