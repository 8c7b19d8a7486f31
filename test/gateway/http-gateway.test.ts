import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { formatSummary, summarizeGateway } from '../../src/gateway/status/summary.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';
import { announcedNames } from '../fixtures/announced.js';

/** The embedded reference servers (everything, filesystem, memory, sequential-thinking) behind HTTP. */
describe('G3 gateway over Streamable HTTP, fronting the reference servers', () => {
  const root = mkdtempSync(join(tmpdir(), 'toolsearch-root-'));
  writeFileSync(join(root, 'hello.txt'), 'hello');
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let a: TestClient;

  beforeAll(async () => {
    // The growing list: what a search loads joins the session's tools/list (D3, D4 below).
    stack = await createGatewayFromConfig({ root, memoryFile: join(root, 'memory.jsonl'), toolList: 'growing' });
    http = await startHttpGateway(stack.gateway, { port: 0 });
    await stack.hub.settled();
    a = await httpClient(http.url);
  });
  afterAll(async () => {
    await a?.close();
    await http?.close();
    await stack?.close();
  });

  it('G3: binds to 127.0.0.1 by default', () => {
    expect(http.host).toBe('127.0.0.1');
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('G3/D3: a new session lists only always-loaded tools, tool_search and call_tool', async () => {
    const names = await a.toolNames();
    expect(names).toEqual(['tool_search', 'call_tool']);
    const search = (await a.client.listTools()).tools[0]!;
    // E1: the search tool's description announces the deferred names.
    expect(announcedNames(search.description)).toContain('mcp__memory__create_entities');
  });

  it('C4/G3: a keyword search loads tools, sends list_changed, and the next list has them', async () => {
    const before = a.listChanged();
    const result = await a.call('tool_search', { query: 'echo', max_results: 3 });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('mcp__everything__echo');
    // E5: one compact line per hit (name, arguments, purpose): enough to call it through call_tool.
    expect(result.text).toMatch(/^- mcp__everything__echo\(message: string\) — /m);
    await waitFor(() => a.listChanged() > before, 'list_changed after search');
    expect(await a.toolNames()).toContain('mcp__everything__echo');
  });

  it('G3: a discovered tool is routed to its server and returns its answer', async () => {
    const result = await a.call('mcp__everything__echo', { message: 'hi there' });
    expect(result.text).toBe('Echo: hi there');
  });

  it('C1/G3: select: loads exact tools (memory create_entities, filesystem list_allowed_directories)', async () => {
    const result = await a.call('tool_search', {
      query: 'select:mcp__memory__create_entities,mcp__filesystem__list_allowed_directories',
    });
    expect(result.text).toContain('mcp__memory__create_entities');
    const names = await a.toolNames();
    expect(names).toEqual(
      expect.arrayContaining(['mcp__memory__create_entities', 'mcp__filesystem__list_allowed_directories']),
    );
    const created = await a.call('mcp__memory__create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    expect(created.isError).toBeFalsy();
    expect(created.text).toContain('Ada');
    const dirs = await a.call('mcp__filesystem__list_allowed_directories');
    expect(dirs.text).toContain(root.split('/').pop());
  });

  it('G3: call_tool forwards to a loaded tool and checks that it exists', async () => {
    const ok = await a.call('call_tool', {
      name: 'mcp__everything__echo',
      arguments: { message: 'through call_tool' },
    });
    expect(ok.text).toBe('Echo: through call_tool');
    const missing = await a.call('call_tool', { name: 'mcp__nowhere__nothing', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/not available/);
  });

  it('F3/C15: a deferred tool never loaded runs when its arguments fit; when they do not, the answer names the fields and the signature', async () => {
    const result = await a.call('mcp__everything__get-sum', { a: 1, b: 2 });
    expect(result.isError).not.toBe(true);
    expect(result.text).toMatch(/\b3\b/);
    const wrong = await a.call('mcp__everything__get-sum', { a: 1, b: 'two' });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toBe(
      'Arguments for mcp__everything__get-sum do not match its input schema, so nothing was sent: b must be number (got string). Expected: mcp__everything__get-sum(a: number, b: number).',
    );
  });

  it('C8: a search that finds nothing reports how many deferred tools exist', async () => {
    // Words that exist in no tool text and no thesaurus (a real word such as "nonexistent" is expanded, C6).
    const result = await a.call('tool_search', { query: 'zzzqqq xxqqvv' });
    expect(result.text).toMatch(/No matching deferred tools found[\s\S]*\d+ deferred tool/);
  });

  it("D4: two HTTP sessions do not see each other's discoveries", async () => {
    const b = await httpClient(http.url);
    try {
      expect(await b.toolNames()).toEqual(['tool_search', 'call_tool']);
      await b.call('tool_search', { query: 'select:mcp__sequential-thinking__sequentialthinking' });
      expect(await b.toolNames()).toContain('mcp__sequential-thinking__sequentialthinking');
      expect(await a.toolNames()).not.toContain('mcp__sequential-thinking__sequentialthinking');
      expect(await b.toolNames()).not.toContain('mcp__everything__echo');
    } finally {
      await b.close();
    }
  });

  it('H2: the summary counts servers, tools and eager vs deferred tokens', async () => {
    const summary = await summarizeGateway(stack.gateway);
    expect(summary.servers).toEqual(['everything', 'filesystem', 'memory', 'sequential-thinking']);
    expect(summary.deferredTokens).toBeLessThan(summary.eagerTokens);
    expect(formatSummary(summary)).toMatch(/estimate for Claude/);
  });

  it('G3: a foreign Origin is rejected, a loopback one accepted', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (origin: string) =>
      fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
        body: JSON.stringify(init),
      });
    const foreign = await post('https://evil.example.com');
    expect(foreign.status).toBe(403);
    const local = await post(`http://localhost:${http.port}`);
    expect(local.status).toBe(200);
    await local.body?.cancel();
  });
});

describe('G3 bearer token', () => {
  it('G3: with --token, requests without the right bearer token get 401', async () => {
    const { ToolsearchGateway } = await import('../../src/gateway/gateway.js');
    const { Catalog } = await import('../../src/core/catalog.js');
    const gateway = new ToolsearchGateway({
      catalog: new Catalog([{ name: 'hello', description: 'Say hello.', handler: () => 'hi' }]),
    });
    const http = await startHttpGateway(gateway, { token: 's3cret' });
    try {
      await expect(httpClient(http.url)).rejects.toThrow(/401|token/i);
      await expect(httpClient(http.url, { authorization: 'Bearer wrong' })).rejects.toThrow(/401|token/i);
      const ok = await httpClient(http.url, { authorization: 'Bearer s3cret' });
      // A local tool that is not deferred: listed and callable; no search tool when nothing is deferred (B6).
      expect(await ok.toolNames()).toEqual(['hello']);
      expect((await ok.call('hello')).text).toBe('hi');
      await ok.close();
    } finally {
      await http.close();
      await gateway.close();
    }
  });
});
