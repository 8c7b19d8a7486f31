/**
 * `npm run bench:tool-changes` — how the Anthropic adapter should load a tool mid-conversation
 * (F9): one conversation of six everyday intents (bench/session-stdio.ts) over the real-servers
 * catalog (265 tools), each intent a search, a call of the tool it needs and a reply, run with the
 * real `@anthropic-ai/sdk` and `runAnthropicAgent` against the wire tests' recording server
 * (test/providers/helpers.ts) in each loading way:
 *   - `tool changes`: the found tool added by value in a `role: "system"` message (`tool_addition`);
 *   - `defer_loading + tool_reference`: every deferred tool sent flagged, the search answering references;
 *   - `client-side`: the found tool joins the next request's `tools`.
 * Each recorded request is read as the API renders it, block by block (each tool, each system
 * block, each message block): a deferred tool costs nothing until a reference expands it (then its
 * definition counts where the reference is), a definition by value counts where it is added. Per
 * request: whether it begins with the previous request's exact blocks up to that request's end
 * (where automatic caching, `cache_control` at the top level, puts its breakpoint), its tokens
 * (o200k), and its cost-weighted input with `bench:session`'s price model (src/core/session-cost.ts:
 * the unchanged prefix read at 0.1, the rest written at 1.25). Run twice: keyword searches (each
 * way answering as it does by default), and `select:` searches (every way loads the same one tool).
 * Writes bench/results/anthropic-tool-changes.md (`--no-write`: print only).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { loadCatalogFile } from '../src/cli/catalog-file.js';
import type { Catalog } from '../src/core/catalog.js';
import { LOADED_TAG, readTagBlocks } from '../src/core/markers.js';
import { ModelSupport } from '../src/core/model-support.js';
import { type PromptBlock, requestCost } from '../src/core/session-cost.js';
import { o200kTokens, TOKENIZER_NOTE } from '../src/inspect/tokenizer.js';
import { AnthropicToolSearch, runAnthropicAgent } from '../src/providers/anthropic/index.js';
import { message, text, toolUse } from '../test/fixtures/wire/anthropic.js';
import { REAL_CATALOG } from '../test/fixtures/real-servers/index.js';
import { type Recorded, startWireServer } from '../test/providers/helpers.js';
import { header } from './report.js';
import type { Intent } from './session-sim.js';
import { EVERYDAY } from './session-stdio.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const MODEL = 'claude-sonnet-5-5';
const SYSTEM = 'You are a helpful assistant. Use the tools you are given to do what the user asks.';
const INTENTS: readonly Intent[] = EVERYDAY.slice(0, 6);

type Way = 'tool changes' | 'defer_loading + tool_reference' | 'client-side';
const WAYS: readonly Way[] = ['tool changes', 'defer_loading + tool_reference', 'client-side'];

/** Each way as the adapter's options choose it (client-side: a model the table says lacks references). */
function adapterFor(way: Way, catalog: Catalog): AnthropicToolSearch {
  const noReferences = new ModelSupport({
    rules: [{ capability: 'anthropic-tool-reference', match: () => true, supported: false, source: 'bench' }],
  });
  return new AnthropicToolSearch({
    pool: catalog,
    option: 'always',
    // The recording server stands for the Claude API (its local URL would read as a proxy).
    platform: 'anthropic',
    executor: () => 'ok',
    ...(way !== 'tool changes' && { toolChanges: 'off' as const }),
    ...(way === 'client-side' && { modelSupport: noReferences }),
  });
}

// ── the scripted model ───────────────────────────────────────────────────────────────────────

/** The names a tool result says are loaded: `tool_reference` blocks, or a `<tools-loaded>` marker. */
function loadedIn(result: any): string[] {
  const content = typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
  return content.flatMap((c: any) =>
    c.type === 'tool_reference'
      ? [c.tool_name]
      : c.type === 'text'
        ? readTagBlocks(c.text, LOADED_TAG).flatMap((b) => b.lines)
        : [],
  );
}

/**
 * Reads the request as a model would: a new user request → search for it; the search's result
 * loaded a tool the intent needs → call it; it did not → `select:` it; the call's result → reply.
 */
function scriptedModel(intentOf: () => Intent, query: (intent: Intent) => string) {
  let ids = 0;
  const calls = new Map<string, 'search' | 'call'>();
  return (request: Recorded) => {
    const turns = (request.body.messages as any[]).filter((m) => m.role !== 'system');
    const last = turns[turns.length - 1];
    const intent = intentOf();
    const use = (name: string, input: unknown, kind: 'search' | 'call') => {
      const id = `toolu_${++ids}`;
      calls.set(id, kind);
      return message([toolUse(id, name, input)], 'tool_use');
    };
    const results = Array.isArray(last.content) ? last.content.filter((b: any) => b.type === 'tool_result') : [];
    if (results.length === 0) return use('tool_search', { query: query(intent) }, 'search');
    const result = results[0];
    if (calls.get(result.tool_use_id) === 'call') return message([text('Done.')]);
    const target = intent.targets.find((t) => loadedIn(result).includes(t));
    if (target) return use(target, intent.args ?? {}, 'call');
    return use('tool_search', { query: `select:${intent.targets[0]}` }, 'search');
  };
}

// ── reading a request as the API renders it ──────────────────────────────────────────────────

const tokenMemo = new Map<string, number>();
function tokens(value: string): number {
  let n = tokenMemo.get(value);
  if (n === undefined) tokenMemo.set(value, (n = o200kTokens(value)));
  return n;
}

/** Tools, system, messages, block by block: `key` the exact bytes sent, `tokens` what it renders to. */
function renderedBlocks(body: any): PromptBlock[] {
  const definitions = new Map<string, string>();
  const blocks: PromptBlock[] = [];
  for (const tool of body.tools ?? []) {
    const json = JSON.stringify(tool);
    const { defer_loading: deferred, ...definition } = tool;
    definitions.set(tool.name, JSON.stringify(definition));
    blocks.push({ key: `tool ${json}`, tokens: deferred ? 0 : tokens(json) });
  }
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) blocks.push({ key: `system ${JSON.stringify(block)}`, tokens: tokens(block.text) });
  for (const m of body.messages as any[]) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const block of content)
      blocks.push({ key: `${m.role} ${JSON.stringify(block)}`, tokens: blockTokens(block, definitions) });
  }
  return blocks;
}

/** A reference expands to its tool's definition where it stands; a definition by value counts there. */
function blockTokens(block: any, definitions: ReadonlyMap<string, string>): number {
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    const rest = block.content.filter((c: any) => c.type !== 'tool_reference');
    const expanded = block.content
      .filter((c: any) => c.type === 'tool_reference')
      .reduce((sum: number, c: any) => sum + tokens(definitions.get(c.tool_name) ?? c.tool_name), 0);
    return expanded + tokens(JSON.stringify({ ...block, content: rest }));
  }
  if (block.type === 'tool_addition' && block.tool?.type === 'tool_definition')
    return tokens(JSON.stringify(block.tool.definition));
  return tokens(block.type === 'text' ? block.text : JSON.stringify(block));
}

function startsWith(blocks: readonly PromptBlock[], prefix: readonly PromptBlock[]): boolean {
  return prefix.length <= blocks.length && prefix.every((b, i) => blocks[i]!.key === b.key);
}

// ── one conversation per way ─────────────────────────────────────────────────────────────────

interface Row {
  /** The request body's size as sent (JSON bytes). */
  readonly bytes: number;
  readonly tokens: number;
  readonly cached: number;
  readonly weighted: number;
  readonly prefixKept: boolean | undefined;
  readonly toolsUnchanged: boolean | undefined;
}

interface Run {
  readonly way: Way;
  readonly rows: Row[];
  readonly searches: number;
  readonly calls: number;
}

async function conversation(way: Way, catalog: Catalog, query: (intent: Intent) => string): Promise<Run> {
  const server = await startWireServer();
  try {
    const client = new Anthropic({ apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
    const toolSearch = adapterFor(way, catalog);
    let current = INTENTS[0]!;
    const reply = scriptedModel(() => current, query);
    let messages: MessageParam[] = [];
    for (const intent of INTENTS) {
      current = intent;
      for (let i = 0; i < 8; i++) server.script('/v1/messages', reply);
      const run = await runAnthropicAgent({
        client,
        toolSearch,
        params: {
          model: MODEL,
          max_tokens: 1024,
          system: SYSTEM,
          cache_control: { type: 'ephemeral' },
          messages: [...messages, { role: 'user', content: intent.text }],
        },
      });
      messages = run.messages;
    }
    const bodies = server.to('/v1/messages').map((r) => r.body);
    const rows: Row[] = [];
    let previous: PromptBlock[] | undefined;
    let previousTools: string | undefined;
    for (const body of bodies) {
      const blocks = renderedBlocks(body);
      const cost = requestCost(previous, blocks);
      const tools = JSON.stringify(body.tools ?? []);
      rows.push({
        bytes: Buffer.byteLength(JSON.stringify(body)),
        tokens: cost.tokens,
        cached: cost.cached,
        weighted: cost.weighted,
        prefixKept: previous ? startsWith(blocks, previous) : undefined,
        toolsUnchanged: previousTools !== undefined ? tools === previousTools : undefined,
      });
      previous = blocks;
      previousTools = tools;
    }
    // The last request holds every call once.
    const lastUses = (bodies[bodies.length - 1]!.messages as any[]).flatMap((m) =>
      m.role === 'assistant' && Array.isArray(m.content) ? m.content.filter((c: any) => c.type === 'tool_use') : [],
    );
    return {
      way,
      rows,
      searches: lastUses.filter((u: any) => u.name === 'tool_search').length,
      calls: lastUses.filter((u: any) => u.name !== 'tool_search').length,
    };
  } finally {
    await server.close();
  }
}

// ── the report ───────────────────────────────────────────────────────────────────────────────

const k = (x: number) => Math.round(x).toLocaleString('en-US');

function table(title: string, runs: readonly Run[]): string[] {
  const lines = [
    `### ${title}`,
    '',
    '| way | requests | searches | calls | every request begins with the previous one (to its breakpoint) | `tools` unchanged | mean request body | tokens, all requests | read from cache | cost-weighted input | ÷ tool changes |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const base = runs[0]!.rows.reduce((s, r) => s + r.weighted, 0);
  for (const run of runs) {
    const total = run.rows.reduce((s, r) => s + r.tokens, 0);
    const cached = run.rows.reduce((s, r) => s + r.cached, 0);
    const weighted = run.rows.reduce((s, r) => s + r.weighted, 0);
    const kept = run.rows.slice(1).filter((r) => r.prefixKept).length;
    const tools = run.rows.slice(1).filter((r) => r.toolsUnchanged).length;
    const bytes = run.rows.reduce((s, r) => s + r.bytes, 0) / run.rows.length;
    lines.push(
      `| ${run.way} | ${run.rows.length} | ${run.searches} | ${run.calls} | ${kept}/${run.rows.length - 1} | ${tools}/${run.rows.length - 1} | ${k(bytes / 1024)} KB | ${k(total)} | ${k(cached)} | ${k(weighted)} | ${(weighted / base).toFixed(3)} |`,
    );
  }
  lines.push(
    '',
    'Per request (tokens / read from cache / cost-weighted; ✗ where it does not begin with the previous request):',
    '',
  );
  lines.push(`| # | ${runs.map((r) => r.way).join(' | ')} |`, `|---|${runs.map(() => '---').join('|')}|`);
  const n = Math.max(...runs.map((r) => r.rows.length));
  for (let i = 0; i < n; i++)
    lines.push(
      `| ${i + 1} | ${runs
        .map((r) => {
          const row = r.rows[i];
          return row
            ? `${k(row.tokens)} / ${k(row.cached)} / ${k(row.weighted)}${row.prefixKept === false ? ' ✗' : ''}`
            : '';
        })
        .join(' | ')} |`,
    );
  return [...lines, ''];
}

async function main(): Promise<void> {
  const write = !process.argv.includes('--no-write');
  const catalog = loadCatalogFile(REAL_CATALOG, { warn: null });
  const out = [
    header('Anthropic: loading a tool mid-conversation, three ways (F9)', 'npm run bench:tool-changes'),
    '',
    `One conversation of ${INTENTS.length} everyday intents (${INTENTS.map((i) => `"${i.text}"`).join(', ')}) over the real-servers catalog (${catalog.tools.length} tools, every MCP tool deferred), model \`${MODEL}\`, through the real \`@anthropic-ai/sdk\` and \`runAnthropicAgent\` against the wire tests' recording server. ${TOKENIZER_NOTE} A request is read as the API renders it, block by block: a deferred tool costs nothing until a \`tool_reference\` expands it (its definition counted where the reference stands), a definition by value counts where it is added. Automatic caching (\`cache_control\` at the top level) puts the breakpoint at the end of each request, so "begins with the previous one" compares the whole previous request, block for block, exact bytes. Cost-weighted input: \`bench:session\`'s price model (the unchanged prefix ×0.1, the rest ×1.25; Anthropic's minimum cacheable length ignored).`,
    '',
  ];
  for (const [title, query] of [
    ['Keyword searches (each way answers as it does by default)', (i: Intent) => i.text],
    ['`select:` searches (every way loads the same one tool)', (i: Intent) => `select:${i.targets[0]}`],
  ] as const) {
    const runs: Run[] = [];
    for (const way of WAYS) runs.push(await conversation(way, catalog, query));
    out.push(...table(title, runs));
  }
  const textOut = out.join('\n');
  process.stdout.write(`${textOut}\n`);
  if (write) writeFileSync(join(HERE, 'results', 'anthropic-tool-changes.md'), `${textOut}\n`);
}

await main();
