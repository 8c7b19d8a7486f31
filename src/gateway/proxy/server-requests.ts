/**
 * G4 — requests between a client session and an upstream server, both ways.
 *
 * Client → server: `forward` runs a session's request (tool call, resource read, prompt get,
 * completion) on an upstream server with the client's cancellation (its `signal`) and, when the
 * client asked for progress, the upstream progress re-emitted under the client's own token (the
 * SDK mints a fresh token per upstream request, so two sessions' token `1` never meet).
 *
 * Server → client: one upstream connection serves every session, and a `sampling/createMessage`,
 * `elicitation/create` or `roots/list` it sends does not say which client request caused it.
 * The isolation rule (docs/security.md): in a gateway serving more than one session, nothing
 * a session causes or sends reaches another. So such a request goes to a session only when the
 * attribution table (attribution.ts) names it — the only session with a request in flight on
 * that server, or one that ended (or, G8, parked) within its window — and then on that request's
 * own stream (`extra.sendRequest`), or for a 2026 call as its next `input_required`. Anything else
 * is refused with an MCP error at once: two sessions, none, a caller whose request has already
 * ended, or a parked call (its client holds its one question). A single-user gateway (stdio)
 * routes a request it cannot attribute to its one session. On a multi-user gateway `roots/list` is
 * never asked of a client: roots belong to the operator (`--root`, a server's `roots` setting).
 */
import {
  type ClientCapabilities,
  ProtocolErrorCode as ErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { McpMessage, UpstreamProgress } from '../../mcp/connection.js';
import { ProxyError } from '../errors.js';
import { AttributionTable } from './attribution.js';
import { AnyResult, type ClientChannel, type ClientMessage, sessionChannel } from './channel.js';
import { isStateless } from '../tools/stateless.js';

export type SessionExtra = ServerContext;

/** What an upstream request needs from the client's request: cancellation and progress. */
export interface ForwardContext {
  signal: AbortSignal;
  onprogress?: (progress: UpstreamProgress) => void;
  /** G5: the session whose own connection runs it (an `"isolation": "session"` server, src/mcp/session-connections.ts). */
  session?: string;
}

/**
 * How long the gateway waits for a client to answer a server → client request. Long, because an
 * elicitation waits for a person; the upstream server's own timeout still applies (it cancels,
 * and the cancellation reaches the client).
 */
export const CLIENT_ANSWER_TIMEOUT_MS = 10 * 60_000;

/** How long an ended or cancelled request still claims what its server sends (the default). */
export const DEFAULT_ATTRIBUTION_GRACE_MS = 30_000;

/** G8: how long a parked 2026 call still claims what its server sends (the default). */
export const DEFAULT_PARKED_ATTRIBUTION_MS = 1_000;

export interface RequestRouterOptions {
  sessionServer: (sessionId: string) => Server | undefined;
  liveSessions: () => string[];
  /** Roots the operator gave a server (multi-user gateways answer `roots/list` from these). */
  operatorRoots?: (server: string) => Array<{ uri: string; name?: string }>;
  /** See `DEFAULT_ATTRIBUTION_GRACE_MS`. */
  graceMs?: number;
  /** See `DEFAULT_PARKED_ATTRIBUTION_MS`. */
  parkedMs?: number;
  /** G5: servers configured `"isolation": "session"` (one upstream connection per session). */
  isolates?: (server: string) => boolean;
}

export class RequestRouter {
  /** Per server: who has a request in flight or recent, and the channel to ask that client through. */
  readonly table: AttributionTable<ClientChannel | undefined>;
  /** One user (stdio): what cannot be attributed may go to the one open session. */
  singleUser = false;

  constructor(private readonly options: RequestRouterOptions) {
    this.table = new AttributionTable({
      graceMs: options.graceMs ?? DEFAULT_ATTRIBUTION_GRACE_MS,
      parkedMs: options.parkedMs ?? DEFAULT_PARKED_ATTRIBUTION_MS,
    });
  }

  /** Run a session's request on `server`; server → client requests meanwhile can route to it. */
  forward<T>(
    server: string,
    sessionId: string,
    extra: SessionExtra,
    run: (context: ForwardContext) => Promise<T>,
  ): Promise<T> {
    const channel = sessionChannel(extra, () => this.options.sessionServer(sessionId)?.getClientCapabilities());
    return this.forwardVia(server, sessionId, channel, run);
  }

  /** The same through any channel (G8: a 2026 request's server → client requests become input_required). */
  async forwardVia<T>(
    server: string,
    sessionId: string,
    channel: ClientChannel,
    run: (context: ForwardContext) => Promise<T>,
  ): Promise<T> {
    const session = this.ownConnection(server, sessionId);
    const key = session === undefined ? server : sessionKey(server, session);
    const claim = this.table.begin(key, sessionId, channel, channel.lingers);
    // G8: a parked 2026 call parks (and resumes) its claims with it.
    const release = channel.hold?.(claim);
    try {
      const onprogress = channel.progress();
      return await run({ signal: channel.signal, ...(onprogress && { onprogress }), ...(session && { session }) });
    } finally {
      release?.();
      claim.end();
    }
  }

  /**
   * Work the gateway does for a session outside a forwarded request (a subscribe, an unsubscribe
   * when it closes): what the server logs meanwhile is that session's, and no one else's.
   */
  async attributed<T>(server: string, sessionId: string, run: () => Promise<T>): Promise<T> {
    const claim = this.table.begin(server, sessionId, undefined);
    try {
      return await run();
    } finally {
      claim.end();
    }
  }

  /** The session that caused what `server` sends now, if exactly one can have (logging uses it too). */
  owner(server: string): string | undefined {
    return this.table.attribute(server).sessionId;
  }

  /**
   * G5 with G9: how many of this gateway's sessions could have caused what `server` sends now —
   * requests in flight, or within their grace period or parked window; with `session` (its own
   * connection), 1 when that session is one of ours. The hub's fan-in (fan-in.ts) asks every
   * gateway over it.
   */
  claims(server: string, session?: string): number {
    if (session !== undefined) return this.options.sessionServer(session) ? 1 : 0;
    return this.table.attribute(server).sessions;
  }

  /**
   * G5: the session whose own upstream connection runs its requests on `server`: an
   * `"isolation": "session"` server, on a multi-user gateway, for a 2025 session. A 2026-07-28
   * request has no session (its pseudo id lives one request), so it takes the shared connection,
   * where the attribution table and MRTR (input-required.ts) tie what the server asks to the call.
   */
  ownConnection(server: string, sessionId: string): string | undefined {
    return this.mayOwnConnections(sessionId) && this.options.isolates?.(server) ? sessionId : undefined;
  }

  /** A 2025 session on a multi-user gateway (see `ownConnection`). */
  mayOwnConnections(sessionId: string): boolean {
    return !this.singleUser && !isStateless(sessionId);
  }

  /**
   * The hub's `serverRequestHandler`: answer an upstream's request through the right client.
   * `session`: it came on that session's own connection, so it is that session's (src/mcp/session-connections.ts).
   */
  async route(
    server: string,
    request: McpMessage,
    signal: AbortSignal,
    session?: string,
  ): Promise<Record<string, unknown>> {
    if (request.method === 'roots/list' && !this.singleUser)
      return { roots: this.options.operatorRoots?.(server) ?? [] };
    const message = { method: request.method, params: request.params ?? {} };
    if (session !== undefined) return this.routeToSession(server, session, message, signal);
    const { sessionId, live, sessions, parked } = this.table.attribute(server);
    if (sessions > 1) {
      throw new ProxyError(
        ErrorCode.InternalError,
        `toolsearch gateway: cannot route ${request.method} from "${server}": requests of ${sessions} client sessions are in flight on it and the request does not say which one caused it. Retry when only one is running.`,
      );
    }
    if (sessionId !== undefined && live) {
      this.requireCapability(live.capabilities(), server, request);
      return live.ask(message, signal, CLIENT_ANSWER_TIMEOUT_MS);
    }
    const only = this.singleUser ? this.onlySession() : undefined;
    if (!only) throw new ProxyError(ErrorCode.InternalError, refusal(request.method, server, sessionId, parked));
    this.requireCapability(only.server.getClientCapabilities(), server, request);
    return (await only.server.request(message, AnyResult, {
      signal,
      timeout: CLIENT_ANSWER_TIMEOUT_MS,
    })) as Record<string, unknown>;
  }

  /**
   * From a session's own connection: to that session and no other. On the request's own stream
   * while one of its requests runs on the server, else on the session's standalone stream (a
   * sampling sent after the call ended still reaches the session that caused it).
   */
  private async routeToSession(
    server: string,
    session: string,
    message: ClientMessage,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const { live } = this.table.attribute(sessionKey(server, session));
    if (live) {
      this.requireCapability(live.capabilities(), server, message);
      return live.ask(message, signal, CLIENT_ANSWER_TIMEOUT_MS);
    }
    const client = this.options.sessionServer(session);
    if (!client)
      throw new ProxyError(
        ErrorCode.InternalError,
        `toolsearch gateway: refused ${message.method} from "${server}": the session whose connection sent it has closed.`,
      );
    this.requireCapability(client.getClientCapabilities(), server, message);
    return (await client.request(message, AnyResult, { signal, timeout: CLIENT_ANSWER_TIMEOUT_MS })) as Record<
      string,
      unknown
    >;
  }

  private onlySession(): { sessionId: string; server: Server } | undefined {
    const live = this.options.liveSessions();
    const server = live.length === 1 ? this.options.sessionServer(live[0]!) : undefined;
    return server && { sessionId: live[0]!, server };
  }

  private requireCapability(caps: ClientCapabilities | undefined, server: string, request: McpMessage): void {
    const missing = missingCapability(caps, request);
    if (missing)
      throw new ProxyError(
        ErrorCode.MethodNotFound,
        `toolsearch gateway: the client session that caused ${request.method} from "${server}" does not support ${missing}.`,
      );
  }
}

/** Why a server → client request no running request can take is refused (one session claims it, or none). */
function refusal(method: string, server: string, sessionId: string | undefined, parked: boolean): string {
  const refused = `toolsearch gateway: refused ${method} from "${server}"`;
  if (sessionId === undefined)
    return `${refused}: no client request is in flight on it, so it cannot be attributed to a session.`;
  if (parked)
    return `${refused}: the call that caused it waits for its client to answer an earlier question (input_required), one question at a time; it is not sent to anyone else.`;
  return `${refused}: the client request that caused it has ended, and it is not sent to anyone else.`;
}

/** The attribution key of a session's own connection to `server` (apart from the shared connection's). */
function sessionKey(server: string, session: string): string {
  return `${server}\n${session}`;
}

/** The client capability a server → client request needs, when the session's client lacks it. */
function missingCapability(caps: ClientCapabilities | undefined, request: McpMessage): string | undefined {
  switch (request.method) {
    case 'sampling/createMessage':
      return caps?.sampling ? undefined : 'sampling';
    case 'roots/list':
      return caps?.roots ? undefined : 'roots';
    case 'elicitation/create': {
      if (!caps?.elicitation) return 'elicitation';
      const mode = request.params?.['mode'] === 'url' ? 'url' : 'form';
      const declared = caps.elicitation as { form?: unknown; url?: unknown };
      // A bare `elicitation: {}` means form mode (the spec's backwards-compatible reading).
      if (mode === 'url') return declared.url ? undefined : 'URL-mode elicitation';
      return declared.form || !declared.url ? undefined : 'form-mode elicitation';
    }
    default:
      return request.method;
  }
}
