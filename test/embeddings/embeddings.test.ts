import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddingSearcher, HttpEmbedder, type EmbeddingsConfig } from '../../src/embeddings/index.js';
import { startEmbeddingServer, FIXTURE_DIMENSIONS, type EmbeddingFixture } from '../fixtures/embedding-server.js';
import { mcp, poolOf } from '../search/helpers.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);

const TOOLS = [
  mcp('weather', 'get_forecast', 'Weather forecast for a city.'),
  mcp('fx', 'convert_currency', 'Convert money between currencies.'),
  mcp('kg', 'create_entities', 'Create entities in the knowledge graph.'),
  mcp('files', 'read_file', 'Read a file from disk.'),
  mcp('files', 'list_directory', 'List a directory.'),
];
/** Shares no word with the memory tool; the toy model puts remember/prefers next to knowledge/graph. */
const PARAPHRASE = 'remember that Ana prefers tea';

const fixtures: EmbeddingFixture[] = [];
async function server(options: Parameters<typeof startEmbeddingServer>[0] = {}): Promise<EmbeddingFixture> {
  const f = await startEmbeddingServer(options);
  fixtures.push(f);
  return f;
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
});

function logger() {
  const lines: string[] = [];
  return { lines, warn: (m: string) => lines.push(`warn ${m}`), info: (m: string) => lines.push(`info ${m}`) };
}

const instant = { sleep: async () => {} };

function config(f: EmbeddingFixture, extra: Partial<EmbeddingsConfig> = {}): EmbeddingsConfig {
  return { url: f.url, model: 'toy', cacheDir: false, ...extra };
}

describe('C10: embedding servers (OpenAI-compatible /v1/embeddings)', () => {
  it('C10: the fixture speaks the protocol the official openai client uses', async () => {
    const f = await server();
    const client = new OpenAI({ baseURL: f.url, apiKey: 'test' });
    const answer = await client.embeddings.create({ model: 'toy', input: ['weather', 'rain'] });
    expect(answer.data).toHaveLength(2);
    expect(answer.data[0]!.embedding).toHaveLength(FIXTURE_DIMENSIONS);
  });

  it('C10: searches never wait — lexical until the tool vectors are ready, then fused (library)', async () => {
    const f = await server({ delayMs: 150 });
    const searcher = new EmbeddingSearcher(config(f), instant);
    const pool = poolOf(TOOLS);
    const first = await searcher.search(pool, PARAPHRASE, { explain: true });
    expect(first.explanations?.some((e) => e.embedding)).toBe(false);
    expect(await searcher.ready(pool)).toBe(true);
    const fused = await searcher.search(pool, PARAPHRASE, { explain: true });
    expect(fused.matches[0]).toBe('mcp__kg__create_entities');
    expect(fused.explanations![0]!.embedding?.rank).toBe(1);
    expect(f.requests.at(-1)!.inputs).toEqual([PARAPHRASE]);
  });

  it('C10: tool texts are sent in batches of batchSize, with the API key from the named variable', async () => {
    const f = await server();
    const searcher = new EmbeddingSearcher(config(f, { batchSize: 2, apiKeyEnv: 'EMB_TEST_KEY' }), {
      ...instant,
      env: { EMB_TEST_KEY: 'sk-test' },
    });
    expect(await searcher.ready(poolOf(TOOLS))).toBe(true);
    expect(f.requests.map((r) => r.inputs.length)).toEqual([2, 2, 1]);
    expect(f.requests.every((r) => r.authorization === 'Bearer sk-test' && r.model === 'toy')).toBe(true);
    expect(() => new HttpEmbedder(config(f, { apiKeyEnv: 'EMB_MISSING_KEY' }), { env: {} })).toThrow(
      /EMB_MISSING_KEY is not set/,
    );
  });

  it('C10: the disk cache — a restart re-embeds nothing, a changed tool re-embeds only itself', async () => {
    const f = await server();
    const cacheDir = mkdtempSync(join(tmpdir(), 'ts-emb-cache-'));
    expect(await new EmbeddingSearcher(config(f, { cacheDir }), instant).ready(poolOf(TOOLS))).toBe(true);
    const sent = () => f.requests.reduce((n, r) => n + r.inputs.length, 0);
    expect(sent()).toBe(TOOLS.length);
    // A new process (new searcher, same cache dir): nothing to embed.
    expect(await new EmbeddingSearcher(config(f, { cacheDir }), instant).ready(poolOf(TOOLS))).toBe(true);
    expect(sent()).toBe(TOOLS.length);
    // One tool changes its description: only that text is sent.
    const changed = [...TOOLS.slice(0, 4), mcp('files', 'list_directory', 'List the entries of a directory.')];
    expect(await new EmbeddingSearcher(config(f, { cacheDir }), instant).ready(poolOf(changed))).toBe(true);
    expect(f.requests.at(-1)!.inputs).toEqual(['files list_directory: List the entries of a directory.']);
    expect(sent()).toBe(TOOLS.length + 1);
  });

  it('C10: a server that fails at first is retried with backoff', async () => {
    const f = await server({ failFirst: 2 });
    const log = logger();
    const searcher = new EmbeddingSearcher(config(f, { retries: 2 }), { ...instant, logger: log });
    expect(await searcher.ready(poolOf(TOOLS))).toBe(true);
    expect(f.requests).toHaveLength(3);
    expect(log.lines.filter((l) => l.startsWith('warn'))).toEqual([]);
  });

  it('C10: a slow server times out; searches answer lexically and the failure is logged once', async () => {
    const f = await server({ delayMs: 400 });
    const log = logger();
    const searcher = new EmbeddingSearcher(config(f, { timeoutMs: 50, queryTimeoutMs: 50, retries: 1 }), {
      ...instant,
      logger: log,
    });
    const pool = poolOf(TOOLS);
    expect(await searcher.ready(pool)).toBe(false);
    const a = await searcher.search(pool, 'weather forecast', { explain: true });
    const b = await searcher.search(pool, 'read a file');
    expect(a.matches[0]).toBe('mcp__weather__get_forecast');
    expect(a.explanations![0]!.embedding).toBeUndefined();
    expect(b.matches[0]).toBe('mcp__files__read_file');
    const warnings = log.lines.filter((l) => l.startsWith('warn'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no answer within 50 ms/);
    expect(searcher.service.status().state).toBe('down');
  });

  it('C10: a dead server: lexical results, one log line, never a failed search', async () => {
    const f = await server();
    await f.close();
    const log = logger();
    const searcher = new EmbeddingSearcher(config(f, { retries: 0 }), { ...instant, logger: log });
    const pool = poolOf(TOOLS);
    for (let i = 0; i < 3; i++) {
      const result = await searcher.search(pool, 'convert currency');
      expect(result.matches[0]).toBe('mcp__fx__convert_currency');
      await searcher.ready(pool);
    }
    expect(log.lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(log.lines[log.lines.length - 1]).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('C10: wrong dimensions are refused with a clear reason and the search stays lexical', async () => {
    const f = await server();
    const log = logger();
    const searcher = new EmbeddingSearcher(config(f, { dimensions: 8 }), { ...instant, logger: log });
    const pool = poolOf(TOOLS);
    expect(await searcher.ready(pool)).toBe(false);
    expect(log.lines.join('\n')).toMatch(/returned 16-dimensional vectors, expected 8/);
    expect((await searcher.search(pool, 'weather')).matches[0]).toBe('mcp__weather__get_forecast');
  });

  it('C10/G5: an oversized answer is refused while reading (maxResponseBytes), the search stays lexical', async () => {
    const f = await server({ paddingBytes: 200_000 });
    const log = logger();
    const searcher = new EmbeddingSearcher(config(f, { maxResponseBytes: 50_000, retries: 0 }), {
      ...instant,
      logger: log,
    });
    const pool = poolOf(TOOLS);
    expect(await searcher.ready(pool)).toBe(false);
    expect(log.lines.join('\n')).toMatch(/answer larger than 50000 bytes \(embeddings.maxResponseBytes\)/);
    expect((await searcher.search(pool, 'read a file')).matches[0]).toBe('mcp__files__read_file');
  });

  it('C10: toolSearch.embeddings in a config is checked key by key', () => {
    const parse = (embeddings: unknown) => parseHubConfig({ mcpServers: {}, toolSearch: { embeddings } }, 'mcp.json');
    expect(
      parse({ url: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768 }).toolSearch.embeddings
        ?.model,
    ).toBe('nomic-embed-text');
    expect(() => parse({ url: 'http://x/v1', model: 'm', apiKeyEnv: 'sk-live-123' })).toThrow(
      /toolSearch.embeddings.apiKeyEnv/,
    );
    expect(() => parse({ url: 'http://x/v1' })).toThrow(/toolSearch.embeddings.model/);
    expect(() => parse({ url: 'http://x/v1', model: 'm', apiKey: 'sk-live-123' })).toThrow(/toolSearch.embeddings/);
  });

  it('C10: bad settings fail clearly before any request', () => {
    expect(() => new HttpEmbedder({ url: 'not a url', model: 'm' })).toThrow(/embeddings.url/);
    expect(() => new HttpEmbedder({ url: 'http://127.0.0.1:1/v1', model: '' })).toThrow(/embeddings.model/);
    expect(() => new HttpEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'm', batchSize: 0 })).toThrow(
      /embeddings.batchSize/,
    );
    expect(() => new HttpEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: 'sk-123 secret' })).toThrow(
      /embeddings.apiKeyEnv/,
    );
    expect(() => new HttpEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'm', maxResponseBytes: 0 })).toThrow(
      /embeddings.maxResponseBytes/,
    );
  });

  it("C10/H1: `toolsearch search --embeddings-url … --explain` fuses the server's vectors (CLI)", async () => {
    const f = await server();
    const dir = mkdtempSync(join(tmpdir(), 'ts-emb-cli-'));
    const file = join(dir, 'catalog.jsonl');
    writeFileSync(
      file,
      TOOLS.map((t) =>
        JSON.stringify({
          id: `${(t.origin as { server: string }).server}/${t.originalName}`,
          server: (t.origin as { server: string }).server,
          name: t.originalName,
          description: t.description,
          inputSchema: t.inputSchema,
        }),
      ).join('\n'),
    );
    const args = cliArgs(
      'search',
      '--catalog',
      file,
      '--embeddings-url',
      f.url,
      '--embeddings-model',
      'toy',
      '--query',
      PARAPHRASE,
      '--explain',
    );
    const { stdout } = await run(process.execPath, args, { env: cliEnv({ XDG_CACHE_HOME: dir }) });
    expect(stdout).toMatch(/1\. kg\/create_entities\n\s+keyword ranking[^\n]*\n[\s\S]*?embedding rank 1/);
    // C14: each hit also says how much the embedding ranking counted for this query, and why.
    expect(stdout).toMatch(/embedding rank 1, [^\n]*\((embedding weight [\d.]+: [^)]+|embedding not counted: [^)]+)\)/);
    const requestsAfterFirstRun = f.requests.length;
    // Second run: the tool vectors come from the disk cache; only the query is embedded.
    await run(process.execPath, args, { env: cliEnv({ XDG_CACHE_HOME: dir }) });
    expect(f.requests.length).toBe(requestsAfterFirstRun + 1);
  });
});
