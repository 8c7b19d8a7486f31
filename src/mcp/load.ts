/**
 * One call for commands that need a live catalog once (`search --config`, `inspect --config`):
 * connect, wait for the connections to settle, hand back the catalog.
 */
import type { Catalog } from '../core/catalog.js';
import { readHubConfig, parseHubConfig, type HubConfig } from './config.js';
import { McpHub, type HubOptions } from './hub.js';
import { AllServersFailedError } from './errors.js';

export interface LoadCatalogOptions extends HubOptions {
  /** How long to wait for servers before returning with the slow ones still pending. Default 30 s. */
  settleTimeoutMs?: number;
  /**
   * H1: throw AllServersFailedError (after closing) when servers are configured and every one of
   * them failed: a one-shot command then exits non-zero instead of reporting an empty catalog.
   */
  requireAServer?: boolean;
}

export interface LoadedCatalog {
  catalog: Catalog;
  hub: McpHub;
  /** Close every upstream connection (kills spawned servers). */
  close(): Promise<void>;
}

/**
 * `config` is a path to a JSON file, a parsed `{"mcpServers": …}` object, or a validated
 * HubConfig. Reconnection is off unless `options.reconnect` is given: one-shot commands should
 * report a dead server, not wait for it.
 */
export async function loadCatalogFromConfig(
  config: string | HubConfig | Record<string, unknown>,
  options: LoadCatalogOptions = {},
): Promise<LoadedCatalog> {
  const hubConfig = await toHubConfig(config);
  const hub = new McpHub(hubConfig, { reconnect: false, ...options }).start();
  // G13: the hub is closed after this; a server a package runner is installing is waited for.
  await hub.settled(options.settleTimeoutMs ?? options.connectTimeoutMs, { waitForInstalls: true });
  const failed = options.requireAServer === true ? everyServerFailed(hub) : undefined;
  if (failed) {
    await hub.close();
    throw failed;
  }
  return { catalog: hub.catalog, hub, close: () => hub.close() };
}

/** The error when servers are configured and none connected or is still connecting. */
function everyServerFailed(hub: McpHub): AllServersFailedError | undefined {
  const servers = hub.status();
  const alive = new Set(['connected', 'connecting', 'installing']);
  if (servers.length === 0 || servers.some((s) => alive.has(s.state))) return undefined;
  return new AllServersFailedError(servers.map((s) => ({ server: s.server, reason: s.lastError ?? s.state })));
}

async function toHubConfig(config: string | HubConfig | Record<string, unknown>): Promise<HubConfig> {
  if (typeof config === 'string') return readHubConfig(config);
  if (isHubConfig(config)) return config;
  return parseHubConfig(config);
}

function isHubConfig(value: unknown): value is HubConfig {
  return (
    typeof value === 'object' && value !== null && 'servers' in value && 'source' in value && 'toolSearch' in value
  );
}
