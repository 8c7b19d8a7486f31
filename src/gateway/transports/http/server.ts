/**
 * G3 over Streamable HTTP on bare `node:http`: one SDK transport (and one gateway session) per
 * MCP session id. Safe defaults: bound to 127.0.0.1, browser `Origin`s other than loopback
 * rejected and `Host` checked against exact loopback names (DNS-rebinding defences; the Host check
 * is the MCP SDK's own), optional bearer token compared in constant time.
 *
 * G5: binding beyond loopback needs a token (or an explicit opt-out); open sessions are capped
 * (a full gateway answers 503 with Retry-After); an initialize the SDK refuses (406, 415, 400)
 * leaves nothing behind — the session reaches the store only once its handshake is accepted.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIPv4, type AddressInfo } from 'node:net';
import { DEFAULT_LIMITS } from '../../../core/limits.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../../util/errors.js';
import { silentLogger, type Logger } from '../../../util/log.js';
import { UnauthenticatedBindError } from '../../errors.js';
import type { ToolsearchGateway } from '../../gateway.js';
import { GatewayFullError, ListenError } from '../../errors.js';
import { HttpSessions, holdHeadersUntilFirstEvent } from './session-registry.js';

export interface HttpGatewayOptions {
  /** Default 127.0.0.1. Binding elsewhere exposes every upstream tool: set a token. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Endpoint path. Default `/mcp`. */
  path?: string;
  /** Require `Authorization: Bearer <token>`. Required when `host` is not loopback (see `allowUnauthenticated`). */
  token?: string;
  /** Serve beyond loopback without a token (a trusted network). Without it that throws UnauthenticatedBindError. */
  allowUnauthenticated?: boolean;
  /** Extra browser origins allowed besides loopback ones, e.g. `https://app.example.com`. */
  allowedOrigins?: readonly string[];
  /**
   * Extra `Host` header names (no port) accepted when bound to loopback, where only the exact
   * loopback names are accepted by default (a second DNS-rebinding defence, for clients sending no
   * Origin). Bound elsewhere, listing names turns the Host check on for them.
   */
  allowedHosts?: readonly string[];
  /**
   * G5: open sessions at most (opened here or resumed from a shared store); a new or resumed one
   * past it gets 503 with Retry-After. Default DEFAULT_LIMITS.sessions.
   */
  maxSessions?: number;
  /**
   * Close sessions with no request for this long (clients that vanished without DELETE); 0 keeps
   * them forever. With a shared session store the session itself survives and can be resumed.
   * Default 30 min.
   */
  idleSessionTimeoutMs?: number;
  /** Largest accepted request body (limit `requestBodyBytes`). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * H3: other paths (the status page, `/healthz`), after the same Origin and Host checks as the MCP
   * endpoint; `authorized` is the bearer-token check's answer (true when no token is set). Returns
   * true once it has answered; otherwise the request gets 404.
   */
  routes?: ExtraRoutes;
  logger?: Logger;
}

export type ExtraRoutes = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  authorized: boolean,
) => boolean | Promise<boolean>;

export interface RunningHttpGateway {
  /** The MCP endpoint, e.g. `http://127.0.0.1:39123/mcp`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Number of open MCP sessions. */
  sessionCount(): number;
  close(): Promise<void>;
}

export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PATH = '/mcp';
export const DEFAULT_IDLE_SESSION_TIMEOUT_MS = DEFAULT_LIMITS.idleSessionTimeoutMs;
/** Seconds a client is asked to wait when the gateway is full (sessions end on DELETE or idle expiry). */
export const FULL_RETRY_AFTER_SECONDS = 10;

export async function startHttpGateway(
  gateway: ToolsearchGateway,
  options: HttpGatewayOptions = {},
): Promise<RunningHttpGateway> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const path = options.path ?? DEFAULT_HTTP_PATH;
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_LIMITS.requestBodyBytes;
  const maxSessions = options.maxSessions ?? DEFAULT_LIMITS.sessions;
  /** Initializes under way: they count against the cap until they are accepted or refused. */
  let initializing = 0;
  /** G5: one cap for sessions opened here, initializes and resumes under way. */
  const checkRoom = (): void => {
    if (sessions.occupied + initializing < maxSessions) return;
    logger.warn(`session limit reached (${maxSessions} open, limit sessions): answering 503`);
    throw new GatewayFullError(maxSessions);
  };
  const sessions = new HttpSessions(
    gateway,
    (sessionId) => resumedTransport(sessionId),
    logger,
    checkRoom,
    FULL_RETRY_AFTER_SECONDS,
  );
  const checkToken = options.token !== undefined ? bearerChecker(options.token) : undefined;
  const loopbackOnly = isLoopbackHost(host);
  if (!loopbackOnly && checkToken === undefined && options.allowUnauthenticated !== true)
    throw new UnauthenticatedBindError(host);
  const checkHost =
    loopbackOnly || (options.allowedHosts ?? []).length > 0 ? hostChecker(host, options.allowedHosts ?? []) : undefined;
  const activity = new SessionActivity(options.idleSessionTimeoutMs ?? DEFAULT_IDLE_SESSION_TIMEOUT_MS, (sessionId) => {
    const transport = sessions.local(sessionId);
    if (!transport) return false;
    logger.debug(`session ${sessionId} idle: closing it`);
    void transport.close();
    return true;
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const notFound = () => sendJson(res, 404, { error: `not found; the MCP endpoint is ${path}` });
    if (url.pathname !== path && !options.routes) return notFound();
    if (!isOriginAllowed(req.headers.origin, options.allowedOrigins ?? [])) {
      return sendJson(res, 403, jsonRpcError(`Origin ${req.headers.origin ?? ''} is not allowed.`));
    }
    if (checkHost && !checkHost(req, res)) return;
    if (url.pathname !== path) {
      const authorized = checkToken === undefined || checkToken(req.headers.authorization);
      return void ((await options.routes!(req, res, url, authorized)) || notFound());
    }
    if (checkToken && !checkToken(req.headers.authorization)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJson(res, 401, jsonRpcError('Missing or invalid bearer token.'));
    }
    const sessionId = headerValue(req.headers['mcp-session-id']);
    if (sessionId !== undefined) {
      const found = await sessions.lookup(sessionId);
      if (!found.ok) {
        if (found.status === 503) res.setHeader('Retry-After', String(found.retryAfterSeconds ?? 1));
        return sendJson(res, found.status, jsonRpcError(found.message));
      }
      // The client ends its session: forget it everywhere (a shared store keeps a tombstone) before answering.
      if (req.method === 'DELETE') return sessions.end(sessionId, res);
      activity.track(sessionId, res);
      if (req.method === 'POST') holdHeadersUntilFirstEvent(res);
      await found.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') return sendJson(res, 400, jsonRpcError('No session: send an initialize request first.'));
    try {
      checkRoom();
    } catch (error) {
      res.setHeader('Retry-After', String(FULL_RETRY_AFTER_SECONDS));
      return sendJson(res, 503, jsonRpcError(errorMessage(error)));
    }
    initializing++;
    try {
      await initializeSession(req, res);
    } finally {
      initializing--;
    }
  };

  /**
   * A new session. Its `Server` must be connected before the SDK reads the handshake, but the
   * session is registered (here and in the store) only when the SDK accepts it; a refused
   * initialize closes what was built for it.
   */
  const initializeSession = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readJsonBody(req, maxBodyBytes);
    if (!body.ok) return sendJson(res, body.status, jsonRpcError(body.message));
    if (!isInitializeRequest(body.value))
      return sendJson(res, 400, jsonRpcError('No session: send an initialize request first.'));
    const unavailable = await sessions.storeUnavailable();
    if (unavailable !== undefined) {
      res.setHeader('Retry-After', '1');
      return sendJson(res, 503, jsonRpcError(unavailable));
    }
    const id = randomUUID();
    let accepted = false;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: async (sid) => {
        accepted = true;
        await gateway.sessions.open?.(sid);
        sessions.add(sid, transport);
        activity.track(sid, res);
      },
    });
    transport.onclose = () => {
      sessions.forget(id, transport);
      activity.forget(id);
    };
    await gateway.connect(transport, id, { openInStore: false });
    try {
      await transport.handleRequest(req, res, body.value);
    } finally {
      if (!accepted) await transport.close().catch(() => undefined);
    }
  };

  /** G6: the transport of a session opened on another process, as its initialize left it. */
  const resumedTransport = (sessionId: string): StreamableHTTPServerTransport => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
    markInitialized(transport, sessionId);
    transport.onclose = () => {
      sessions.forget(sessionId, transport);
      activity.forget(sessionId);
    };
    return transport;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error(`HTTP ${req.method ?? ''} ${req.url ?? ''}: ${errorMessage(error)}`);
      if (!res.headersSent) sendJson(res, 500, jsonRpcError('Internal error'));
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ListenError(host, options.port ?? 0, error.code)),
    );
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}${path}`,
    host: address.address,
    port: address.port,
    sessionCount: () => sessions.size,
    close: async () => {
      activity.stop();
      await sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Last-request times and open requests (a standing GET stream counts as activity) per session;
 * a periodic sweep closes sessions idle past the timeout.
 */
class SessionActivity {
  private readonly lastSeen = new Map<string, number>();
  private readonly open = new Map<string, number>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly expire: (sessionId: string) => boolean,
  ) {
    if (idleMs > 0) {
      this.timer = setInterval(() => this.sweep(), Math.min(60_000, Math.max(10, idleMs / 2)));
      this.timer.unref();
    }
  }

  track(sessionId: string, res: ServerResponse): void {
    this.lastSeen.set(sessionId, Date.now());
    this.open.set(sessionId, (this.open.get(sessionId) ?? 0) + 1);
    res.once('close', () => {
      this.lastSeen.set(sessionId, Date.now());
      const n = (this.open.get(sessionId) ?? 1) - 1;
      if (n > 0) this.open.set(sessionId, n);
      else this.open.delete(sessionId);
    });
  }

  forget(sessionId: string): void {
    this.lastSeen.delete(sessionId);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [sessionId, seen] of this.lastSeen) {
      if (seen > cutoff || this.open.has(sessionId)) continue;
      if (!this.expire(sessionId)) this.lastSeen.delete(sessionId);
    }
  }
}

/** Exact loopback host names (URL `hostname` form: IPv6 in brackets). No prefixes: `127.0.0.1.evil.com` is not loopback. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** No Origin (non-browser clients) is fine; a browser origin must be loopback or listed. */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const { hostname, protocol } = new URL(origin);
    return (
      (protocol === 'http:' || protocol === 'https:') &&
      (LOOPBACK_HOSTNAMES.includes(hostname) || hostname.endsWith('.localhost'))
    );
  } catch {
    return false;
  }
}

/** A bind address on this machine only: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}

/**
 * The `Host` check, by the MCP SDK's `hostHeaderValidation` (exact hostnames, any port): loopback
 * names, the bound address, and the names listed. It is Express-shaped; this adapts it to bare
 * `node:http` (it calls `res.status(code).json(body)` to refuse, `next()` to accept).
 */
export function hostChecker(
  boundHost: string,
  allowed: readonly string[],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  const validate = hostHeaderValidation([...new Set([...LOOPBACK_HOSTNAMES, bound, ...allowed])]);
  return (req, res) => {
    let ok = false;
    const expressLike = { status: (code: number) => ({ json: (body: unknown) => sendJson(res, code, body) }) };
    validate(req as never, expressLike as never, () => {
      ok = true;
    });
    return ok;
  };
}

/** Constant-time bearer check: both sides hashed to equal length first. */
export function bearerChecker(token: string): (header: string | undefined) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (header) => {
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    const given = createHash('sha256')
      .update(match?.[1] ?? '')
      .digest();
    return timingSafeEqual(expected, given) && match !== null;
  };
}

/**
 * Put a fresh SDK transport in the state its initialize handshake would leave (that handshake
 * happened on another process). The SDK has no public API for this; the check below turns an SDK
 * change into a clear error instead of a silently broken resume.
 */
function markInitialized(transport: StreamableHTTPServerTransport, sessionId: string): void {
  const inner = (transport as unknown as { _webStandardTransport?: { sessionId?: string; _initialized?: boolean } })
    ._webStandardTransport;
  if (inner?._initialized !== false)
    throw new Error('cannot resume the session: the MCP SDK transport internals changed');
  inner.sessionId = sessionId;
  inner._initialized = true;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type BodyResult = { ok: true; value: unknown } | { ok: false; status: number; message: string };

async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return { ok: false, status: 413, message: `Request body over ${maxBytes} bytes.` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: the body is not JSON.' };
  }
}

function jsonRpcError(message: string) {
  return { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
