/**
 * G11 — code mode against direct tool calling, on the bundled reference servers and on the same
 * servers inside a larger catalog (plus the livemcpbench set's 527 tool definitions, searchable
 * but never called). No model: each task is a hand-written sequence of direct calls (what a model
 * does one turn at a time) and a hand-written `run_code` script (what a model writes once). Both
 * run for real through the gateway (built `dist/`, over Streamable HTTP); the transcripts a model
 * would carry are counted with o200k (gpt-tokenizer).
 *
 * Cost model per request (prompt caching): the prefix shared with the previous request is a cache
 * read (×0.1), the rest is a cache write (×1.25); "uncached" prices every input token at ×1.0.
 * Segments in prompt order: tool definitions (the session's tools/list at that moment), system
 * prompt, messages. A tool list that changes (a direct search loads tools) breaks the cache there.
 *
 * Timings: sandbox start-up (a `return 1` script), per-call overhead inside a script against the
 * same call made directly by the client, and the sandbox alone (a new worker thread per run vs an idle worker reused).
 *
 *   npm run bench:code-mode [-- --no-write]   → bench/results/code-mode.md
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { o200kTokens } from '../src/inspect/tokenizer.js';
import { referenceServerConfig } from '../src/mcp/defaults.js';
import { loadTools } from './datasets.js';
import { header } from './report.js';

type CreateModule = typeof import('../src/gateway/create.js');
type HttpModule = typeof import('../src/gateway/transports/http/server.js');
type ConfigModule = typeof import('../src/mcp/config.js');
type SandboxModule = typeof import('../src/sandbox/index.js');

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
// The built package: its sandbox worker is plain JavaScript (from src/ it would start through tsx).
const dist = <T>(path: string) => import(join(REPO, 'dist', path)) as Promise<T>;
const { createGatewayFromConfig } = await dist<CreateModule>('gateway/create.js');
const { startHttpGateway } = await dist<HttpModule>('gateway/transports/http/server.js');
const { parseHubConfig } = await dist<ConfigModule>('mcp/config.js');
const { CodeSandbox } = await dist<SandboxModule>('sandbox/index.js');

const WRITE = !process.argv.includes('--no-write');
const SYSTEM = 'You are a careful assistant. Use the tools to do what the user asks, then answer briefly.';
const PRICE = { write: 1.25, read: 0.1, uncached: 1.0 };

// The files the tasks read: copies of this repository's own documents (real text, reproducible).
const root = mkdtempSync(join(tmpdir(), 'toolsearch-bench-code-'));
const FILES = ['docs/requirements.md', 'LICENSE', 'bench/README.md'];
const copies = FILES.map((file, i) => {
  const to = join(root, `note-${i + 1}${file.endsWith('.md') ? '.md' : '.txt'}`);
  copyFileSync(join(REPO, file), to);
  return to;
});
const memoryFile = join(root, 'memory.jsonl');
writeFileSync(memoryFile, '');

interface Step {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

interface Task {
  readonly id: string;
  readonly ask: string;
  /** What a model calls, one turn per call (it searches before calling what it has not loaded). */
  readonly direct: readonly Step[];
  /** The one script a model writes instead. */
  readonly script: string;
}

const J = JSON.stringify;
const TASKS: Task[] = [
  {
    id: 'files-to-memory',
    ask: `Read the three notes in ${root} and file each in memory as an entity (its first line as an observation).`,
    direct: [
      { name: 'tool_search', args: { query: 'read text file' } },
      ...copies.map((path) => ({ name: 'mcp__filesystem__read_text_file', args: { path } })),
      { name: 'tool_search', args: { query: 'create entities knowledge graph' } },
      {
        name: 'mcp__memory__create_entities',
        args: {
          entities: copies.map((path, i) => ({ name: `note-${i + 1}`, entityType: 'note', observations: [path] })),
        },
      },
    ],
    script: `const paths = ${J(copies)};
const texts = await Promise.all(paths.map((path) => call('mcp__filesystem__read_text_file', { path })));
const entities = texts.map((t, i) => ({ name: 'note-' + (i + 1), entityType: 'note',
  observations: [String(t.content ?? t).split('\\n')[0]] }));
await call('mcp__memory__create_entities', { entities });
return entities.map((e) => e.name + ': ' + e.observations[0]);`,
  },
  {
    id: 'largest-file-head',
    ask: `Which file in ${root} is largest, and what are its first lines?`,
    direct: [
      { name: 'tool_search', args: { query: 'list directory with file sizes' } },
      { name: 'mcp__filesystem__list_directory_with_sizes', args: { path: root, sortBy: 'size' } },
      { name: 'tool_search', args: { query: 'file metadata info' } },
      { name: 'mcp__filesystem__get_file_info', args: { path: copies[0] } },
      { name: 'tool_search', args: { query: 'read text file' } },
      { name: 'mcp__filesystem__read_text_file', args: { path: copies[0], head: 5 } },
    ],
    script: `const [list] = await search('list directory with file sizes', { maxResults: 1 });
const listing = await call(list.name, { path: ${J(root)}, sortBy: 'size' });
const text = String(listing.content ?? listing);
const name = text.split('\\n').find((line) => line.startsWith('[FILE]')).slice(7).trim().split(/\\s+/)[0];
const path = ${J(root)} + '/' + name;
const info = await call('mcp__filesystem__get_file_info', { path });
const head = await call('mcp__filesystem__read_text_file', { path, head: 5 });
return { name, info: String(info.content ?? info).split('\\n').slice(0, 2), head: String(head.content ?? head) };`,
  },
  {
    id: 'graph-audit',
    ask: 'How many notes does memory hold, and what does the first one say?',
    direct: [
      { name: 'tool_search', args: { query: 'knowledge graph search nodes' } },
      { name: 'mcp__memory__read_graph', args: {} },
      { name: 'mcp__memory__search_nodes', args: { query: 'note' } },
      { name: 'mcp__memory__open_nodes', args: { names: ['note-1'] } },
    ],
    script: `const graph = await call('mcp__memory__read_graph', {});
const found = await call('mcp__memory__search_nodes', { query: 'note' });
const [first] = (await call('mcp__memory__open_nodes', { names: [found.entities[0].name] })).entities;
return { notes: graph.entities.filter((e) => e.entityType === 'note').length, first: first.observations[0] };`,
  },
];

interface Segmented {
  readonly segments: string[];
}

/** Tokens, cache reads/writes of a run of requests, each a list of segments in prompt order. */
function cost(requests: readonly Segmented[]) {
  let processed = 0;
  let weighted = 0;
  let previous: string[] = [];
  for (const { segments } of requests) {
    let shared = 0;
    while (shared < segments.length && shared < previous.length && segments[shared] === previous[shared]) shared++;
    const read = segments.slice(0, shared).reduce((n, s) => n + o200kTokens(s), 0);
    const written = segments.slice(shared).reduce((n, s) => n + o200kTokens(s), 0);
    processed += read + written;
    weighted += read * PRICE.read + written * PRICE.write;
    previous = segments;
  }
  const carried = requests.at(-1)!.segments.reduce((n, s) => n + o200kTokens(s), 0);
  return { requests: requests.length, carried, processed, weighted, uncached: processed * PRICE.uncached };
}

function resultText(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : J(c))).join('\n');
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench-code-mode', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A task's transcripts: one request per direct step (+ the answer), or two around one run_code. */
async function transcripts(url: string, task: Task) {
  const direct = await connect(url);
  const requests: Segmented[] = [];
  const messages: string[] = [J({ role: 'user', content: task.ask })];
  const prompt = async (client: Client) => [J((await client.listTools()).tools), SYSTEM, ...messages];
  for (const step of task.direct) {
    requests.push({ segments: await prompt(direct) });
    const result = (await direct.callTool({ name: step.name, arguments: step.args })) as CallToolResult;
    if (result.isError) throw new Error(`${task.id}: ${step.name} failed: ${resultText(result)}`);
    messages.push(J({ role: 'assistant', tool_use: step }), J({ role: 'tool', content: resultText(result) }));
  }
  requests.push({ segments: await prompt(direct) });
  await direct.close();

  const coded = await connect(url);
  messages.length = 1;
  const code: Segmented[] = [{ segments: await prompt(coded) }];
  const run = { name: 'run_code', args: { code: task.script } };
  const result = (await coded.callTool({ name: run.name, arguments: run.args })) as CallToolResult;
  if (result.isError) throw new Error(`${task.id}: run_code failed: ${resultText(result)}`);
  messages.push(J({ role: 'assistant', tool_use: run }), J({ role: 'tool', content: resultText(result) }));
  code.push({ segments: await prompt(coded) });
  await coded.close();
  return { direct: cost(requests), code: cost(code), value: resultText(result) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(n: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Start-up and per-call overhead through the gateway, against the same call made directly. */
async function timings(url: string, upstream: () => Promise<unknown>) {
  const client = await connect(url);
  await client.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__memory__read_graph' } });
  const call = () => client.callTool({ name: 'mcp__memory__read_graph', arguments: {} });
  const script = (code: string) => client.callTool({ name: 'run_code', arguments: { code } });
  await call();
  await script('return 1;');
  const CALLS = 20;
  const directCall = await timed(15, call);
  const upstreamCall = await timed(15, upstream);
  const startup = await timed(15, () => script('return 1;'));
  const manyCalls = await timed(7, () =>
    script(`for (let i = 0; i < ${CALLS}; i++) await call('mcp__memory__read_graph', {}); return 1;`),
  );
  await client.close();
  return { directCall, upstreamCall, startup, perCall: (manyCalls - startup) / CALLS, calls: CALLS };
}

async function sandboxAlone() {
  const host = { search: async () => [], call: async () => ({}) };
  const cold = new CodeSandbox({ idleWorkers: 0 });
  const warm = new CodeSandbox();
  await warm.run('return 1;', host);
  const coldMs = await timed(10, () => cold.run('return 1;', host));
  const warmMs = await timed(10, () => warm.run('return 1;', host));
  warm.close();
  return { coldMs, warmMs };
}

async function catalogRun(label: string, extraTools: number) {
  const config = parseHubConfig(
    {
      mcpServers: {
        filesystem: referenceServerConfig('filesystem', { root }),
        memory: referenceServerConfig('memory', { memoryFile }),
        everything: referenceServerConfig('everything'),
        'sequential-thinking': referenceServerConfig('sequential-thinking'),
      },
      toolSearch: { codeMode: true, mode: 'always', learning: false },
    },
    'bench',
  );
  const stack = await createGatewayFromConfig({ config });
  const http = await startHttpGateway(stack.gateway, { port: 0 });
  await stack.hub.settled();
  // The set includes the reference servers' own tools: those are already there, live.
  const catalog = stack.hub.catalog;
  if (extraTools > 0)
    catalog.add(
      loadTools('livemcpbench')
        .filter((tool) => !catalog.has(tool.name))
        .slice(0, extraTools),
    );
  writeFileSync(memoryFile, '');
  const tasks = [];
  for (const task of TASKS) tasks.push({ task, ...(await transcripts(http.url, task)) });
  const upstream = () => stack.hub.callTool('memory', 'read_graph', {});
  const timing = extraTools === 0 ? await timings(http.url, upstream) : undefined;
  const size = stack.hub.catalog.size;
  await http.close();
  await stack.close();
  return { label, size, tasks, timing };
}

const runs = [await catalogRun('bundled servers', 0), await catalogRun('bundled + livemcpbench', 527)];
const alone = await sandboxAlone();

const pct = (a: number, b: number) => `${Math.round((1 - a / b) * 100)}%`;
const lines = [
  header('Code mode: one run_code against direct tool calls', 'npm run bench:code-mode'),
  '',
  "Tokens are o200k (gpt-tokenizer) over what a model would be sent: the session's tool list, a system line and the messages (tool calls and their results as the gateway returned them). Requests are one per direct call plus the answer; code mode is the request that writes the script and the one that reads its value. Weighted = cache reads ×0.1 + cache writes ×1.25 (a prefix shared with the previous request is read); uncached = every input token ×1.0. The scripts and call sequences are in bench/code-mode.ts.",
  '',
];
for (const run of runs) {
  lines.push(`## ${run.label} (${run.size} tools)`, '');
  lines.push(
    '| task | requests direct / code | carried (last request) direct / code | processed direct / code | weighted direct / code | saved (weighted) | uncached direct / code |',
  );
  lines.push('|---|---|---|---|---|---|---|');
  for (const { task, direct, code } of run.tasks) {
    lines.push(
      `| ${task.id} | ${direct.requests} / ${code.requests} | ${direct.carried} / ${code.carried} | ${direct.processed} / ${code.processed} | ${Math.round(direct.weighted)} / ${Math.round(code.weighted)} | ${pct(code.weighted, direct.weighted)} | ${direct.uncached} / ${code.uncached} |`,
    );
  }
  lines.push('');
}
const t = runs[0]!.timing!;
lines.push(
  '## Time (bundled servers, through the HTTP gateway, medians)',
  '',
  '| measure | ms |',
  '|---|---|',
  `| one direct call by the client (mcp__memory__read_graph, HTTP → gateway → server) | ${t.directCall.toFixed(1)} |`,
  `| the same call from inside the gateway (hub → server, no client hop) | ${t.upstreamCall.toFixed(1)} |`,
  `| run_code \`return 1;\` (sandbox start-up + the run_code round trip) | ${t.startup.toFixed(1)} |`,
  `| per call inside a script (${t.calls} calls, start-up subtracted) | ${t.perCall.toFixed(1)} |`,
  `| sandbox alone, cold (a new worker thread per run) | ${alone.coldMs.toFixed(1)} |`,
  `| sandbox alone, an idle worker reused (fresh engine runtime per run) | ${alone.warmMs.toFixed(1)} |`,
  '',
  `Load average while measuring: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(', ')} on ${cpus().length} cores (shared machine): the milliseconds are noisy; the token figures are exact.`,
  '',
  "The script's value for each task (bundled run):",
  '',
  ...runs[0]!.tasks.map(({ task, value }) => `- ${task.id}: \`${value.slice(0, 300).replace(/\n/g, ' ')}\``),
  '',
);
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
if (WRITE) writeFileSync(join(HERE, 'results/code-mode.md'), report);
process.exit(0);
