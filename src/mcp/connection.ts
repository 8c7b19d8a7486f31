/**
 * The hub's view of one upstream MCP server. Kept SDK-free so the SDK (v1 today, maybe the split
 * v2 packages later) can be swapped behind `createSdkConnection` without touching the hub.
 */

import type { ListKind } from './list-ttl.js';

/**
 * A tool as an upstream server lists it. The hub reads name, description, inputSchema and _meta;
 * every other field (title, annotations, outputSchema, icons, execution, …) is carried whole so
 * the gateway can pass it through (G4).
 */
export interface UpstreamTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [field: string]: unknown;
}

/** An MCP `Resource` (`uri`, `name`, …), passed through whole. */
export interface UpstreamResource {
  uri: string;
  name: string;
  [field: string]: unknown;
}

/** An MCP `ResourceTemplate` (`uriTemplate`, `name`, …), passed through whole. */
export interface UpstreamResourceTemplate {
  uriTemplate: string;
  name: string;
  [field: string]: unknown;
}

/** An MCP `Prompt` (`name`, `arguments`, …), passed through whole. */
export interface UpstreamPrompt {
  name: string;
  [field: string]: unknown;
}

/** An MCP `CallToolResult`, passed through unchanged. */
export interface UpstreamCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/** What the server said it offers at `initialize` (the MCP `ServerCapabilities` the hub reads). */
export interface UpstreamCapabilities {
  tools?: Record<string, unknown>;
  resources?: { subscribe?: boolean; listChanged?: boolean; [key: string]: unknown };
  prompts?: Record<string, unknown>;
  completions?: Record<string, unknown>;
  logging?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A JSON-RPC request or notification without the envelope. */
export interface McpMessage {
  method: string;
  params?: Record<string, unknown>;
}

/** A `notifications/progress` payload, minus the token (each side has its own). */
export interface UpstreamProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ForwardOptions {
  timeoutMs: number;
  /** Aborting sends `notifications/cancelled` upstream and rejects. */
  signal?: AbortSignal;
  /** Asks the server for progress (the SDK mints the upstream token); each tick resets the timeout. */
  onprogress?: (progress: UpstreamProgress) => void;
  /** G9: `_meta` sent with the request (W3C `traceparent`/`tracestate` continuing the client's trace). */
  meta?: Record<string, unknown>;
}

export interface McpConnectionEvents {
  /** The server sent `notifications/tools/list_changed`. */
  onToolsChanged(): void;
  /** The connection ended without `close()` being called (process died, socket dropped). */
  onClosed(reason: string): void;
  /** Lines the server wrote to stderr (stdio servers), for debug logs. */
  onStderr?(line: string): void;
  /**
   * G13: a stdio server's process wrote its first byte on stdout (the first JSON-RPC message):
   * whatever started it (a package runner installing it) has handed over to the server.
   */
  onFirstOutput?(): void;
  /** A listed tool that is not a valid MCP tool (bad inputSchema, …); it is left out, the rest kept. */
  onInvalidTool?(tool: string, reason: string): void;
  /** A G5 limit was applied to what the server sent (a list cut at a cap, …). */
  onLimit?(message: string): void;
  /** `resources/list_changed` or `prompts/list_changed` (coalesced). */
  onListChanged?(kind: 'resources' | 'prompts'): void;
  /** Other notifications the gateway relays: `resources/updated`, `message` (logging). */
  onNotification?(notification: McpMessage): void;
  /**
   * A server → client request (`sampling/createMessage`, `elicitation/create`, `roots/list`).
   * Resolves to its result; rejects with the error to send back. Absent: the request is refused.
   */
  onServerRequest?(request: McpMessage, signal: AbortSignal): Promise<Record<string, unknown>>;
}

export interface McpConnection {
  readonly server: string;
  /** Spawn / open and run the initialize handshake. Rejects on failure or when `signal` aborts. */
  connect(signal: AbortSignal): Promise<void>;
  /** What the server offers; undefined before `connect` resolved. */
  readonly capabilities?: UpstreamCapabilities | undefined;
  /** Every tool, all pages. */
  listTools(): Promise<UpstreamTool[]>;
  /**
   * G12: the `ttlMs` (SEP-2549) the last complete list of this kind carried — its shortest page's;
   * `resources` covers resources and templates. Undefined: not listed yet, or no usable TTL.
   */
  listTtlMs?(kind: ListKind): number | undefined;
  /** What the server said about itself at initialize (after `connect`): its title and instructions. */
  serverInfo?(): { title?: string; instructions?: string } | undefined;
  /** Every resource, all pages (empty when the server offers no resources). */
  listResources?(): Promise<UpstreamResource[]>;
  listResourceTemplates?(): Promise<UpstreamResourceTemplate[]>;
  listPrompts?(): Promise<UpstreamPrompt[]>;
  callTool(name: string, args: Record<string, unknown>, options: ForwardOptions): Promise<UpstreamCallResult>;
  /**
   * Any other client → server request (`resources/read`, `prompts/get`, `completion/complete`,
   * `resources/subscribe`, `logging/setLevel`, …); the result comes back unchanged.
   */
  request?(request: McpMessage, options: ForwardOptions): Promise<Record<string, unknown>>;
  /** A client → server notification (`notifications/roots/list_changed`). */
  notify?(notification: McpMessage): Promise<void>;
  /** H3: how a stdio server's process ended, once it has (to explain a failed start). */
  exitStatus?(): { code: number | null; signal: string | null } | undefined;
  /** Process id of a stdio server (diagnostics, tests). */
  readonly pid: number | undefined;
  /** Deliberate close: no `onClosed` follows. Safe to call twice. */
  close(): Promise<void>;
  /**
   * G13: let a stdio server's process go without ending it (a package runner still installing
   * finishes its install); no `onClosed` follows and a later `close()` does nothing.
   */
  detach?(): void;
}

export type ConnectionFactory = (server: string, events: McpConnectionEvents) => McpConnection;
