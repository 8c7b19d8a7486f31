import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { loadCatalogFile } from '../../src/cli/catalog-file.js';

describe('C12/G1: what servers say about themselves is search evidence', () => {
  let stack: GatewayStack;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'ts-info-'));
    stack = await createGatewayFromConfig({ root, memoryFile: join(root, 'memory.jsonl') });
    await stack.hub.settled();
  });
  afterAll(() => stack?.close());

  it('G1/C12: the instructions a real server sends at initialize reach the catalog and the search index', () => {
    const info = stack.hub.catalog.serverInfo.get('everything');
    expect(info?.description?.length ?? 0).toBeGreaterThan(20);
    const catalog = stack.hub.catalog;
    const pool = {
      tools: catalog.tools,
      deferred: new Set(catalog.tools.map((t) => t.name)),
      pendingServers: [],
      servers: catalog.serverInfo,
    };
    const result = new ToolSearcher().search(pool, 'zzqv', { explain: true });
    // Nothing matches, and the answer still names servers to browse (never empty-handed).
    expect(result.matches).toEqual([]);
    expect(result.lowConfidence).toBe(true);
  });

  it('C12: a catalog file may carry serverTitle / serverDescription; they become server evidence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-info-file-'));
    const file = join(dir, 'c.jsonl');
    const rows = [
      {
        server: 'kg',
        name: 'create_entities',
        description: 'Create entities.',
        serverTitle: 'Memory',
        serverDescription: 'Remembers what the user tells you. Use it to store preferences.',
      },
      { server: 'kg', name: 'delete_entities', description: 'Delete entities.' },
      { server: 'fs', name: 'read_file', description: 'Read a file.' },
      { server: 'fs', name: 'write_file', description: 'Write a file.' },
    ];
    writeFileSync(
      file,
      rows.map((r) => JSON.stringify({ ...r, inputSchema: { type: 'object', properties: {} } })).join('\n'),
    );
    const catalog = loadCatalogFile(file, { warn: null });
    expect(catalog.serverInfo.get('kg')).toEqual({
      title: 'Memory',
      description: 'Remembers what the user tells you. Use it to store preferences.',
    });
    const pool = { tools: catalog.tools, deferred: new Set(catalog.tools.map((t) => t.name)), pendingServers: [] };
    const searcher = new ToolSearcher();
    expect(searcher.search(pool, 'store preferences').matches).toEqual([]);
    const withInfo = searcher.search({ ...pool, servers: catalog.serverInfo }, 'store preferences');
    expect(withInfo.suggestedServers?.[0]).toMatchObject({
      server: 'kg',
      summary: 'Memory: Remembers what the user tells you.',
    });
  });
});
