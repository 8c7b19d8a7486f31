/**
 * `McpConnection` over the v2 client SDK (@modelcontextprotocol/client): stdio, Streamable HTTP
 * or legacy HTTP+SSE, speaking whichever protocol era the server does (G7).
 */
import {
  Client,
  type McpSubscription,
  type AuthProvider,
  ProtocolError,
  ProtocolErrorCode,
  type Transport,
  type VersionNegotiationOptions,
  type ClientCapabilities,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { PaginatedResultSchema, ResultSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.js';
import { isStdioServer, type ServerConfig } from './config.js';
import { cappedFetch, type MessageTooLargeError } from './capped-fetch.js';
import type {
  ForwardOptions,
  McpConnection,
  McpConnectionEvents,
  McpMessage,
  UpstreamCallResult,
  UpstreamCapabilities,
  UpstreamPrompt,
  UpstreamResource,
  UpstreamResourceTemplate,
  UpstreamTool,
} from './connection.js';
import { walkPages } from './pagination.js';
import { ListedTools } from './listed-tools.js';
import { type ListKind, pageTtlMs, WalkTtls } from './list-ttl.js';
import { VERSION } from '../util/version.js';
import { MCP_APPS_CAPABILITY, MCP_APPS_EXTENSION } from '../core/visibility.js';
import { connectOptions, eraOf, isTransportMismatch, isUnsupportedVersion, negotiation } from './remote/eras.js';
import { memoryKey, type ServerMemory, type ServerMemoryStore } from './remote/memory.js';
import { createTransport, type TransportKind, transportPlan } from './remote/transport.js';
import { identityOf, LenientToolsPageSchema, requestOptions } from './sdk-wire.js';
import { onChildExit, onFirstStdout, releaseChild } from './stdio-child.js';

export const HUB_CLIENT_INFO = { name: 'toolsearch-hub', version: VERSION } as const;

/**
 * Upstream list_changed bursts (server-everything sends one right after init) are coalesced: one
 * report at most this long after the first change of a burst. Not a trailing debounce: a server
 * changing its list more often than this would postpone the report forever (a stale list).
 */
const LIST_CHANGED_COALESCE_MS = 50;

/** What the connections of one hub share. */
export interface SdkConnectionOptions {
  readonly limits?: Limits;
  /** G7: eras and transports learned per server; without it every start probes. */
  readonly memory?: ServerMemoryStore;
  /** G7: the OAuth provider of an HTTP server (undefined: no OAuth for it). */
  readonly authProvider?: (server: string, config: ServerConfig) => AuthProvider | undefined;
  readonly childEnv?: Readonly<Record<string, string>>; // G1: added to a spawned server's environment
}

class SdkConnection implements McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private closing = false;
  /** G13: let go without ending the process (`detach`): a later close leaves it alone. */
  private detached = false;
  private closed: Promise<void> | undefined;
  /** Kept after close starts (the SDK forgets it then) so a last-resort kill can still find it. */
  private knownPid: number | undefined;
  private exit: { code: number | null; signal: string | null } | undefined;
  /** Set when an HTTP message passed upstreamMessageBytes: the connection is closed and made again. */
  private tooLarge: MessageTooLargeError | undefined;
  /** The last tools/list's tools (listed-tools.ts). */
  private readonly listed = new ListedTools();

  private subscription: McpSubscription | undefined;
  /** G7: the OAuth of an HTTP server (one per connection, shared by its transport attempts). */
  private auth: AuthProvider | undefined;
  private readonly limits: Limits;
  private readonly ttls = new WalkTtls(); // G12: each list's TTL as its last complete walk carried it

  constructor(
    readonly server: string,
    private readonly config: ServerConfig,
    private readonly events: McpConnectionEvents,
    private readonly options: SdkConnectionOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.auth = isStdioServer(config) ? undefined : options.authProvider?.(server, config);
  }

  exitStatus(): { code: number | null; signal: string | null } | undefined {
    return this.exit;
  }

  get pid(): number | undefined {
    const live = this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
    return live ?? this.knownPid;
  }

  /**
   * G7: each transport of the plan in turn (a URL without a type: Streamable HTTP, then SSE on a
   * 4xx), in the era the entry asks for or was last seen speaking; what worked is remembered.
   */
  async connect(signal: AbortSignal): Promise<void> {
    const key = memoryKey(this.server, identityOf(this.config));
    const memory = (await this.options.memory?.get(key)) ?? {};
    const plan = transportPlan(this.config, memory.transport);
    let first: unknown;
    for (const [index, kind] of plan.entries()) {
      try {
        await this.attemptEras(kind, memory, signal);
      } catch (error) {
        if (this.closing || signal.aborted) throw error;
        const next = plan[index + 1];
        if (next !== undefined && isTransportMismatch(error)) {
          first ??= error;
          await this.discard();
          continue;
        }
        // A remembered era that no longer works is forgotten: the next attempt probes again.
        if (memory.era !== undefined) await this.options.memory?.update(key, { era: undefined });
        // Neither transport fits: the first one's answer says more (a 2025 server refused, …).
        throw first !== undefined && isTransportMismatch(error) ? first : error;
      }
      await this.remember(key, kind, memory);
      return;
    }
  }

  /**
   * A stdio server of unknown era is first spoken to in 2025 (one spawn; nearly every stdio server
   * is a 2025 server); only one that refuses it with "unsupported protocol version" is probed, and
   * its era is then remembered so the probe's sibling spawn happens once.
   */
  private async attemptEras(kind: TransportKind, memory: ServerMemory, signal: AbortSignal): Promise<void> {
    const optimistic = kind === 'stdio' && memory.era === undefined && (this.config.protocol ?? 'auto') === 'auto';
    if (!optimistic)
      return this.attempt(kind, memory, signal, negotiation(kind, this.config.protocol, this.config.timeoutMs));
    try {
      await this.attempt(kind, memory, signal, { mode: 'legacy' });
    } catch (error) {
      if (this.closing || signal.aborted || !isUnsupportedVersion(error)) throw error;
      await this.discard();
      await this.attempt(kind, memory, signal, negotiation(kind, 'auto', this.config.timeoutMs));
    }
  }

  private async attempt(
    kind: TransportKind,
    memory: ServerMemory,
    signal: AbortSignal,
    versionNegotiation: VersionNegotiationOptions,
  ): Promise<void> {
    const client = new Client(HUB_CLIENT_INFO, {
      // G4: declared up front (the SDK refuses handlers otherwise, and servers hide their sampling/
      // elicitation/roots tools from clients without them); the gateway routes or refuses each request.
      // G8: MCP Apps — the gateway passes `ui://` resources and tools' `_meta.ui` through, so it
      // declares the extension for the hosts behind it (a host without UI ignores the metadata).
      capabilities: {
        sampling: {},
        elicitation: { form: {}, url: {} },
        roots: { listChanged: true },
        // A fresh copy: the constant is readonly, the SDK's capability type is not.
        extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [...MCP_APPS_CAPABILITY.mimeTypes] } },
      } satisfies ClientCapabilities,
      versionNegotiation,
    });
    this.relayServerRequests(client);
    this.relayListChanges(client);
    const transport = createTransport(kind, this.config, {
      limits: this.limits,
      authProvider: this.auth,
      onStderr: (line) => this.events.onStderr?.(line),
      childEnv: this.options.childEnv,
      // G5: the stdio message cap, counted while reading (capped-fetch.ts).
      fetch: cappedFetch(this.server, this.limits.upstreamMessageBytes, (error) => this.recycle(error)),
      onSpawned: (spawned) => {
        this.knownPid = spawned.pid ?? undefined;
        // H3: how it ended, for "exited with code 3"; G13: its first byte ends an install.
        onChildExit(spawned, (exit) => (this.exit = exit));
        onFirstStdout(spawned, () => this.events.onFirstOutput?.());
      },
    });
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (!this.closing && this.client === client) this.events.onClosed(this.tooLarge?.message ?? 'connection closed');
    };
    client.onerror = () => {
      // Transport errors are followed by onclose when fatal; the hub reacts there.
    };
    signal.addEventListener('abort', () => void this.close(), { once: true });
    await client.connect(transport, connectOptions(kind, this.config.protocol, memory.era, signal));
    if (client.getProtocolEra() === 'modern') await this.listen(client);
  }

  /** Drop a failed attempt's client before the next transport is tried. */
  private async discard(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.transport = undefined;
    await client?.close().catch(() => undefined);
  }

  private async remember(key: string, kind: TransportKind, memory: ServerMemory): Promise<void> {
    const era = this.client ? eraOf(this.client) : undefined;
    const change: Partial<ServerMemory> = {};
    // Only stdio servers get a prior (a probe there is a second spawn; over HTTP it is one request).
    if (kind === 'stdio' && era !== undefined && JSON.stringify(era) !== JSON.stringify(memory.era)) change.era = era;
    if (kind !== 'stdio' && !isStdioServer(this.config) && this.config.type === undefined && memory.transport !== kind)
      change.transport = kind;
    if (Object.keys(change).length > 0) await this.options.memory?.update(key, change);
  }

  /**
   * G7: a 2026-07-28 server sends no unsolicited notifications; changes come on a
   * `subscriptions/listen` stream, reopened when the server ends it unexpectedly.
   */
  private async listen(client: Client): Promise<void> {
    const caps = client.getServerCapabilities();
    const filter = {
      ...(caps?.tools?.listChanged && { toolsListChanged: true }),
      ...(caps?.prompts?.listChanged && { promptsListChanged: true }),
      ...(caps?.resources?.listChanged && { resourcesListChanged: true }),
    };
    if (Object.keys(filter).length === 0) return;
    const subscription = await client.listen(filter);
    this.subscription = subscription;
    void subscription.closed.then(async (how) => {
      if (how !== 'remote' || this.closing || this.client !== client) return;
      try {
        await this.listen(client);
        // Changes made while the stream was down were missed: refresh as if told.
        this.events.onToolsChanged();
      } catch {
        this.events.onClosed('the change subscription ended');
      }
    });
  }

  /** Title and instructions from the initialize result; the search indexes them as server evidence. */
  serverInfo(): { title?: string; instructions?: string } | undefined {
    const version = this.client?.getServerVersion();
    const instructions = this.client?.getInstructions();
    const title = version?.title;
    return { ...(title !== undefined && { title }), ...(instructions !== undefined && { instructions }) };
  }

  get capabilities(): UpstreamCapabilities | undefined {
    return this.client?.getServerCapabilities() as UpstreamCapabilities | undefined;
  }

  /** Server → client requests and the notifications the gateway relays go to the events. */
  private relayServerRequests(client: Client): void {
    const relay = async (request: McpMessage, signal: AbortSignal) => {
      if (!this.events.onServerRequest)
        throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${request.method} is not relayed by this gateway`);
      return this.events.onServerRequest(request, signal);
    };
    // The SDK validates the results we return against each method's result schema. On a
    // 2026-07-28 connection the same handlers answer the server's input-required rounds.
    client.setRequestHandler('sampling/createMessage', (request, ctx) => relay(request, ctx.mcpReq.signal) as never);
    client.setRequestHandler('elicitation/create', (request, ctx) => relay(request, ctx.mcpReq.signal) as never);
    client.setRequestHandler('roots/list', (request, ctx) => relay(request, ctx.mcpReq.signal) as never);
    const notify = (notification: McpMessage) => {
      if (!this.closing) this.events.onNotification?.(notification);
    };
    client.setNotificationHandler('notifications/resources/updated', notify);
    client.setNotificationHandler('notifications/message', notify);
  }

  /** list_changed in either era (unsolicited, or on the listen stream), coalesced per kind. */
  private relayListChanges(client: Client): void {
    const debounced = (report: () => void) => {
      let timer: NodeJS.Timeout | undefined;
      return () => {
        if (timer) return;
        timer = setTimeout(() => {
          timer = undefined;
          if (!this.closing && this.client === client) report();
        }, LIST_CHANGED_COALESCE_MS);
        timer.unref?.();
      };
    };
    client.setNotificationHandler(
      'notifications/tools/list_changed',
      debounced(() => this.events.onToolsChanged()),
    );
    client.setNotificationHandler(
      'notifications/prompts/list_changed',
      debounced(() => this.events.onListChanged?.('prompts')),
    );
    client.setNotificationHandler(
      'notifications/resources/list_changed',
      debounced(() => this.events.onListChanged?.('resources')),
    );
  }

  /**
   * Every tool, all pages, within the limits (G5: pages, tools per server, refresh timeout; a
   * list cut at a cap is reported through `onLimit`). Tools are validated one by one (the SDK's
   * `listTools` rejects the whole page when a single tool is malformed): a bad one is reported and
   * left out.
   */
  async listTools(): Promise<UpstreamTool[]> {
    const items = await this.walkList<unknown>('tools/list', 'tools', LenientToolsPageSchema);
    const onInvalid = (name: string, why: string) => this.events.onInvalidTool?.(name, why);
    return this.listed.validate(items, onInvalid, this.limits.listingSliceMs);
  }

  listTtlMs(kind: ListKind): number | undefined {
    return this.ttls.of(kind);
  }

  listResources(): Promise<UpstreamResource[]> {
    return this.listAll<UpstreamResource>('resources/list', 'resources', 'resources');
  }

  listResourceTemplates(): Promise<UpstreamResourceTemplate[]> {
    return this.listAll<UpstreamResourceTemplate>('resources/templates/list', 'resourceTemplates', 'resources');
  }

  listPrompts(): Promise<UpstreamPrompt[]> {
    return this.listAll<UpstreamPrompt>('prompts/list', 'prompts', 'prompts');
  }

  async request(request: McpMessage, options: ForwardOptions): Promise<Record<string, unknown>> {
    const client = this.requireClient();
    // A loose result schema: what the server answered passes through unchanged.
    return (await client
      .request(
        { method: request.method, params: request.params ?? {} } as never,
        ResultSchema.loose(),
        requestOptions(options, this.limits.callTotalTimeoutMs),
      )
      .catch(async (error: unknown) => Promise.reject(await this.explain(error)))) as Record<string, unknown>;
  }

  async notify(notification: McpMessage): Promise<void> {
    await this.requireClient().notification(notification as never);
  }

  /** Every item of a paginated list the server offers; empty when it lacks the capability. */
  private async listAll<T>(method: string, key: string, capability: 'resources' | 'prompts'): Promise<T[]> {
    if (!this.requireClient().getServerCapabilities()?.[capability]) return [];
    const schema = PaginatedResultSchema.extend({ [key]: z.array(z.looseObject({})), ttlMs: z.unknown().optional() });
    return this.walkList<T>(method, key, schema);
  }

  /** G5: every page of `method` within the limits (a cut is reported); G12: its TTL recorded. */
  private async walkList<T>(method: string, key: string, schema: z.ZodType): Promise<T[]> {
    const client = this.requireClient();
    const ttls: (number | undefined)[] = [];
    const walk = await walkPages(
      `"${this.server}" ${method}`,
      async (cursor, signal) => {
        const page = (await client.request(
          { method, params: cursor === undefined ? {} : { cursor } } as never,
          schema,
          { signal },
        )) as Record<string, unknown> & { nextCursor?: string };
        ttls.push(pageTtlMs(page['ttlMs']));
        return { items: page[key] as T[], nextCursor: page.nextCursor };
      },
      // The per-server item cap of tools bounds every list.
      {
        maxPages: this.limits.pagesPerList,
        maxItems: this.limits.toolsPerServer,
        deadlineMs: this.limits.refreshTimeoutMs,
      },
    );
    if (walk.truncated) this.events.onLimit?.(walk.truncated.message);
    this.ttls.record(method, ttls);
    return walk.items;
  }

  async callTool(name: string, args: Record<string, unknown>, options: ForwardOptions): Promise<UpstreamCallResult> {
    const client = this.requireClient();
    const params = { name, arguments: args, ...(options.meta && { _meta: options.meta }) };
    const result = await client
      .callTool(params, requestOptions(options, this.limits.callTotalTimeoutMs))
      .catch(async (error: unknown) => Promise.reject(await this.explain(error)));
    return result as UpstreamCallResult;
  }

  /** G13: let the process go without ending it (stdio-child.ts): an install runs to its end. */
  detach(): void {
    this.closing = true;
    if (releaseChild(this.transport)) this.detached = true;
    else void this.close();
  }

  /** Every caller waits for the same close (the SDK may take ~2 s to stop a stdio server). */
  close(): Promise<void> {
    if (this.detached) return Promise.resolve();
    this.closing = true;
    const subscription = this.subscription;
    this.closed ??= (async () => {
      await subscription?.close().catch(() => undefined);
      await this.client?.close();
    })().catch(() => undefined);
    return this.closed;
  }

  /** G5: an HTTP message past the cap: close this connection (the hub makes it again). */
  private recycle(error: MessageTooLargeError): void {
    this.tooLarge ??= error;
    void this.client?.close().catch(() => undefined);
  }

  /**
   * A request that failed because its answer passed the cap says so, not just "connection
   * closed"; a 403 insufficient_scope becomes "needs sign-in" with the wider scope (G7).
   */
  private async explain(error: unknown): Promise<unknown> {
    if (this.tooLarge) return this.tooLarge;
    const auth = this.auth as { explain?: (error: unknown) => Promise<unknown> } | undefined;
    return auth?.explain ? auth.explain(error) : error;
  }

  private requireClient(): Client {
    if (!this.client || this.closing) throw new Error('not connected');
    return this.client;
  }
}

/** Timeout, cancellation and progress for one forwarded request. */
/** The default `ConnectionFactory` for a config's servers. */
export function sdkConnectionFactory(
  configs: Readonly<Record<string, ServerConfig>>,
  options: Limits | SdkConnectionOptions = {},
) {
  const shared: SdkConnectionOptions = 'toolsPerServer' in options ? { limits: options as Limits } : options;
  return (server: string, events: McpConnectionEvents): McpConnection => {
    const config = configs[server];
    if (!config) throw new Error(`no config for MCP server "${server}"`);
    return new SdkConnection(server, config, events, shared);
  };
}
