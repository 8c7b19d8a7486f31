/** G1 — how a hub is built: its options, defaults, and the hook the gateway sets for server → client requests. */
import type { Catalog } from '../core/catalog.js';
import type { Limits } from '../core/limits.js';
import type { Logger } from '../util/log.js';
import type { ServerConfig, ToolSearchConfig } from './config.js';
import type { ConnectionFactory, ForwardOptions, McpMessage } from './connection.js';
import type { ReconnectOptions } from './server-state.js';
import type { CredentialSource } from './remote/oauth/store.js';
import type { TrustGate } from './trust-gate.js';
import { DEFAULT_INSTALL_TIMEOUT_MS } from './connect-deadline.js';

export interface HubOptions {
  /** Catalog to feed (one with local tools, say). A new one by default. */
  catalog?: Catalog;
  /** Default connect timeout (spawn + initialize + first list). Config values win. Default 30 s. */
  connectTimeoutMs?: number;
  /** Default per-call timeout. Config values win. Default 60 s. */
  callTimeoutMs?: number;
  /**
   * G13: how long a package runner (npx, uvx, …) may take to install a server (`--install-timeout-ms`).
   * Wins over the config's values (a flag given for this run). Default: the config's, else 5 min.
   */
  installTimeoutMs?: number;
  /** `false`: a server that fails or drops is removed and not retried (one-shot commands). */
  reconnect?: ReconnectOptions | false;
  logger?: Logger;
  /** Swap the MCP SDK (or fake servers in unit tests). */
  connectionFactory?: ConnectionFactory;
  /** G5 limits (defaults: DEFAULT_LIMITS; `resolveLimits` merges config and CLI). */
  limits?: Limits;
  /** G7: what the hub learns about servers and the sign-in tokens it holds (default: defaultStateDir()). */
  stateDir?: string;
  /** G7: where sign-in credentials live instead of `stateDir` (a Redis the replicas share). */
  credentials?: CredentialSource;
  /** G10: pins and the scanner's holds (trust-gate.ts); `load()` it before `start()` (servers wait until it is loaded). Absent: off. */
  trust?: TrustGate;
  /** G10: mark suspicious spans in tool results' text (`toolSearch.trust.markResults`). Default off: results pass verbatim. */
  markResults?: boolean;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/**
 * Routes a server → client request (sampling, elicitation, roots) to a client; the gateway sets it.
 * `session`: it came on that gateway session's own connection (G5, `"isolation": "session"`).
 */
export type ServerRequestHandler = (
  server: string,
  request: McpMessage,
  signal: AbortSignal,
  session?: string,
) => Promise<Record<string, unknown>>;

/** A request forwarded through the hub. */
export type HubForwardOptions = Omit<ForwardOptions, 'timeoutMs'> & {
  /** G5: the gateway session it is for; an `"isolation": "session"` server runs it on that session's connection. */
  session?: string;
};

/** Connect timeout of a server: its own, else the config's default, else the hub's, else 30 s. */
export function connectTimeoutOf(config: ServerConfig, toolSearch: ToolSearchConfig, options: HubOptions): number {
  return config.timeoutMs ?? toolSearch.connectTimeoutMs ?? options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
}

/** G13: install allowance of a server: the flag, else its own, else the config's default, else 5 min. */
export function installTimeoutOf(config: ServerConfig, toolSearch: ToolSearchConfig, options: HubOptions): number {
  return (
    options.installTimeoutMs ?? config.installTimeoutMs ?? toolSearch.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS
  );
}

/** Per-call timeout of a server: its own, else the config's default, else the hub's, else 60 s. */
export function callTimeoutOf(config: ServerConfig, toolSearch: ToolSearchConfig, options: HubOptions): number {
  return config.callTimeoutMs ?? toolSearch.callTimeoutMs ?? options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
}
