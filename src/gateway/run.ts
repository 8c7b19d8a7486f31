/**
 * Wiring for `toolsearch serve` and for embedders: config (or the embedded reference servers)
 * → hub → gateway. Connection happens in the background; the gateway serves at once and reports
 * slow servers as pending (C8).
 */
import { readHubConfig, type HubConfig } from '../mcp/config.js';
import { defaultHubConfig, type DefaultServersOptions } from '../mcp/defaults.js';
import { McpHub, type HubOptions } from '../mcp/hub.js';
import { silentLogger, type Logger } from '../mcp/log.js';
import { ToolsearchGateway, type GatewayOptions } from './gateway.js';

export interface GatewayFromConfigOptions extends DefaultServersOptions {
  /** A config file path or a validated config; absent: the embedded reference servers. */
  config?: string | HubConfig;
  logger?: Logger;
  hub?: Omit<HubOptions, 'logger'>;
  gateway?: Omit<GatewayOptions, 'catalog' | 'upstream' | 'logger'>;
}

export interface GatewayStack {
  hub: McpHub;
  gateway: ToolsearchGateway;
  close(): Promise<void>;
}

export async function createGatewayFromConfig(options: GatewayFromConfigOptions = {}): Promise<GatewayStack> {
  const logger = options.logger ?? silentLogger;
  const config = typeof options.config === 'string' ? await readHubConfig(options.config) : (options.config ?? defaultHubConfig(options));
  const hub = new McpHub(config, { ...options.hub, logger });
  const toolSearch = config.toolSearch;
  const gateway = new ToolsearchGateway({
    ...(toolSearch.mode !== undefined && { mode: toolSearch.mode }),
    ...(toolSearch.contextWindow !== undefined && { contextWindow: toolSearch.contextWindow }),
    ...options.gateway,
    catalog: hub.catalog,
    upstream: hub,
    logger,
  });
  hub.start();
  return {
    hub,
    gateway,
    close: async () => {
      await gateway.close();
      await hub.close();
    },
  };
}
