/**
 * What the gateway needs from the hub that feeds it, as interfaces the gateway owns: `McpHub`
 * implements both, tests pass small fakes. Nothing in src/gateway imports the hub class itself.
 */
import type { McpAggregate } from '../mcp/aggregate.js';
import type { McpMessage, UpstreamCallResult, UpstreamCapabilities, UpstreamProgress } from '../mcp/connection.js';
import type { ServerRequestHandler } from '../mcp/hub.js';
import type { ForwardContext } from './proxy/server-requests.js';

/** What the gateway needs to reach upstream servers; `McpHub` fits. */
export interface UpstreamCaller {
  callTool(
    server: string,
    toolName: string,
    args: Record<string, unknown>,
    options?: {
      signal?: AbortSignal;
      onprogress?: (progress: UpstreamProgress) => void;
      /** G9: `_meta` for the upstream request (W3C trace context). */
      meta?: Record<string, unknown>;
      /** G5: the gateway session it is for (an `"isolation": "session"` server runs it on that session's connection). */
      session?: string;
    },
  ): Promise<UpstreamCallResult>;
}

/** What the proxy needs from the hub (`McpHub` fits). */
export interface UpstreamProxy extends UpstreamCaller {
  readonly features: McpAggregate;
  serverRequestHandler: ServerRequestHandler | undefined;
  servers(): string[];
  request(server: string, request: McpMessage, options?: Partial<ForwardContext>): Promise<Record<string, unknown>>;
  notifyAll(notification: McpMessage): void;
  capabilities(server: string): UpstreamCapabilities | undefined;
  /** `session`: it came on that gateway session's own connection (G5, `"isolation": "session"`). */
  onNotification(listener: (server: string, notification: McpMessage, session?: string) => void): () => void;
  /** G12: the shortest re-list interval upstream servers' own `ttlMs` put in force for a list kind (of `servers`, when named). */
  listTtlMs?(kind: 'tools' | 'resources' | 'prompts', servers?: ReadonlySet<string>): number | undefined;
  /** G5: which servers get one connection per session, and closing a session's connections. */
  readonly isolated?: {
    isolates(server: string): boolean;
    setLogLevel(session: string, level: string): Promise<void>;
    closeSession(session: string): Promise<void>;
    /** The session's client (its address), for the per-client share of a server's places. */
    ownedBy?(session: string, client: string): void;
  };
}

export function isUpstreamProxy(upstream: UpstreamCaller | undefined): upstream is UpstreamProxy {
  return (
    upstream !== undefined &&
    'features' in upstream &&
    typeof (upstream as Partial<UpstreamProxy>).request === 'function'
  );
}
