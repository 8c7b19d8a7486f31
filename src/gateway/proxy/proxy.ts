/**
 * G4 — the faithful-proxy half of the gateway: everything the upstream servers offer besides
 * tools, per client session. One file per protocol family does the work:
 *   resources.ts (+ subscriptions.ts) · prompts.ts · completions.ts · server-requests.ts
 *   (sampling / elicitation / roots, progress, cancellation) · logging.ts · notifications.ts
 * and src/mcp/aggregate.ts knows which server owns which resource, template and prompt.
 *
 * Capabilities are advertised statically (the SDK fixes them per session at initialize, and
 * servers connect and drop while a session lives): a family no connected server offers answers
 * with an empty list or a clear error.
 */
import {
  type LoggingLevel,
  ProtocolErrorCode as ErrorCode,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import type { McpMessage } from '../../mcp/connection.js';
import { UpstreamError } from '../../mcp/errors.js';
import { errorMessage } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { registerCompletionHandler } from './completions.js';
import { type FanInMember, fanInFor, type UpstreamFanIn } from './fan-in.js';
import { type FeatureDirectory, scopedFeatures } from './feature-scope.js';
import { isUpstreamProxy, type UpstreamCaller, type UpstreamProxy } from '../ports.js';
import type { ClientChannel } from './channel.js';
import type { ProxyContext } from './context.js';
import { SessionLogging } from './logging.js';
import { SessionNotifications } from './notifications.js';
import { registerPromptHandlers } from './prompts.js';
import { registerResourceHandlers } from './resources.js';
import type { ResultCacheHints } from '../tools/cache-hints.js';
import { RequestRouter, type ForwardContext, type SessionExtra } from './server-requests.js';
import { Subscriptions } from './subscriptions.js';
import { ProxyError } from '../errors.js';

/** Every session is offered the whole protocol (see the file comment). */
export const GATEWAY_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

export interface GatewayProxyOptions {
  upstream: UpstreamCaller | undefined;
  /** The gateway's out-of-band send (through its notification bus). */
  send: (sessionId: string, notification: McpMessage) => void;
  /** To every session of every gateway process sharing the bus (G6). */
  sendAll: (notification: McpMessage) => void;
  sessionServer: (sessionId: string) => Server | undefined;
  liveSessions: () => string[];
  logger: Logger;
  /** Roots the operator gave each server; a multi-user gateway answers upstream `roots/list` with them. */
  operatorRoots?: (server: string) => Array<{ uri: string; name?: string }>;
  /** How long an ended request still claims what its server sends (ms). */
  attributionGraceMs?: number;
  /** G8: how long a parked 2026 call still claims what its server sends (ms). */
  parkedAttributionMs?: number;
  /** Resource subscriptions one session may hold. */
  subscriptionsPerSession?: number;
  /** G9: a profile's servers (live: a reload updates the set); what others offer besides tools is not this gateway's. */
  servers?: ReadonlySet<string>;
}

/**
 * G8: serves a 2026 request whose upstream work may ask the client something (ParkedCalls.serve):
 * the result, or `input_required` carrying the question.
 */
export type Park = (
  ctx: SessionExtra,
  run: (channel: ClientChannel) => Promise<Record<string, unknown>>,
) => Promise<Record<string, unknown>>;

export class GatewayProxy implements ProxyContext {
  readonly upstream: UpstreamProxy | undefined;
  readonly router: RequestRouter;
  readonly notifications: SessionNotifications;
  readonly subscriptions: Subscriptions;
  readonly logging: SessionLogging;
  private readonly stop: Array<() => void> = [];
  private fanIn: UpstreamFanIn | undefined;
  private readonly directory: FeatureDirectory | undefined;
  /** This gateway as the hub's fan-in knows it. */
  private readonly member: FanInMember = {
    claims: (server, session) => this.router.claims(server, session),
    route: (server, request, signal, session) => this.router.route(server, request, signal, session),
  };

  constructor(options: GatewayProxyOptions) {
    this.upstream = isUpstreamProxy(options.upstream) ? options.upstream : undefined;
    this.directory = this.upstream && scopedFeatures(this.upstream.features, options.servers);
    const logger = options.logger;
    this.router = new RequestRouter({
      sessionServer: options.sessionServer,
      liveSessions: options.liveSessions,
      ...(options.operatorRoots !== undefined && { operatorRoots: options.operatorRoots }),
      ...(options.attributionGraceMs !== undefined && { graceMs: options.attributionGraceMs }),
      ...(options.parkedAttributionMs !== undefined && { parkedMs: options.parkedAttributionMs }),
      isolates: (server) => this.upstream?.isolated?.isolates(server) ?? false,
    });
    this.notifications = new SessionNotifications(options.send, options.sendAll);
    this.subscriptions = new Subscriptions(
      async (server, method, uri, sessionId, own) => {
        // G5: on the session's own connection nothing needs attributing: what it sends is that session's.
        if (own !== undefined)
          return void (await this.requestUpstream(server, { method, params: { uri } }, { session: own }));
        const request = () => this.requestUpstream(server, { method, params: { uri } });
        await (sessionId === undefined ? request() : this.router.attributed(server, sessionId, request));
      },
      options.subscriptionsPerSession,
      (server, sessionId) => this.router.ownConnection(server, sessionId),
    );
    this.logging = new SessionLogging({
      setUpstreamLevel: (level) => this.setUpstreamLogLevel(level),
      send: (sessionId, params) => this.notifications.toSession(sessionId, { method: 'notifications/message', params }),
      liveSessions: options.liveSessions,
      owner: (server) => this.router.owner(server),
      singleUser: () => this.router.singleUser,
    });
    const upstream = this.upstream;
    if (!upstream) return;
    // G5 with G9: every gateway over the hub (main endpoint, profiles) joins its one fan-in.
    this.fanIn = fanInFor(upstream);
    this.stop.push(
      this.fanIn.join(this.member),
      upstream.features.onChange((kind) => this.notifications.listChanged(kind)),
      upstream.onNotification((server, notification, session) =>
        this.onUpstreamNotification(server, notification, session),
      ),
      upstream.features.onServerJoined((server) => this.restoreServerState(server, logger)),
    );
    logger.debug('gateway proxies resources, prompts, completions, logging and server requests');
  }

  get features(): FeatureDirectory | undefined {
    return this.directory;
  }

  /**
   * Register every non-tool handler on a session's Server. `park` (G8, a 2026 request's Server):
   * `resources/read` and `prompts/get` may return `input_required`, so an upstream's question
   * while serving them reaches the client as a tool call's does (completions have no such
   * result in that revision: a question there is refused as unattributable). `hints` (G12, the
   * same Server): the cache hints its list and read results carry.
   */
  attach(server: Server, sessionId: string, park?: Park, hints?: ResultCacheHints): void {
    const context = park ? this.parking(park) : this;
    registerResourceHandlers(server, context, sessionId, hints);
    registerPromptHandlers(server, context, sessionId, hints);
    registerCompletionHandler(server, this, sessionId);
    server.setRequestHandler('logging/setLevel', async (request) => {
      await this.logging.setLevel(sessionId, request.params.level);
      // G5: a session's own upstream connections take its level as it is (nobody else reads them).
      if (this.router.mayOwnConnections(sessionId))
        await this.upstream?.isolated?.setLogLevel(sessionId, request.params.level);
      return {};
    });
    // Single user: its roots replace --root, and upstreams re-ask for them. Several users: roots
    // belong to the operator, so a client's change is not relayed (it would reach every session's server).
    server.setNotificationHandler('notifications/roots/list_changed', async () => {
      if (this.router.singleUser) await this.upstream?.notifyAll({ method: 'notifications/roots/list_changed' });
    });
  }

  /**
   * Single user (stdio): a server → client request or log line no request can be named for goes
   * to the one session, and the client's roots pass through. Off by default (the safe side).
   */
  set singleUser(value: boolean) {
    this.router.singleUser = value;
  }

  /** The session closed: release its subscriptions, log level and own upstream connections (G5). */
  detach(sessionId: string): void {
    this.subscriptions.release(sessionId);
    this.logging.forget(sessionId);
    void this.upstream?.isolated?.closeSession(sessionId).catch(() => undefined);
  }

  /** G5: the session's client (its address), for the per-client share of isolated servers' places. */
  ownedBy(sessionId: string, client: string): void {
    this.upstream?.isolated?.ownedBy?.(sessionId, client);
  }

  /**
   * A session's request on `server`, with its cancellation and progress; upstream failures
   * become MCP errors carrying the server's code when it gave one.
   */
  forward(
    sessionId: string,
    server: string,
    extra: SessionExtra,
    request: McpMessage,
  ): Promise<Record<string, unknown>> {
    return this.router.forward(server, sessionId, extra, (context) => this.requestUpstream(server, request, context));
  }

  close(): void {
    for (const stop of this.stop.splice(0)) stop();
  }

  /** This proxy with `forward` running through `park`: the upstream's questions go back as input_required. */
  private parking(park: Park): ProxyContext {
    const proxy = this;
    return {
      get features() {
        return proxy.features;
      },
      subscriptions: this.subscriptions,
      forward: (sessionId, server, extra, request) =>
        park(extra, (channel) =>
          this.router.forwardVia(server, sessionId, channel, (context) =>
            this.requestUpstream(server, request, context),
          ),
        ),
    };
  }

  private async requestUpstream(
    server: string,
    request: McpMessage,
    context?: Partial<ForwardContext>,
  ): Promise<Record<string, unknown>> {
    if (!this.upstream) throw new ProxyError(ErrorCode.InvalidRequest, 'This gateway has no upstream MCP servers.');
    try {
      return await this.upstream.request(server, request, context);
    } catch (error) {
      if (error instanceof UpstreamError) throw new ProxyError(error.code ?? ErrorCode.InternalError, error.message);
      throw error;
    }
  }

  /** `session`: it came on that session's own connection (G5), so it is for that session only. */
  private onUpstreamNotification(server: string, notification: McpMessage, session?: string): void {
    const params = notification.params ?? {};
    if (notification.method === 'notifications/resources/updated' && typeof params['uri'] === 'string') {
      for (const { sessionId, uri } of this.subscriptions.recipients(server, params['uri'], session)) {
        this.notifications.toSession(sessionId, { method: notification.method, params: { ...params, uri } });
      }
    } else if (notification.method === 'notifications/message') {
      // Another gateway over the hub (profile) owns it, or several do: not ours to deliver.
      if (this.fanIn?.owns(this.member, server, session) !== false) this.logging.deliver(server, params, session);
    }
  }

  /** A server (re)connected: remake the subscriptions sessions hold on it, ask it for the log level. */
  private restoreServerState(server: string, logger: Logger): void {
    void this.subscriptions.restore(server).then((failed) => {
      if (failed.length > 0) logger.warn(`"${server}" reconnected; resubscribing failed for ${failed.join(', ')}`);
    });
    const level = this.fanIn?.level ?? this.logging.requested;
    if (level !== undefined && this.upstream?.capabilities(server)?.logging !== undefined) {
      this.upstream
        .request(server, { method: 'logging/setLevel', params: { level } })
        .catch((error: unknown) => logger.debug(`"${server}": logging/setLevel not sent: ${errorMessage(error)}`));
    }
  }

  private async setUpstreamLogLevel(wanted: LoggingLevel): Promise<void> {
    const upstream = this.upstream;
    // G9: with profiles over the hub, the level sent is the most verbose any of them wants.
    const level = this.fanIn ? this.fanIn.want(this.member, wanted) : wanted;
    if (!upstream || level === undefined) return;
    await Promise.all(
      upstream
        .servers()
        .filter((server) => upstream.capabilities(server)?.logging !== undefined)
        .map((server) =>
          upstream
            .request(server, { method: 'logging/setLevel', params: { level } })
            .catch((error: unknown) => errorMessage(error)),
        ),
    );
  }
}

export { isUpstreamProxy, type UpstreamProxy } from '../ports.js';
