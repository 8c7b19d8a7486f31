import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { startEmbeddingServer, type EmbeddingFixture } from '../fixtures/embedding-server.js';
import { waitFor } from '../fixtures/wait.js';

/** Shares no word with the memory server's tools; the toy model maps remember/prefers to knowledge/graph/entities. */
const PARAPHRASE = 'remember that Ana prefers tea';

function memoryServer(dir: string) {
  return {
    command: process.execPath,
    args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  };
}

/** Search until the embedding path answers (vectors are built in the background after connect). */
async function searchUntilFused(client: TestClient, fixture: EmbeddingFixture): Promise<string> {
  return waitFor(async () => {
    const result = await client.call('tool_search', { query: PARAPHRASE });
    return fixture.requests.some((r) => r.inputs.length === 1 && r.inputs[0] === PARAPHRASE) &&
      /create_entities/.test(result.text)
      ? result.text
      : undefined;
  }, 'a search fused with the embedding server');
}

describe('C10/G3: the gateway with an embedding server', () => {
  let fixture: EmbeddingFixture;
  beforeAll(async () => {
    fixture = await startEmbeddingServer();
  });
  afterAll(() => fixture?.close());

  it('C10: toolSearch.embeddings in the config: tool texts embedded in the background, tool_search fuses them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-emb-gw-'));
    const config = parseHubConfig({
      mcpServers: { memory: memoryServer(dir) },
      toolSearch: { embeddings: { url: fixture.url, model: 'toy', batchSize: 4, cacheDir: join(dir, 'cache') } },
    });
    let stack: GatewayStack | undefined;
    let http: RunningHttpGateway | undefined;
    let client: TestClient | undefined;
    try {
      stack = await createGatewayFromConfig({ config });
      http = await startHttpGateway(stack.gateway, { port: 0 });
      await stack.hub.settled();
      client = await httpClient(http.url);
      const text = await searchUntilFused(client, fixture);
      expect(text).toMatch(/mcp__memory__create_entities/);
      // Tool texts went in batches of 4 (the memory server has 9 tools).
      const toolBatches = fixture.requests.filter((r) => r.inputs.some((i) => i.startsWith('memory ')));
      expect(toolBatches.every((r) => r.inputs.length <= 4)).toBe(true);
      expect(toolBatches.length).toBeGreaterThanOrEqual(2);
    } finally {
      await client?.close();
      await http?.close();
      await stack?.close();
    }
  });

  it('C10/H1: `serve --embeddings-url --embeddings-model` wires the same path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-emb-serve-'));
    const configFile = join(dir, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { memory: memoryServer(dir) } }));
    const before = fixture.requests.length;
    process.env['XDG_CACHE_HOME'] = join(dir, 'xdg');
    const { stack, http } = await serveHttp({
      config: configFile,
      settleMs: 5_000,
      embeddingsUrl: fixture.url,
      embeddingsModel: 'toy',
    });
    const client = await httpClient(http!.url);
    try {
      expect(await searchUntilFused(client, fixture)).toMatch(/mcp__memory__create_entities/);
      expect(fixture.requests.length).toBeGreaterThan(before);
    } finally {
      await client.close();
      await stack.close();
    }
  });
});
