/**
 * `bench:session`, part 3, and the bundled servers' intents: everyday requests a person or a model
 * writes, each with the tools that do it. Eight of them run against `toolsearch serve --mode always`
 * (the default fixed list, then `--tool-list growing`) over stdio with the real bundled servers (real calls, a temporary root and memory file): the
 * median search answer, whether each tool list keeps the previous one as its prefix, and what the
 * session ends carrying against eager and against its start plus the tools it called (issue 30's
 * targets).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolDefinitionJson, type ToolDefinitionLike } from '../src/core/tool.js';
import { o200kTokens } from '../src/inspect/tokenizer.js';
import { median, type Intent } from './session-sim.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const fs = (tool: string) => `mcp__filesystem__${tool}`;
const memory = (tool: string) => `mcp__memory__${tool}`;
const everything = (tool: string) => `mcp__everything__${tool}`;
const THINKING = 'mcp__sequential-thinking__sequentialthinking';

/** Eight everyday intents with real arguments (`ROOT` is replaced by the session's temporary root). */
export const EVERYDAY: readonly Intent[] = [
  {
    text: 'read the file notes.txt',
    targets: [fs('read_text_file'), fs('read_file')],
    args: { path: 'ROOT/notes.txt' },
  },
  {
    text: 'show me what is in the project folder',
    targets: [fs('list_directory'), fs('list_directory_with_sizes'), fs('directory_tree')],
    args: { path: 'ROOT' },
  },
  {
    text: 'remember that Bob prefers tea',
    targets: [memory('create_entities'), memory('add_observations')],
    args: { entities: [{ name: 'Bob', entityType: 'person', observations: ['prefers tea'] }] },
  },
  {
    text: 'write a file todo.txt that says buy milk',
    targets: [fs('write_file')],
    args: { path: 'ROOT/todo.txt', content: 'buy milk' },
  },
  {
    text: 'what do I know about Bob',
    targets: [memory('search_nodes'), memory('open_nodes'), memory('read_graph')],
    args: { query: 'Bob' },
  },
  {
    text: 'think through this problem step by step',
    targets: [THINKING],
    args: { thought: 'First, list the steps.', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
  },
  { text: 'echo hello back to me', targets: [everything('echo')], args: { message: 'hello' } },
  { text: 'add 2 and 3', targets: [everything('get-sum')], args: { a: 2, b: 3 } },
];

/** The bundled servers' 20 intents for the scripted sessions: the eight above and twelve more. */
export const BUNDLED_INTENTS: readonly Intent[] = [
  ...EVERYDAY,
  { text: 'rename draft.txt to final.txt', targets: [fs('move_file')] },
  { text: 'make a new folder called archive', targets: [fs('create_directory')] },
  { text: 'find all markdown files in the project', targets: [fs('search_files')] },
  { text: 'how big is report.pdf and when was it last modified', targets: [fs('get_file_info')] },
  { text: 'replace the word foo with bar in config.txt', targets: [fs('edit_file')] },
  { text: 'read notes.txt, todo.txt and plan.txt at once', targets: [fs('read_multiple_files')] },
  {
    text: 'record that Bob works for Acme',
    targets: [memory('create_relations'), memory('add_observations'), memory('create_entities')],
  },
  { text: 'forget everything about Bob', targets: [memory('delete_entities')] },
  { text: 'show me the whole knowledge graph', targets: [memory('read_graph')] },
  { text: 'which directories are you allowed to access', targets: [fs('list_allowed_directories')] },
  { text: 'show me the environment variables', targets: [everything('get-env')] },
  { text: 'compress data.csv with gzip', targets: [everything('gzip-file-as-resource')] },
];

export interface EverydayResult {
  readonly answers: number[];
  readonly prefixKept: number;
  readonly prefixChecks: number;
  readonly misses: string[];
  readonly startTokens: number;
  readonly endTokens: number;
  readonly eagerTokens: number;
  readonly calledTokens: number;
  readonly endTools: number;
}

function listTokens(tools: readonly Tool[]): number {
  return tools.reduce((s, t) => s + o200kTokens(toolDefinitionJson(t as ToolDefinitionLike)), 0);
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
}

function withRoot(value: unknown, root: string): unknown {
  return JSON.parse(JSON.stringify(value ?? {}).replaceAll('ROOT', root.replaceAll('\\', '\\\\')));
}

/** A stdio gateway over the bundled servers in a temporary root, as a client starts it. */
async function serveStdio(entry: readonly string[], mode: string, root: string, extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...entry, 'serve', '--mode', mode, '--root', root, '--no-learning', ...extra],
    env: { ...(process.env as Record<string, string>), TOOLSEARCH_STATE_DIR: join(root, '.state') },
    cwd: root,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-everyday', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Run the eight intents: search with the text, call the needed tool when the answer names it. */
/** The built CLI (the bench); a test passes its own entry (test/fixtures/cli.ts `cliArgs()`). */
export const BUILT_CLI: readonly string[] = [join(REPO, 'dist/cli/main.js')];

/** `serveArgs`: more `serve` flags for the session (e.g. `--tool-list growing`; default: the gateway's default list). */
export async function runEveryday(
  entry: readonly string[] = BUILT_CLI,
  serveArgs: readonly string[] = [],
): Promise<EverydayResult> {
  const root = mkdtempSync(join(tmpdir(), 'bench-everyday-'));
  writeFileSync(join(root, 'notes.txt'), 'Meeting at noon.\n');
  const memoryFile = join(root, 'memory.jsonl');
  const eagerClient = await serveStdio(entry, 'never', root, ['--memory-file', memoryFile]);
  let eagerTools: Tool[] = [];
  for (let i = 0; i < 100 && eagerTools.length < 41; i++) {
    eagerTools = (await eagerClient.listTools()).tools;
    if (eagerTools.length < 41) await new Promise((r) => setTimeout(r, 300));
  }
  await eagerClient.close();
  const client = await serveStdio(entry, 'always', root, ['--memory-file', memoryFile, ...serveArgs]);
  const answers: number[] = [];
  const misses: string[] = [];
  const called = new Set<string>();
  let prefixKept = 0;
  let prefixChecks = 0;
  // The session starts once every server is up (a client refreshes on the list_changed they cause).
  let list = (await client.listTools()).tools;
  for (let i = 0; i < 100 && JSON.stringify(list).includes('Still connecting'); i++) {
    await new Promise((r) => setTimeout(r, 300));
    list = (await client.listTools()).tools;
  }
  const startTokens = listTokens(list);
  const check = (next: Tool[]) => {
    prefixChecks++;
    if (list.every((t, i) => next[i] && JSON.stringify(next[i]) === JSON.stringify(t))) prefixKept++;
    list = next;
  };
  for (const intent of EVERYDAY) {
    const answer = textOf(
      (await client.callTool({ name: 'tool_search', arguments: { query: intent.text } })) as CallToolResult,
    );
    answers.push(o200kTokens(answer));
    check((await client.listTools()).tools);
    const target = intent.targets.find((t) => answer.includes(t));
    if (!target) {
      misses.push(intent.text);
      continue;
    }
    const args = withRoot(intent.args, root) as Record<string, unknown>;
    const inList = list.some((t) => t.name === target);
    await client.callTool(
      inList ? { name: target, arguments: args } : { name: 'call_tool', arguments: { name: target, arguments: args } },
    );
    called.add(target);
    check((await client.listTools()).tools);
  }
  await client.close();
  const byName = new Map(eagerTools.map((t) => [t.name, t]));
  return {
    answers,
    prefixKept,
    prefixChecks,
    misses,
    startTokens,
    endTokens: listTokens(list),
    eagerTokens: listTokens(eagerTools),
    calledTokens: listTokens([...called].map((n) => byName.get(n)).filter((t): t is Tool => t !== undefined)),
    endTools: list.length,
  };
}

export async function everydayStdio(): Promise<string[]> {
  const fixed = await runEveryday();
  const growing = await runEveryday(BUILT_CLI, ['--tool-list', 'growing']);
  const mark = (ok: boolean) => (ok ? 'met' : 'not met');
  const cell = (r: EverydayResult, measure: (r: EverydayResult) => [string, boolean]) => {
    const [text, ok] = measure(r);
    return `${text} (${mark(ok)})`;
  };
  const rows: [string, (r: EverydayResult) => [string, boolean]][] = [
    [
      'median search answer ≤ 300 tokens',
      (r) => [`${median(r.answers)} (all: ${r.answers.join(', ')})`, median(r.answers) <= 300],
    ],
    [
      'every tool list keeps the previous one as its prefix',
      (r) => [`${r.prefixKept}/${r.prefixChecks}`, r.prefixKept === r.prefixChecks],
    ],
    [
      'session ends ≤ 50 % of eager',
      (r) => [
        `${r.endTokens} of ${r.eagerTokens} tokens (${((100 * r.endTokens) / r.eagerTokens).toFixed(1)} %), ${r.endTools} tools`,
        r.endTokens <= r.eagerTokens / 2,
      ],
    ],
    [
      "… and ≤ start + 1.5 × the called tools' definitions",
      (r) => {
        const bound = r.startTokens + 1.5 * r.calledTokens;
        return [
          `${r.endTokens} ≤ ${r.startTokens} + 1.5 × ${r.calledTokens} = ${Math.round(bound)}`,
          r.endTokens <= bound,
        ];
      },
    ],
  ];
  const misses = (r: EverydayResult) => (r.misses.length === 0 ? 'none' : r.misses.map((m) => `"${m}"`).join(', '));
  return [
    '## Eight everyday intents over stdio (`toolsearch serve --mode always`, bundled servers)',
    '',
    'The default (fixed) tool list, and the growing list beside it (`--tool-list growing`). Under the fixed list a search answer also carries the best hit in full, and calls go through `call_tool`.',
    '',
    '| target | fixed (gateway default) | growing |',
    '|---|---|---|',
    ...rows.map(([name, measure]) => `| ${name} | ${cell(fixed, measure)} | ${cell(growing, measure)} |`),
    '',
    `Misses (the answer named none of the intent's tools): fixed ${misses(fixed)}; growing ${misses(growing)}.`,
    '',
  ];
}
