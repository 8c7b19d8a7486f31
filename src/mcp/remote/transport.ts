/**
 * G1/G7 — the transport for one connection attempt: a spawned stdio process, Streamable HTTP,
 * or legacy HTTP+SSE, each from the v2 client SDK.
 */
import {
  type AuthProvider,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Limits } from '../../core/limits.js';
import { isStdioServer, type HttpServerConfig, type ServerConfig } from '../config.js';
import { lineSplitter, type LineSplitterLimits } from '../lines.js';
import { LinearReadBuffer } from './read-buffer.js';
import { httpTarget } from '../url-credentials.js';
import { deliverResponsesAfterNotifications } from '../ordered-delivery.js';

export type TransportKind = 'stdio' | 'http' | 'sse';

/**
 * The transports to try, in order. A URL without a `type` tries Streamable HTTP, then SSE (a
 * 4xx from the first moves on); what worked last time goes first.
 */
export function transportPlan(config: ServerConfig, remembered: 'http' | 'sse' | undefined): TransportKind[] {
  if (isStdioServer(config)) return ['stdio'];
  if (config.type === 'sse') return ['sse'];
  if (config.type !== undefined) return ['http'];
  return remembered === 'sse' ? ['sse', 'http'] : ['http', 'sse'];
}

export interface TransportOptions {
  readonly limits: Limits;
  readonly authProvider?: AuthProvider | undefined;
  readonly onStderr?: (line: string) => void;
  /** The fetch HTTP transports use (G5: one that counts message bytes). */
  readonly fetch?: typeof fetch;
  /** The spawned process is up (pid and exit status can be read from the transport). */
  readonly onSpawned?: (transport: StdioClientTransport) => void;
  /** Variables the hub adds to a spawned server's environment (under the configured ones). */
  readonly childEnv?: Readonly<Record<string, string>> | undefined;
}

/**
 * The SDK probes the era in place on any subclass of its stdio transport (only the base class
 * gets a sibling spawn). The hub only ever probes a server that refused 2025 or is pinned to
 * 2026-07-28, which is safe in place; and a subclass can report the one process it starts.
 */
class HubStdioTransport extends StdioClientTransport {
  onSpawned: ((transport: StdioClientTransport) => void) | undefined;

  constructor(parameters: ConstructorParameters<typeof StdioClientTransport>[0], maxMessageBytes: number) {
    super(parameters);
    // G5: the SDK's read buffer copies a long line's chunks quadratically (read-buffer.ts). Its
    // field is internal: a future SDK without it keeps its own buffer, which behaves the same.
    const internals = this as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
    if (typeof internals._readBuffer?.append === 'function' && typeof internals._readBuffer.readMessage === 'function')
      internals._readBuffer = new LinearReadBuffer(maxMessageBytes);
  }

  override async start(): Promise<void> {
    await super.start();
    this.onSpawned?.(this);
  }
}

export function createTransport(kind: TransportKind, config: ServerConfig, options: TransportOptions): Transport {
  if (isStdioServer(config)) {
    const transport = new HubStdioTransport(
      {
        command: config.command,
        args: config.args ?? [],
        // Only the configured variables (and the hub's own), on top of the SDK's safe base (PATH, HOME, …).
        ...((config.env !== undefined || options.childEnv !== undefined) && {
          env: { ...options.childEnv, ...config.env },
        }),
        ...(config.cwd !== undefined && { cwd: config.cwd }),
        // Never 'inherit': in stdio gateway mode our stderr is the user's log, keep it tidy.
        stderr: 'pipe',
        // G5: one message line from the server is bounded (the SDK closes the connection past it).
        maxBufferSize: options.limits.upstreamMessageBytes,
      },
      options.limits.upstreamMessageBytes,
    );
    transport.onSpawned = options.onSpawned;
    pipeLines(transport.stderr, (line) => options.onStderr?.(line), {
      maxBufferBytes: options.limits.stderrBufferBytes,
      maxLineChars: options.limits.stderrLineChars,
    });
    return deliverResponsesAfterNotifications(transport);
  }
  return deliverResponsesAfterNotifications(createHttpTransport(kind, config, options));
}

function createHttpTransport(kind: TransportKind, config: HttpServerConfig, options: TransportOptions): Transport {
  const { url, headers } = httpTarget(config.url, config.headers);
  const common = {
    ...(headers !== undefined && { requestInit: { headers } }),
    ...(options.authProvider !== undefined && { authProvider: options.authProvider }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  };
  // The SDK sends the configured headers on the SSE stream's GET as well as on each POST.
  if (kind === 'sse') return new SSEClientTransport(url, common);
  return new StreamableHTTPClientTransport(url, common);
}

function pipeLines(
  stream: NodeJS.ReadableStream | null | { on: unknown },
  onLine: (line: string) => void,
  limits: LineSplitterLimits,
): void {
  if (!stream || typeof (stream as NodeJS.ReadableStream).on !== 'function') return;
  (stream as NodeJS.ReadableStream).on('data', lineSplitter(onLine, limits));
}
