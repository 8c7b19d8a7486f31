/** G5: refresh gates live as long as their server: a server removed on reload leaves none behind. */
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { McpAggregate } from '../../src/mcp/aggregate.js';
import { CatalogFeed } from '../../src/mcp/catalog-feed.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import type { McpConnection } from '../../src/mcp/connection.js';
import { createServerEntry } from '../../src/mcp/server-entry.js';
import { DEFAULT_RECONNECT } from '../../src/mcp/server-state.js';
import { silentLogger } from '../../src/util/log.js';

describe('G5 catalog feed', () => {
  it('G5: forgetting a server drops its refresh gates (every list kind), not those of a server whose name it prefixes', async () => {
    const config = parseHubConfig({ mcpServers: { a: { command: 'a' }, ab: { command: 'ab' } } });
    const feed = new CatalogFeed({
      catalog: new Catalog(),
      features: new McpAggregate(['a', 'ab']),
      limits: { ...DEFAULT_LIMITS, refreshMinGapMs: 0 },
      logger: silentLogger,
      config: () => config,
    });
    const a = createServerEntry('a', config.servers['a']!, DEFAULT_RECONNECT);
    const ab = createServerEntry('ab', config.servers['ab']!, DEFAULT_RECONNECT);
    // Not connected: the queued refreshes find nothing to do, but their gates exist.
    const idle = {} as McpConnection;
    feed.scheduleRefresh(a, idle);
    feed.scheduleFeatureRefresh(a, idle, 'resources');
    feed.scheduleRefresh(ab, idle);
    expect(feed.refreshGateCount).toBe(3);
    feed.forgetServer('a');
    expect(feed.refreshGateCount).toBe(1);
    await Promise.all([a.refresh, ab.refresh]);
  });
});
