/**
 * G4 — requests between a client session and an upstream server, both ways.
 *
 * Client → server: `forward` runs a session's request (tool call, resource read, prompt get,
 * completion) on an upstream server with the client's cancellation (its `signal`) and, when the
 * client asked for progress, the upstream progress re-emitted under the client's own token (the
 * SDK mints a fresh token per upstream request, so two sessions' token `1` never meet).
 *
 * Server → client: one upstream connection serves every session, and a `sampling/createMessage`,
 * `elicitation/create` or `roots/list` it sends does not say which client request caused it. So
 * it goes to the session whose request is in flight on that server — only when exactly one
 * session has one — on that request's own stream (`extra.sendRequest`). With none in flight it
 * goes to the only open session when there is exactly one (stdio, or a single HTTP client);
 * otherwise, or when the chosen client lacks the capability, the server gets an MCP error at once.
 * A request is never guessed onto another user's client.
 */
import { ProtocolErrorCode as ErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpMessage, UpstreamProgress } from '../../mcp/connection.js';
import { ProxyError } from '../errors.js';

export type SessionExtra = ServerContext;

/** A client's answer passed through as it came (the upstream server validates it). */
const AnyResult = z.looseObject({});

/** What an upstream request needs from the client's request: cancellation and progress. */
export interface ForwardContext {
  signal: AbortSignal;
  onprogress?: (progress: UpstreamProgress) => void;
}

interface InFlight {
  readonly sessionId: string;
  readonly extra: SessionExtra;
}

/**
 * How long the gateway waits for a client to answer a server → client request. Long, because an
 * elicitation waits for a person; the upstream server's own timeout still applies (it cancels,
 * and the cancellation reaches the client).
 */
export const CLIENT_ANSWER_TIMEOUT_MS = 10 * 60_000;

export class RequestRouter {
  private readonly inFlight = new Map<string, Set<InFlight>>();

  constructor(
    private readonly sessionServer: (sessionId: string) => Server | undefined,
    private readonly liveSessions: () => string[],
  ) {}

  /** Run a session's request on `server`; server → client requests meanwhile can route to it. */
  async forward<T>(
    server: string,
    sessionId: string,
    extra: SessionExtra,
    run: (context: ForwardContext) => Promise<T>,
  ): Promise<T> {
    const entry: InFlight = { sessionId, extra };
    let set = this.inFlight.get(server);
    if (!set) this.inFlight.set(server, (set = new Set()));
    set.add(entry);
    try {
      return await run(forwardContext(extra));
    } finally {
      set.delete(entry);
      if (set.size === 0) this.inFlight.delete(server);
    }
  }

  /** The hub's `serverRequestHandler`: answer an upstream's request through the right client. */
  async route(server: string, request: McpMessage, signal: AbortSignal): Promise<Record<string, unknown>> {
    const bySession = new Map<string, InFlight>();
    for (const entry of this.inFlight.get(server) ?? []) bySession.set(entry.sessionId, entry);
    const message = { method: request.method, params: request.params ?? {} };
    if (bySession.size > 1) {
      throw new ProxyError(
        ErrorCode.InternalError,
        `toolsearch gateway: cannot route ${request.method} from "${server}": requests of ${bySession.size} client sessions are in flight on it and the request does not say which one caused it. Retry when only one is running.`,
      );
    }
    const [caller] = bySession.values();
    if (caller) {
      this.requireCapability(caller.sessionId, server, request);
      return (await caller.extra.mcpReq.send(message, AnyResult, {
        signal,
        timeout: CLIENT_ANSWER_TIMEOUT_MS,
      })) as Record<string, unknown>;
    }
    const live = this.liveSessions();
    const only = live.length === 1 ? this.sessionServer(live[0]!) : undefined;
    if (!only) {
      throw new ProxyError(
        ErrorCode.InternalError,
        `toolsearch gateway: cannot route ${request.method} from "${server}": no client request is in flight on it and ${live.length} sessions are open.`,
      );
    }
    this.requireCapability(live[0]!, server, request);
    return (await only.request(message, AnyResult, { signal, timeout: CLIENT_ANSWER_TIMEOUT_MS })) as Record<
      string,
      unknown
    >;
  }

  private requireCapability(sessionId: string, server: string, request: McpMessage): void {
    const missing = missingCapability(this.sessionServer(sessionId), request);
    if (missing)
      throw new ProxyError(
        ErrorCode.MethodNotFound,
        `toolsearch gateway: the client session that caused ${request.method} from "${server}" does not support ${missing}.`,
      );
  }
}

/** The client capability a server → client request needs, when the session's client lacks it. */
function missingCapability(session: Server | undefined, request: McpMessage): string | undefined {
  const caps = session?.getClientCapabilities();
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

/** The client's cancellation, and progress re-emitted under the client's own token. */
function forwardContext(extra: SessionExtra): ForwardContext {
  const token = extra.mcpReq._meta?.progressToken;
  if (token === undefined) return { signal: extra.mcpReq.signal };
  return {
    signal: extra.mcpReq.signal,
    onprogress: (progress) => {
      extra.mcpReq
        .notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
        .catch(() => undefined);
    },
  };
}
