/**
 * Typed errors of the gateway's session layer. Each has a stable `name` and a message that says
 * what to do next.
 */
import { ToolsearchError } from '../core/errors.js';
import { plural } from '../core/plural.js';

/**
 * G6: the session is no longer in the (shared) session store: its client ended it with DELETE on
 * some replica, it expired, or the store lost its data. The HTTP gateway answers 404 so the client
 * starts a new session instead of continuing with nothing discovered.
 */
export class SessionGoneError extends ToolsearchError {
  override name = 'SessionGoneError';
  constructor(readonly sessionId: string) {
    super(
      `Session ${sessionId} is not in the session store (ended, expired, or lost by the store); start a new session.`,
    );
  }
}

/** G6: `--session-store` (or `TOOLSEARCH_SESSION_STORE`, `toolSearch.sessionStore`) cannot be used. */
export class SessionStoreConfigError extends ToolsearchError {
  override name = 'SessionStoreConfigError';
  constructor(reason: string) {
    super(`Session store: ${reason}`);
  }
}

/**
 * G4: a proxied request the gateway cannot route, or an upstream server refused. `code` is the
 * JSON-RPC error code the client (or the upstream server, for server → client requests) gets;
 * the SDK sends `message` as is (an `McpError` would prefix it with "MCP error N:" once per hop).
 */
export class ProxyError extends ToolsearchError {
  override name = 'ProxyError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * G5: an HTTP gateway bound beyond loopback without a bearer token would let anyone who can reach
 * the port call every upstream tool. Set a token, or opt out explicitly.
 */
export class UnauthenticatedBindError extends ToolsearchError {
  override name = 'UnauthenticatedBindError';
  constructor(readonly host: string) {
    super(
      `Refusing to serve on ${host} without a bearer token: anyone who can reach it could call every tool. ` +
        'Set TOOLSEARCH_TOKEN or --token-file (or --token), bind to 127.0.0.1, or pass --dangerously-allow-unauthenticated if the network is trusted.',
    );
  }
}

/** G5: a `--trust-proxy` entry that is no address, range or proxy-addr name. */
export class TrustProxyError extends ToolsearchError {
  override name = 'TrustProxyError';
  constructor(trusted: readonly string[], cause: unknown) {
    super(
      `--trust-proxy ${trusted.join(',')}: ${cause instanceof Error ? cause.message : String(cause)} ` +
        '(each entry is an IP address, a CIDR range, or loopback, linklocal, uniquelocal)',
    );
  }
}

/**
 * G5: the HTTP gateway already holds `limits.sessions` sessions (opened here or resumed from a
 * shared store). It answers 503 with Retry-After; a place frees when a session ends or idles out.
 */
export class GatewayFullError extends ToolsearchError {
  override name = 'GatewayFullError';
  constructor(readonly maxSessions: number) {
    super(`The gateway is full (${plural(maxSessions, 'session')}); retry later or end unused sessions with DELETE.`);
  }
}

/**
 * H4: the HTTP gateway could not bind its address (port in use, no such local address, no
 * permission). One line that says what to change; raised before any upstream server is started.
 */
export class ListenError extends ToolsearchError {
  override name = 'ListenError';
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
  ) {
    super(`cannot listen on ${host}:${port}: ${describeListenCode(code)}`);
  }
}

function describeListenCode(code: string | undefined): string {
  switch (code) {
    case 'EADDRINUSE':
      return 'the port is in use (another toolsearch running?); stop it or pick another with --http HOST:PORT';
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such local address; use 127.0.0.1, 0.0.0.0 or an address of this machine';
    case 'EACCES':
      return 'permission denied (ports below 1024 need privileges); pick a port above 1024';
    default:
      return code ?? 'unknown error';
  }
}

/** E5: a fixed tool list runs every found tool through `call_tool`, so it cannot be turned off. */
export class FixedListWithoutCallThroughError extends ToolsearchError {
  override name = 'FixedListWithoutCallThroughError';
  constructor() {
    super(
      'A fixed tool list needs call_tool (every found tool is called through it): leave call-through on, or set toolList to "growing".',
    );
  }
}
