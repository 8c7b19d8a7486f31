/**
 * G5 with G9 — profiles share one hub (one connection per server), and so do the main endpoint's
 * sessions: an upstream's request (sampling, elicitation) or log line may belong to a session of
 * any gateway over that hub. The hub has one `serverRequestHandler`; this is it. Each gateway's
 * router says how many of its sessions could have caused traffic from a server now (a call in
 * flight or just ended, or the session whose own connection sent it); the one gateway with a
 * claim routes it (and itself refuses when its own sessions are several). Claims in two gateways
 * are refused like two sessions in one; with no claim, the first gateway decides (over stdio, its
 * one session; else a refusal). Before, each gateway installed itself as the handler and the last
 * one created (the last profile) got every request, refusing those of every other endpoint.
 * Likewise the log level asked of upstreams is the most verbose any gateway over the hub wants
 * (each gateway's own rule, logging.ts), not the last one computed.
 */
import { type LoggingLevel, ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { McpMessage } from '../../mcp/connection.js';
import { ProxyError } from '../errors.js';
import type { UpstreamProxy } from '../ports.js';
import { mostVerbose } from './logging.js';

/** One gateway's side of the fan-in (its request router). */
export interface FanInMember {
  /** How many of this gateway's sessions could have caused what `server` sends now (`session`: 1 if it is ours). */
  claims(server: string, session?: string): number;
  route(server: string, request: McpMessage, signal: AbortSignal, session?: string): Promise<Record<string, unknown>>;
}

export class UpstreamFanIn {
  private readonly members: FanInMember[] = [];
  private readonly levels = new Map<FanInMember, LoggingLevel>();
  private sentLevel: LoggingLevel | undefined;

  constructor(private readonly upstream: UpstreamProxy) {}

  /** Joins the fan-in (installing it as the hub's handler with the first member); returns leave. */
  join(member: FanInMember): () => void {
    this.members.push(member);
    this.upstream.serverRequestHandler = (server, request, signal, session) =>
      this.route(server, request, signal, session);
    return () => {
      const at = this.members.indexOf(member);
      if (at >= 0) this.members.splice(at, 1);
      this.levels.delete(member);
      if (this.members.length === 0) this.upstream.serverRequestHandler = undefined;
    };
  }

  /** The log level asked of upstreams: the most verbose any gateway over the hub wants. */
  get level(): LoggingLevel | undefined {
    return mostVerbose(this.levels.values());
  }

  /** `member` wants upstreams at `level`: the level to send when the combined one changed, else undefined. */
  want(member: FanInMember, level: LoggingLevel): LoggingLevel | undefined {
    this.levels.set(member, level);
    const combined = this.level;
    if (combined === this.sentLevel) return undefined;
    this.sentLevel = combined;
    return combined;
  }

  /** Whether `member` is the gateway that owns what `server` sends now (see the file comment). */
  owns(member: FanInMember, server: string, session?: string): boolean {
    return this.owner(server, session) === member;
  }

  private owner(server: string, session?: string): FanInMember | 'several' | undefined {
    const claimed = this.members.filter((m) => m.claims(server, session) > 0);
    if (claimed.length > 1) return 'several';
    return claimed[0] ?? this.members[0];
  }

  private async route(
    server: string,
    request: McpMessage,
    signal: AbortSignal,
    session?: string,
  ): Promise<Record<string, unknown>> {
    const owner = this.owner(server, session);
    if (owner === 'several')
      throw new ProxyError(
        ErrorCode.InternalError,
        `toolsearch gateway: cannot route ${request.method} from "${server}": client sessions of several endpoints (profiles) have requests in flight on it and the request does not say which one caused it. Retry when only one is running.`,
      );
    if (!owner)
      throw new ProxyError(ErrorCode.InternalError, `toolsearch gateway: no session to route ${request.method}`);
    return owner.route(server, request, signal, session);
  }
}

const fanIns = new WeakMap<UpstreamProxy, UpstreamFanIn>();

/** The one fan-in of a hub, shared by every gateway over it. */
export function fanInFor(upstream: UpstreamProxy): UpstreamFanIn {
  let fanIn = fanIns.get(upstream);
  if (!fanIn) fanIns.set(upstream, (fanIn = new UpstreamFanIn(upstream)));
  return fanIn;
}
