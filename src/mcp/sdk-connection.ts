/**
 * `McpConnection` over @modelcontextprotocol/sdk 1.x: stdio (spawned process) or Streamable HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PaginatedResultSchema,
  ResourceUpdatedNotificationSchema,
  ResultSchema,
  ToolSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.js';
import { isStdioServer, type ServerConfig } from './config.js';
import { httpTarget } from './url-credentials.js';
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
import { lineSplitter, type LineSplitterLimits } from './lines.js';
import { walkPages } from './pagination.js';
import { VERSION } from '../util/version.js';
import { MCP_APPS_CAPABILITY, MCP_APPS_EXTENSION } from '../core/visibility.js';

export const HUB_CLIENT_INFO = { name: 'toolsearch-hub', version: VERSION } as const;

/** Upstream list_changed bursts (server-everything sends one right after init) are coalesced. */
const LIST_CHANGED_DEBOUNCE_MS = 50;

class SdkConnection implements McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private closing = false;
  private closed: Promise<void> | undefined;
  /** Kept after close starts (the SDK forgets it then) so a last-resort kill can still find it. */
  private knownPid: number | undefined;
  private exit: { code: number | null; signal: string | null } | undefined;
  /** Set when an HTTP message passed upstreamMessageBytes: the connection is closed and made again. */
  private tooLarge: MessageTooLargeError | undefined;

  constructor(
    readonly server: string,
    private readonly config: ServerConfig,
    private readonly events: McpConnectionEvents,
    private readonly limits: Limits = DEFAULT_LIMITS,
  ) {}

  exitStatus(): { code: number | null; signal: string | null } | undefined {
    return this.exit;
  }

  /**
   * H3: remember how the process ended, so a failed start can say "exited with code 3". The SDK
   * keeps its ChildProcess private; without it (an SDK change) failures just lack the code.
   */
  private watchExit(transport: Transport): void {
    const child = (
      transport as unknown as {
        _process?: { once?(event: 'exit', listener: (code: number | null, signal: string | null) => void): unknown };
      }
    )._process;
    child?.once?.('exit', (code, signal) => {
      this.exit = { code, signal };
    });
  }

  get pid(): number | undefined {
    const live = this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
    return live ?? this.knownPid;
  }

  async connect(signal: AbortSignal): Promise<void> {
    // The SDK can call these after close with an error; only live connections report.
    const changed = (report: () => void) => ({
      autoRefresh: false,
      debounceMs: LIST_CHANGED_DEBOUNCE_MS,
      onChanged: (error: Error | null) => {
        if (!error && !this.closing) report();
      },
    });
    const client = new Client(HUB_CLIENT_INFO, {
      // G4: declared up front (the SDK refuses handlers otherwise, and servers hide their
      // sampling/elicitation/roots tools from clients without them); each request is then routed
      // to the session that caused it, or refused, by the gateway.
      // G8: MCP Apps — the gateway passes `ui://` resources and tools' `_meta.ui` through, so it
      // declares the extension for the hosts behind it (a host without UI ignores the metadata).
      capabilities: {
        sampling: {},
        elicitation: { form: {}, url: {} },
        roots: { listChanged: true },
        extensions: { [MCP_APPS_EXTENSION]: MCP_APPS_CAPABILITY },
      } as ClientCapabilities,
      listChanged: {
        tools: changed(() => this.events.onToolsChanged()),
        prompts: changed(() => this.events.onListChanged?.('prompts')),
        resources: changed(() => this.events.onListChanged?.('resources')),
      },
    });
    this.relayServerRequests(client);
    const transport = this.createTransport();
    this.client = client;
    this.transport = transport;
    client.onclose = () => {
      if (!this.closing) this.events.onClosed(this.tooLarge?.message ?? 'connection closed');
    };
    client.onerror = () => {
      // Transport errors are followed by onclose when fatal; the hub reacts there.
    };
    signal.addEventListener('abort', () => void this.close(), { once: true });
    const connecting = client.connect(transport, { signal });
    // The SDK spawns synchronously at the start of connect().
    this.knownPid = this.pid;
    this.watchExit(transport);
    await connecting;
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
        throw new McpError(ErrorCode.MethodNotFound, `${request.method} is not relayed by this gateway`);
      return this.events.onServerRequest(request, signal);
    };
    // The SDK validates the results we return against each method's result schema.
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => relay(request, extra.signal) as never);
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => relay(request, extra.signal) as never);
    client.setRequestHandler(ListRootsRequestSchema, (request, extra) => relay(request, extra.signal) as never);
    const notify = (notification: McpMessage) => {
      if (!this.closing) this.events.onNotification?.(notification);
    };
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, notify);
    client.setNotificationHandler(LoggingMessageNotificationSchema, notify);
  }

  /**
   * Every tool, all pages, within the limits (G5: pages, tools per server, refresh timeout; a
   * list cut at a cap is reported through `onLimit`). Tools are validated one by one (the SDK's
   * `listTools` rejects the whole page when a single tool is malformed): a bad one is reported and
   * left out.
   */
  async listTools(): Promise<UpstreamTool[]> {
    const client = this.requireClient();
    const walk = await walkPages(
      `"${this.server}" tools/list`,
      async (cursor, signal) => {
        const page = await client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          LenientToolsPageSchema,
          { signal },
        );
        return { items: page.tools, nextCursor: page.nextCursor };
      },
      {
        maxPages: this.limits.pagesPerList,
        maxItems: this.limits.toolsPerServer,
        deadlineMs: this.limits.refreshTimeoutMs,
      },
    );
    if (walk.truncated) this.events.onLimit?.(walk.truncated.message);
    const tools: UpstreamTool[] = [];
    for (const raw of walk.items) {
      const tool = ToolSchema.safeParse(raw);
      if (tool.success) tools.push(tool.data as UpstreamTool);
      else this.events.onInvalidTool?.(toolNameOf(raw), describeIssue(tool.error));
    }
    return tools;
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
        requestOptions(options),
      )
      .catch((error: unknown) => Promise.reject(this.explain(error)))) as Record<string, unknown>;
  }

  async notify(notification: McpMessage): Promise<void> {
    await this.requireClient().notification(notification as never);
  }

  /** Every item of a paginated list the server offers; empty when it lacks the capability. */
  private async listAll<T>(method: string, key: string, capability: 'resources' | 'prompts'): Promise<T[]> {
    const client = this.requireClient();
    if (!client.getServerCapabilities()?.[capability]) return [];
    const schema = PaginatedResultSchema.extend({ [key]: z.array(z.looseObject({})) });
    const walk = await walkPages(
      `"${this.server}" ${method}`,
      async (cursor, signal) => {
        const page = (await client.request(
          { method, params: cursor === undefined ? {} : { cursor } } as never,
          schema,
          { signal },
        )) as Record<string, unknown> & { nextCursor?: string };
        return { items: page[key] as T[], nextCursor: page.nextCursor };
      },
      // The per-server item cap of tools bounds each of these lists too.
      {
        maxPages: this.limits.pagesPerList,
        maxItems: this.limits.toolsPerServer,
        deadlineMs: this.limits.refreshTimeoutMs,
      },
    );
    if (walk.truncated) this.events.onLimit?.(walk.truncated.message);
    return walk.items;
  }

  async callTool(name: string, args: Record<string, unknown>, options: ForwardOptions): Promise<UpstreamCallResult> {
    const client = this.requireClient();
    const params = { name, arguments: args, ...(options.meta && { _meta: options.meta }) };
    const result = await client
      .callTool(params, undefined, requestOptions(options))
      .catch((error: unknown) => Promise.reject(this.explain(error)));
    return result as UpstreamCallResult;
  }

  /** Every caller waits for the same close (the SDK may take ~2 s to stop a stdio server). */
  close(): Promise<void> {
    this.closing = true;
    this.closed ??= (this.client?.close() ?? Promise.resolve()).catch(() => undefined);
    return this.closed;
  }

  /** G5: an HTTP message past the cap: close this connection (the hub makes it again). */
  private recycle(error: MessageTooLargeError): void {
    this.tooLarge ??= error;
    void this.client?.close().catch(() => undefined);
  }

  /** A request that failed because its answer passed the cap says so, not just "connection closed". */
  private explain(error: unknown): unknown {
    return this.tooLarge ?? error;
  }

  private requireClient(): Client {
    if (!this.client || this.closing) throw new Error('not connected');
    return this.client;
  }

  private createTransport(): Transport {
    if (isStdioServer(this.config)) {
      const transport = new StdioClientTransport({
        command: this.config.command,
        args: this.config.args ?? [],
        // Only the configured variables, on top of the SDK's safe base (PATH, HOME, …).
        ...(this.config.env !== undefined && { env: this.config.env }),
        ...(this.config.cwd !== undefined && { cwd: this.config.cwd }),
        // Never 'inherit': in stdio gateway mode our stderr is the user's log, keep it tidy.
        stderr: 'pipe',
        // G5: one message line from the server is bounded (the SDK closes the connection past it).
        maxBufferSize: this.limits.upstreamMessageBytes,
      });
      pipeLines(transport.stderr, (line) => this.events.onStderr?.(line), {
        maxBufferBytes: this.limits.stderrBufferBytes,
        maxLineChars: this.limits.stderrLineChars,
      });
      return transport;
    }
    const { url, headers } = httpTarget(this.config.url, this.config.headers);
    return new StreamableHTTPClientTransport(url, {
      ...(headers !== undefined && { requestInit: { headers } }),
      // G5: the stdio message cap, counted while reading (capped-fetch.ts).
      fetch: cappedFetch(this.server, this.limits.upstreamMessageBytes, (error) => this.recycle(error)),
    });
  }
}

/** Timeout, cancellation and progress for one forwarded request. */
function requestOptions(options: ForwardOptions): RequestOptions {
  return {
    timeout: options.timeoutMs,
    ...(options.signal !== undefined && { signal: options.signal }),
    // A long call that reports progress is alive: each tick restarts its timeout.
    ...(options.onprogress !== undefined && { onprogress: options.onprogress, resetTimeoutOnProgress: true }),
  };
}

/** `tools/list` with each tool left unchecked, so one bad tool cannot sink the page. */
const LenientToolsPageSchema = PaginatedResultSchema.extend({ tools: z.array(z.unknown()) });

function toolNameOf(raw: unknown): string {
  const name = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : JSON.stringify(name ?? null);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'not a valid MCP tool';
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `not a valid MCP tool (${where}${issue.message})`;
}

function pipeLines(
  stream: NodeJS.ReadableStream | null | { on: unknown },
  onLine: (line: string) => void,
  limits: LineSplitterLimits,
): void {
  if (!stream || typeof (stream as NodeJS.ReadableStream).on !== 'function') return;
  (stream as NodeJS.ReadableStream).on('data', lineSplitter(onLine, limits));
}

/** The default `ConnectionFactory` for a config's servers. */
export function sdkConnectionFactory(configs: Readonly<Record<string, ServerConfig>>, limits: Limits = DEFAULT_LIMITS) {
  return (server: string, events: McpConnectionEvents): McpConnection => {
    const config = configs[server];
    if (!config) throw new Error(`no config for MCP server "${server}"`);
    return new SdkConnection(server, config, events, limits);
  };
}
