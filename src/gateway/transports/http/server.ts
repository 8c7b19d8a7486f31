/**
 * G3 over Streamable HTTP on bare `node:http`: one SDK transport (and one gateway session) per
 * MCP session id. Safe defaults: bound to 127.0.0.1, browser `Origin`s other than loopback
 * rejected and `Host` checked against exact loopback names (DNS-rebinding defences; the Host check
 * is the MCP SDK's own), optional bearer token compared in constant time.
 *
 * G5: binding beyond loopback needs a token (or an explicit opt-out); open sessions are capped
 * (a full gateway answers 503 with Retry-After); an initialize the SDK refuses (406, 415, 400)
 * leaves nothing behind — the session reaches the store only once its handshake is accepted.
 * Per session: an SSE stream its client does not read is closed past `streamQueuedBytes`
 * (stream-queue.ts); `initialize` is rate-limited per client address (initialize-rate.ts, 429).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LIMITS } from '../../../core/limits.js';
import { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { errorMessage } from '../../../util/errors.js';
import { silentLogger, type Logger } from '../../../util/log.js';
import { UnauthenticatedBindError } from '../../errors.js';
import type { ToolsearchGateway } from '../../gateway.js';
import { GatewayFullError, ListenError } from '../../errors.js';
import {
  type GatewayToken,
  hostChecker,
  isLoopbackHost,
  isOriginAllowed,
  liveBearerMatcher,
  tokenList,
} from './guards.js';
import { clientIdentity, type ClientIdentity, soleIdentity } from '../../sessions/identity.js';
import { clientAddress, rateKey } from './client-address.js';
import { IdleSessionSweeper } from './idle.js';
import { InitializeRate } from './initialize-rate.js';
import { headerValue, readJsonBody, replyError, sendJson, tooManyInitializesMessage } from './replies.js';
import { isModernRequest, modernEntry } from './modern.js';
import { markInitialized } from './resume.js';
import { HttpSessions, holdHeadersUntilFirstEvent } from './session-registry.js';
import { capStreamQueues } from './stream-queue.js';

export interface HttpGatewayOptions {
  /** Default 127.0.0.1. Binding elsewhere exposes every upstream tool: set a token. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Endpoint path. Default `/mcp`. */
  path?: string;
  /**
   * Require `Authorization: Bearer <token>`. Required when `host` is not loopback (see
   * `allowUnauthenticated`). Several: one per client, each its own identity (C15, G11). A function
   * is read at each request: a profile's token, which a reload may change (undefined then: no
   * token asked).
   */
  token?: GatewayToken;
  /** G9: the profile this endpoint serves (scopes its clients' identities). */
  profile?: string;
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
  /** G5: bytes one SSE stream may hold unread before it is closed (limit `streamQueuedBytes`; 0: no cap). */
  maxStreamQueuedBytes?: number;
  /** G5: `initialize` requests per client address (limits `initializePerMinute`, 0: no limit, and `initializeBurst`). */
  initializeRate?: { perMinute: number; burst: number };
  /**
   * G5: reverse proxies whose `X-Forwarded-For` names the client (addresses, CIDR ranges, or
   * `loopback`, `linklocal`, `uniquelocal`). Default none: the TCP peer is the client.
   */
  trustProxy?: readonly string[];
  /**
   * H3: other paths (the status page, `/healthz`), after the same Origin and Host checks as the MCP
   * endpoint; `authorized` is the bearer-token check's answer for the first token, the operator's
   * (true when no token is set). Returns
   * true once it has answered; otherwise the request gets 404.
   */
  routes?: ExtraRoutes;
  /** G9: handed the node:http server before it listens (metrics count its sockets' bytes). */
  observe?: (server: HttpServer) => void;
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
const NO_SESSION = 'No session: send an initialize request first.';

/** G9: the MCP endpoint without a listener of its own (a profile's, mounted on the main gateway's routes). */
export interface HttpGatewayHandler {
  /** Answer one request (errors are logged and answered 500). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  sessionCount(): number;
  close(): Promise<void>;
}

export async function startHttpGateway(
  gateway: ToolsearchGateway,
  options: HttpGatewayOptions = {},
): Promise<RunningHttpGateway> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const path = options.path ?? DEFAULT_HTTP_PATH;
  const handler = createHttpGatewayHandler(gateway, options);
  const server = createServer((req, res) => void handler.handle(req, res));
  options.observe?.(server);
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
    sessionCount: () => handler.sessionCount(),
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The endpoint's logic: guards, sessions, the SDK transports. `startHttpGateway` gives it a listener. */
export function createHttpGatewayHandler(
  gateway: ToolsearchGateway,
  options: HttpGatewayOptions = {},
): HttpGatewayHandler {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const path = options.path ?? DEFAULT_HTTP_PATH;
  const logger = options.logger ?? silentLogger;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_LIMITS.requestBodyBytes;
  const maxSessions = options.maxSessions ?? DEFAULT_LIMITS.sessions;
  const maxQueued = options.maxStreamQueuedBytes ?? DEFAULT_LIMITS.streamQueuedBytes;
  const { perMinute, burst } = options.initializeRate ?? {
    perMinute: DEFAULT_LIMITS.initializePerMinute,
    burst: DEFAULT_LIMITS.initializeBurst,
  };
  const initializeRate = new InitializeRate(perMinute, burst);
  const addressOf = clientAddress(options.trustProxy);
  /** G5: a slow reader's stream is closed, not buffered; the session lives on. */
  const capQueues = (transport: StreamableHTTPServerTransport, sessionId: string): void =>
    capStreamQueues(transport, maxQueued, ({ stream, queuedBytes }) => {
      gateway.operations.events.emit({ type: 'limit', limit: 'streamQueuedBytes', sessionId });
      logger.warn(
        `session ${sessionId}: closed its ${stream} stream: ${queuedBytes} bytes queued that the client has not read ` +
          `(limit streamQueuedBytes = ${maxQueued})`,
      );
    });
  /** Initializes under way: they count against the cap until they are accepted or refused. */
  let initializing = 0;
  /** G5: one cap for sessions opened here, initializes and resumes under way. */
  const checkRoom = (): void => {
    if (sessions.occupied + initializing < maxSessions) return;
    gateway.operations.events.emit({ type: 'limit', limit: 'sessions' });
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
  const matchToken = options.token !== undefined ? liveBearerMatcher(options.token) : undefined;
  // A function may ask no token now (a profile with none, on a gateway with none): then all pass.
  const checkToken =
    matchToken &&
    ((header: string | undefined) => {
      const matched = matchToken(header);
      return !matched.checked || matched.token !== undefined;
    });
  const loopbackOnly = isLoopbackHost(host);
  if (!loopbackOnly && tokenList(options.token).length === 0 && options.allowUnauthenticated !== true)
    throw new UnauthenticatedBindError(host);
  const profile = options.profile !== undefined ? { profile: options.profile } : {};
  /** C15/G11: who sent this request (sessions/identity.ts): the token it passed, else its address. */
  const identityOf = (req: IncomingMessage): ClientIdentity => {
    const token = matchToken?.(req.headers.authorization).token;
    return clientIdentity({
      transport: 'http',
      address: rateKey(addressOf(req)),
      ...(token !== undefined && { token }),
      ...profile,
    });
  };
  /** C15: learning alone is for an endpoint one identity reaches (one token); read per request, tokens may change. */
  const noteAudience = () =>
    gateway.clients.learnFrom(
      endpointKey,
      soleIdentity({ transport: 'http', tokens: tokenList(options.token), ...profile }),
    );
  const endpointKey = {};
  noteAudience();
  const checkHost =
    loopbackOnly || (options.allowedHosts ?? []).length > 0 ? hostChecker(host, options.allowedHosts ?? []) : undefined;
  const modern = modernEntry(gateway, maxBodyBytes, logger, maxQueued);
  const activity = new IdleSessionSweeper(
    options.idleSessionTimeoutMs ?? DEFAULT_IDLE_SESSION_TIMEOUT_MS,
    (sessionId) => {
      const transport = sessions.local(sessionId);
      if (!transport) return false;
      logger.debug(`session ${sessionId} idle: closing it`);
      void transport.close();
      return true;
    },
  );

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const notFound = () => sendJson(res, 404, { error: `not found; the MCP endpoint is ${path}` });
    if (url.pathname !== path && !options.routes) return notFound();
    if (!isOriginAllowed(req.headers.origin, options.allowedOrigins ?? [])) {
      return replyError(res, 403, `Origin ${req.headers.origin ?? ''} is not allowed.`);
    }
    if (checkHost && !checkHost(req, res)) return;
    if (url.pathname !== path) {
      // The status data and metrics are the operator's: the first token (the only one, or the
      // first line of a token file), not every client's.
      const matched = matchToken?.(req.headers.authorization);
      const authorized = matched === undefined || !matched.checked || matched.token === tokenList(options.token)[0];
      return void ((await options.routes!(req, res, url, authorized)) || notFound());
    }
    if (checkToken && !checkToken(req.headers.authorization)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return replyError(res, 401, 'Missing or invalid bearer token.');
    }
    if (typeof options.token === 'function') noteAudience();
    const identity = identityOf(req);
    const sessionId = headerValue(req.headers['mcp-session-id']);
    if (sessionId !== undefined) {
      const found = await sessions.lookup(sessionId);
      if (!found.ok) {
        const retryAfter = found.status === 503 ? (found.retryAfterSeconds ?? 1) : undefined;
        return replyError(res, found.status, found.message, retryAfter);
      }
      // The client ends its session: forget it everywhere (a shared store keeps a tombstone) before answering.
      if (req.method === 'DELETE') return sessions.end(sessionId, res);
      // G5: whose session this is, for the per-client share of isolated servers (first request wins).
      gateway.proxy.ownedBy(sessionId, rateKey(addressOf(req)));
      gateway.clients.identify(sessionId, identity);
      activity.track(sessionId, res);
      if (req.method === 'POST') holdHeadersUntilFirstEvent(res);
      await found.transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') return replyError(res, 400, NO_SESSION);
    const body = await readJsonBody(req, maxBodyBytes);
    if (!body.ok) return replyError(res, body.status, body.message);
    // G8: a 2026-07-28 request (no session, the envelope in _meta) goes to the SDK's stateless entry.
    if (await isModernRequest(req, body.value)) return modern.handle(req, res, body.value, identity);
    if (isInitializeRequest(body.value)) {
      const address = addressOf(req);
      // G5: IPv4 per address, IPv6 by its /64 (client-address.ts).
      const verdict = initializeRate.take(rateKey(address));
      if (!verdict.ok) {
        gateway.operations.events.emit({ type: 'limit', limit: 'initializePerMinute' });
        logger.warn(
          `initialize from ${address} refused: 429 (limits initializePerMinute = ${perMinute}, initializeBurst = ${burst})`,
        );
        return replyError(res, 429, tooManyInitializesMessage(perMinute, burst), verdict.retryAfterSeconds);
      }
    }
    try {
      checkRoom();
    } catch (error) {
      return replyError(res, 503, errorMessage(error), FULL_RETRY_AFTER_SECONDS);
    }
    initializing++;
    try {
      await initializeSession(req, res, body.value, identity);
    } finally {
      initializing--;
    }
  };

  /**
   * A new session. Its `Server` must be connected before the SDK reads the handshake, but the
   * session is registered (here and in the store) only when the SDK accepts it; a refused
   * initialize closes what was built for it.
   */
  const initializeSession = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    identity: ClientIdentity,
  ): Promise<void> => {
    if (!isInitializeRequest(body)) return replyError(res, 400, NO_SESSION);
    const unavailable = await sessions.storeUnavailable();
    if (unavailable !== undefined) {
      return replyError(res, 503, unavailable, 1);
    }
    const id = randomUUID();
    let accepted = false;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: async (sid) => {
        accepted = true;
        gateway.clients.identify(sid, identity);
        await gateway.sessions.open?.(sid);
        sessions.add(sid, transport);
        activity.track(sid, res);
      },
    });
    transport.onclose = () => {
      sessions.forget(id, transport);
      activity.forget(id);
    };
    capQueues(transport, id);
    await gateway.connect(transport, id, { openInStore: false });
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      if (!accepted) await transport.close().catch(() => undefined);
    }
  };

  /** G6: the transport of a session opened on another process, as its initialize left it. */
  const resumedTransport = (sessionId: string): StreamableHTTPServerTransport => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId });
    markInitialized(transport, sessionId);
    capQueues(transport, sessionId);
    transport.onclose = () => {
      sessions.forget(sessionId, transport);
      activity.forget(sessionId);
    };
    return transport;
  };

  return {
    handle: (req, res) =>
      handle(req, res).catch((error: unknown) => {
        logger.error(`HTTP ${req.method ?? ''} ${req.url ?? ''}: ${errorMessage(error)}`);
        if (!res.headersSent) replyError(res, 500, 'Internal error');
        else res.end();
      }),
    sessionCount: () => sessions.size,
    close: async () => {
      activity.stop();
      await modern.close();
      await sessions.closeAll();
    },
  };
}

export {
  bearerChecker,
  liveBearerMatcher,
  tokenList,
  hostChecker,
  isLoopbackHost,
  isOriginAllowed,
  LOOPBACK_HOSTNAMES,
} from './guards.js';
