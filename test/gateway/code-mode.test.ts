/**
 * G11 over real transports: `run_code` on a gateway fronting the bundled filesystem and memory
 * servers — a script that searches and calls five tools on both returns its value; the sandbox has
 * no host access; an endless loop, a memory bomb and a 5,000-call storm each end their own run with
 * an error naming the limit while another session (or, over stdio, another request) is answered.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationsEvent } from '../../src/gateway/status/events.js';
import { gatewayInstructions } from '../../src/gateway/tools/definitions.js';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { httpGateway, type HttpGatewayFixture } from '../fixtures/http-gateway.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';
import { waitFor } from '../fixtures/wait.js';

const root = mkdtempSync(join(tmpdir(), 'toolsearch-code-mode-'));
writeFileSync(join(root, 'a.txt'), 'alpha notes');
writeFileSync(join(root, 'b.txt'), 'beta notes');
const mcpServers = {
  filesystem: referenceServerConfig('filesystem', { root }),
  memory: {
    ...referenceServerConfig('memory', { memoryFile: join(root, 'memory.jsonl') }),
    tools: { deny: ['delete_*'] },
  },
};
const LIMITS = { timeoutMs: 5000, memoryBytes: 16 * 1024 * 1024 };
/**
 * A memory bomb and a call storm take CPU to reach their limits; on a busy machine that took longer
 * than 5 s, and the time limit ended them first. They run where time cannot come first.
 */
const UNTIMED_LIMITS = { ...LIMITS, timeoutMs: 10 * 60_000 };

/** Searches, then calls five tools on two servers; returns what it gathered. */
const FIVE_TOOLS = `
const hits = await search('read a text file', { maxResults: 3 });
const [write] = await search('select:mcp__filesystem__write_file');
await call('mcp__filesystem__write_file', { path: ${JSON.stringify(join(root, 'c.txt'))}, content: 'gamma notes' });
const a = await call('mcp__filesystem__read_text_file', { path: ${JSON.stringify(join(root, 'a.txt'))} });
const listing = await call('mcp__filesystem__list_directory', { path: ${JSON.stringify(root)} });
await call('mcp__memory__create_entities', { entities: [{ name: 'a.txt', entityType: 'file', observations: [JSON.stringify(a)] }] });
const graph = await call('mcp__memory__read_graph', {});
console.log('read', hits.length, 'hits');
return { hits: hits.map((h) => h.name), hit: hits[0], write, listing, entities: graph.entities.map((e) => e.name) };
`;

const NO_HOST = `return [typeof process, typeof require, typeof fetch, typeof Deno, typeof XMLHttpRequest, typeof setTimeout];`;

function runCode(client: TestClient, code: string) {
  return client.call('run_code', { code });
}

function checkFiveTools(result: Awaited<ReturnType<TestClient['call']>>): void {
  expect(result.isError, result.text).not.toBe(true);
  const value = JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
  expect(value['hits']).toContain('mcp__filesystem__read_text_file');
  expect(value['hit']).toMatchObject({ name: expect.any(String), purpose: expect.any(String) });
  expect((value['hit'] as { signature: string }).signature).toMatch(/^mcp__\w+\(args: \{ /);
  expect(value['write']).toMatchObject({
    name: 'mcp__filesystem__write_file',
    signature: 'mcp__filesystem__write_file(args: { path: string; content: string })',
    description: expect.stringContaining('file'),
  });
  expect(JSON.stringify(value['listing'])).toContain('c.txt');
  expect(value['entities']).toContain('a.txt');
  expect(result.text).toContain('Console output:\nread 3 hits');
}

describe('G11: run_code over HTTP', () => {
  let gateway: HttpGatewayFixture;
  let first: TestClient;
  let second: TestClient;
  let untimed: HttpGatewayFixture;
  let untimedFirst: TestClient;
  let untimedSecond: TestClient;

  beforeAll(async () => {
    gateway = await httpGateway(mcpServers, { gateway: { mode: 'always', codeMode: { limits: LIMITS } } });
    untimed = await httpGateway(mcpServers, { gateway: { mode: 'always', codeMode: { limits: UNTIMED_LIMITS } } });
    const clients = await Promise.all([gateway, gateway, untimed, untimed].map((g) => connectClient(g.open())));
    [first, second, untimedFirst, untimedSecond] = clients as [TestClient, TestClient, TestClient, TestClient];
    // The other session loads the tool it calls while a script runs.
    for (const other of [second, untimedSecond])
      await other.call('tool_search', { query: 'select:mcp__filesystem__list_allowed_directories' });
  });
  afterAll(async () => {
    for (const client of [first, second, untimedFirst, untimedSecond]) await client?.close();
    await gateway?.close();
    await untimed?.close();
  });

  it('G11: every session lists run_code, whose description names search and call', async () => {
    const { tools } = await first.client.listTools();
    const runCode = tools.find((t) => t.name === 'run_code');
    expect(runCode?.description).toContain('search(query');
    expect(runCode?.description).toContain('call(name, args)');
    // The server's instructions point to it too (a gateway without code mode does not).
    expect(first.client.getInstructions()).toMatch(/run_code runs one JavaScript body/);
    expect(gatewayInstructions('fixed')).not.toContain('run_code');
  });

  it('G11: a script searches and calls five tools on two servers and returns its value', async () => {
    checkFiveTools(await runCode(first, FIVE_TOOLS));
    // Nothing was loaded into the session: the script's search is not the model's.
    expect(await first.toolNames()).not.toContain('mcp__filesystem__write_file');
  });

  it('G11: inner searches and calls are recorded like direct ones; progress reaches a client that asked', async () => {
    const events: OperationsEvent[] = [];
    const unsubscribe = gateway.stack.gateway.operations.events.subscribe((event) => events.push(event));
    const progress: string[] = [];
    try {
      const result = await first.client.callTool(
        {
          name: 'run_code',
          arguments: { code: `await search('knowledge graph'); return await call('mcp__memory__read_graph', {});` },
        },
        undefined,
        { onprogress: (p) => progress.push(`${p.progress} ${p.message}`) },
      );
      expect(result.isError).not.toBe(true);
    } finally {
      unsubscribe();
    }
    expect(events).toContainEqual(expect.objectContaining({ type: 'search', query: 'knowledge graph' }));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool-call', tool: 'mcp__memory__read_graph', server: 'memory', outcome: 'ok' }),
    );
    expect(progress).toEqual(['1 search knowledge graph', '2 call mcp__memory__read_graph']);
  });

  it('G11: a client that cancels the run ends it; the session runs the next one', async () => {
    const controller = new AbortController();
    const cancelled = first.client.callTool({ name: 'run_code', arguments: { code: 'while (true) {}' } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    await expect(cancelled).rejects.toThrow();
    const next = await runCode(first, 'return 40 + 2;');
    expect(next.text).toBe('42');
  });

  it('G11: no process, require, fetch, Deno or XMLHttpRequest inside', async () => {
    const result = await runCode(first, NO_HOST);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(Array(6).fill('undefined'));
  });

  it('G11: a thrown error is an error result with the script line; a tool the config hides cannot be called', async () => {
    const thrown = await runCode(first, 'const x = 1;\nthrow new Error("no luck");');
    expect(thrown.isError).toBe(true);
    expect(thrown.text).toContain('Error: no luck (script line 2)');
    const hidden = await runCode(
      first,
      `return await call('mcp__memory__delete_entities', { entityNames: ['a.txt'] });`,
    );
    expect(hidden.isError).toBe(true);
    expect(hidden.text).toContain('hides');
  });

  for (const [what, code, limit] of [
    ['an endless loop', 'while (true) {}', 'timeoutMs'],
    // Megabyte strings reach the 16 MiB ceiling in a few steps: on a busy machine a bomb of small
    // objects could take longer than timeoutMs to get there (test/sandbox has that one, unhurried).
    ['a memory bomb', `const a = []; for (;;) a.push('y'.repeat(1 << 20) + a.length);`, 'memoryBytes'],
    [
      '5,000 calls',
      `for (let i = 0; i < 5000; i++) await call('mcp__memory__read_graph', {}); return 'all';`,
      'maxCalls',
    ],
  ] as const) {
    it(`G11: ${what} ends its own run at ${limit} while another session is answered`, async () => {
      const [one, other] = limit === 'timeoutMs' ? [first, second] : [untimedFirst, untimedSecond];
      const running = runCode(one, code);
      const meanwhile = await other.call('mcp__filesystem__list_allowed_directories', {});
      expect(meanwhile.isError).not.toBe(true);
      expect(meanwhile.text).toContain(root);
      const result = await running;
      expect(result.isError).toBe(true);
      expect(result.text).toContain(`Limit ${limit} reached`);
    });
  }
});

describe('G11: run_code over stdio', () => {
  let client: TestClient;

  beforeAll(async () => {
    const config = join(root, 'stdio.json');
    writeFileSync(config, JSON.stringify({ mcpServers, toolSearch: { codeMode: { limits: LIMITS } } }));
    client = await connectClient(stdioGateway(['serve', '--config', config, '--code-mode', '--log-level', 'silent']));
    // Over stdio the servers start with the gateway: the timed scripts below wait for neither them
    // nor the first sandbox worker.
    const both = 'select:mcp__filesystem__read_text_file,mcp__memory__read_graph';
    await waitFor(
      async () => {
        const { text } = await client.call('tool_search', { query: both });
        return text.includes('"mcp__filesystem__read_text_file"') && text.includes('"mcp__memory__read_graph"');
      },
      'both servers connected',
      60_000,
    );
    await runCode(client, 'return 1;');
  }, 90_000);
  afterAll(async () => {
    await client?.close();
  });

  it('G11: a script searches and calls five tools on two servers and returns its value', async () => {
    checkFiveTools(await runCode(client, FIVE_TOOLS));
  });

  it('G11: no process, require, fetch, Deno or XMLHttpRequest inside', async () => {
    const result = await runCode(client, NO_HOST);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(Array(6).fill('undefined'));
  });

  it('G11: an endless loop ends at timeoutMs while another request is answered', async () => {
    const running = runCode(client, 'while (true) {}');
    const meanwhile = await client.client.listTools();
    expect(meanwhile.tools.map((t) => t.name)).toContain('run_code');
    const result = await running;
    expect(result.text).toContain('Limit timeoutMs reached');
  });
});
