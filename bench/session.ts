/**
 * `npm run bench:session` — what whole sessions cost (E5, issue 30), with no model:
 * 1. scripted sessions of 20 intents over the bundled servers' catalog, LiveMCPBench (527 tools)
 *    and LiveMCPBench + Smithery (as `baseline_bm25.py --distractors smithery`), for eager,
 *    Anthropic-native, growing list and fixed list (bench/session-sim.ts): tools and history tokens
 *    per request, cost-weighted input tokens under prompt caching, the ratio to eager, misses, and
 *    whether the needed tool was loaded or only listed; plus what `auto` decides for each catalog;
 *    The gateway's default tool list (fixed) is marked;
 * 2. the same LiveMCPBench session with a longer client system prompt (`--system-tokens N`, default
 *    3,000: an assumed size, not measured from a client): what a list change costs when the prompt
 *    after the tools is large;
 * 3. eight everyday intents against `toolsearch serve --mode always` over stdio with the real
 *    bundled servers, in the default (fixed) list and with `--tool-list growing`: median search
 *    answer, prefix-stable lists, what the session ends carrying.
 * Writes bench/results/session.md (`--no-write`: print only).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogFile } from '../src/cli/catalog-file.js';
import type { Catalog } from '../src/core/catalog.js';
import { definitionTokens } from '../src/inspect/report.js';
import { o200kTokens, TOKENIZER_NOTE } from '../src/inspect/tokenizer.js';
import { sessionCostOf } from '../src/gateway/tools/deferral.js';
import { DEFAULT_GATEWAY_TOOL_LIST } from '../src/gateway/tools/tool-list.js';
import { createGatewayFromConfig } from '../src/gateway/create.js';
import { DATA_DIR, distractorSet, loadSet } from './datasets.js';
import { header } from './report.js';
import { median, runSession, SESSION_MODES, type Intent, type SessionMode, type SessionRun } from './session-sim.js';
import { BUNDLED_INTENTS, everydayStdio } from './session-stdio.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const INTENTS = 20;
/** `--system-tokens N`: the longer client system prompt of part 2 (an assumed size). */
const SYSTEM_TOKENS = systemTokensFlag(process.argv);

function systemTokensFlag(argv: readonly string[]): number {
  const at = argv.indexOf('--system-tokens');
  if (at < 0) return 3000;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`--system-tokens: expected a positive whole number, got "${argv[at + 1]}"`);
  return n;
}

/** The mode's name in the tables, the gateway's default marked. */
function modeLabel(mode: string): string {
  return mode === DEFAULT_GATEWAY_TOOL_LIST ? `${mode} (gateway default)` : mode;
}
const f = (x: number, d = 3) => x.toFixed(d);
const k = (x: number) => Math.round(x).toLocaleString('en-US');

interface BenchCatalog {
  readonly name: string;
  readonly catalog: Catalog;
  readonly intents: readonly Intent[];
}

/** 20 queries spread evenly over the set (every n/20-th), target = the first tool the task needs. */
function pickIntents(queries: readonly { query: string; gold: string[][] }[], nameOf: Map<string, string>): Intent[] {
  const out: Intent[] = [];
  for (let i = 0; i < INTENTS && i < queries.length; i++) {
    const q = queries[Math.floor((i * queries.length) / INTENTS)]!;
    const targets = (q.gold[0] ?? []).map((id) => nameOf.get(id)).filter((n): n is string => n !== undefined);
    if (targets.length > 0) out.push({ text: q.query, targets });
  }
  return out;
}

function idMap(catalog: Catalog): Map<string, string> {
  return new Map(catalog.tools.map((t) => [t.id ?? t.name, t.name]));
}

function liveMcpBench(): BenchCatalog {
  const catalog = loadCatalogFile(join(DATA_DIR, 'livemcpbench', 'catalog.jsonl'), { warn: null });
  return { name: 'LiveMCPBench', catalog, intents: pickIntents(loadSet('livemcpbench').queries, idMap(catalog)) };
}

/** LiveMCPBench + Smithery as one catalog file (ids and names as `distractorSet` makes them unique). */
function smithery(): BenchCatalog {
  const set = distractorSet();
  const dir = mkdtempSync(join(tmpdir(), 'bench-session-'));
  const file = join(dir, 'catalog.jsonl');
  const lines = set.tools.map((t) =>
    JSON.stringify({
      id: t.id ?? t.name,
      server: t.origin.kind === 'mcp' ? t.origin.server : null,
      name: t.originalName ?? t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const catalog = loadCatalogFile(file, { warn: null });
  return { name: 'LiveMCPBench + Smithery', catalog, intents: pickIntents(set.queries, idMap(catalog)) };
}

/** The bundled reference servers, connected for real, then frozen as a catalog. */
async function bundled(): Promise<BenchCatalog & { close(): Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'bench-session-root-'));
  const stack = await createGatewayFromConfig({ root, memoryFile: join(root, 'memory.jsonl'), learning: null });
  const deadline = Date.now() + 60_000;
  while (stack.hub.catalog.pendingServers.length > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  return { name: 'bundled servers', catalog: stack.hub.catalog, intents: BUNDLED_INTENTS, close: () => stack.close() };
}

function totals(run: SessionRun) {
  let tools = 0;
  let history = 0;
  let weighted = 0;
  for (const r of run.requests) {
    tools += r.toolsTokens;
    history += r.historyTokens;
    weighted += r.weighted;
  }
  return { tools, history, weighted, uncached: tools + history };
}

async function sessionTable(set: BenchCatalog): Promise<{ lines: string[]; runs: Map<string, SessionRun> }> {
  const runs = new Map<string, SessionRun>();
  for (const mode of SESSION_MODES) runs.set(mode, await runSession(set.catalog, set.intents, mode));
  const eager = totals(runs.get('eager')!);
  const auto = sessionCostOf(set.catalog.tools, { count: o200kTokens, toolList: DEFAULT_GATEWAY_TOOL_LIST });
  const lines = [
    `### ${set.name}: ${set.catalog.tools.length} tools, ${k(definitionTokens(set.catalog.tools, o200kTokens))} tokens eager, ${set.intents.length} intents`,
    '',
    '| mode | requests | tools tokens | history tokens | uncached input | cost-weighted input | ÷ eager | below eager at every step | misses | loaded / listed | median answer | prefix kept | tools at end (tokens) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [mode, run] of runs) {
    const t = totals(run);
    const eagerCum = runs.get('eager')!.cumulative;
    const below = mode === 'eager' ? '–' : run.cumulative.every((c, i) => c < eagerCum[i]!) ? 'yes' : 'no';
    lines.push(
      `| ${modeLabel(mode)} | ${run.requests.length} | ${k(t.tools)} | ${k(t.history)} | ${k(t.uncached)} | ${k(t.weighted)} | ${f(t.weighted / eager.weighted)} | ${below} | ${run.misses} | ${mode === 'eager' ? '–' : `${run.loaded} / ${run.listed}`} | ${mode === 'eager' ? '–' : k(median(run.answers))} | ${run.prefixKept}/${run.prefixChecks} | ${run.endTools} (${k(run.endToolsTokens)}) |`,
    );
  }
  lines.push(
    '',
    `\`auto\` (cost model, 20 searches, prompt cache on, ${DEFAULT_GATEWAY_TOOL_LIST} list as the gateway runs it by default): deferred ÷ eager ${f(auto.ratio)}` +
      `${auto.crossover !== undefined ? `, deferral costs more than eager from intent ${auto.crossover} on` : ', never above eager within the session'}` +
      ` → ${auto.defer ? 'defers' : 'loads everything'}.`,
    '',
  );
  return { lines, runs };
}

function perRequest(name: string, run: SessionRun, intents = 3): string[] {
  const lines = [
    `Per request, ${name}, ${run.mode}, first ${intents} intents:`,
    '',
    '| intent | tools tokens | history tokens | read from cache | cost-weighted |',
    '|---|---|---|---|---|',
  ];
  for (const r of run.requests.filter((r) => r.intent < intents))
    lines.push(`| ${r.intent + 1} | ${k(r.toolsTokens)} | ${k(r.historyTokens)} | ${k(r.cached)} | ${k(r.weighted)} |`);
  return [...lines, ''];
}

/**
 * Part 2: LiveMCPBench again with a client system prompt of `systemTokens`. Every provider renders
 * the tool list before the system prompt, so each change to the list re-writes the prompt too.
 */
async function systemPromptTable(
  set: BenchCatalog,
  short: Map<string, SessionRun>,
  systemTokens: number,
): Promise<string[]> {
  const runs = new Map<SessionMode, SessionRun>();
  for (const mode of SESSION_MODES) runs.set(mode, await runSession(set.catalog, set.intents, mode, { systemTokens }));
  const ratioOf = (all: ReadonlyMap<string, SessionRun>, mode: string) =>
    totals(all.get(mode)!).weighted / totals(all.get('eager')!).weighted;
  const eagerCum = runs.get('eager')!.cumulative;
  const lines = [
    `### ${set.name} with a ${k(systemTokens)}-token client system prompt`,
    '',
    `The tables above use a one-sentence system prompt (~18 tokens). Real clients send much longer ones; ${k(systemTokens)} tokens is an assumed size, not measured from a client (\`--system-tokens N\` changes it). The tool list comes first in every request, so each change to it makes the provider write the system prompt again at the cache-write price.`,
    '',
    '| mode | cost-weighted input | ÷ eager | ÷ eager, short prompt | below eager at every step |',
    '|---|---|---|---|---|',
  ];
  for (const [mode, run] of runs) {
    const below = mode === 'eager' ? '–' : run.cumulative.every((c, i) => c < eagerCum[i]!) ? 'yes' : 'no';
    lines.push(
      `| ${modeLabel(mode)} | ${k(totals(run).weighted)} | ${f(ratioOf(runs, mode))} | ${f(ratioOf(short, mode))} | ${below} |`,
    );
  }
  return [...lines, ''];
}

async function main(): Promise<void> {
  const write = !process.argv.includes('--no-write');
  const out: string[] = [header('Whole sessions: tokens carried and processed (E5)', 'npm run bench:session'), ''];
  out.push(
    `Token counts: ${TOKENIZER_NOTE} Cost-weighted input: each request's longest prefix unchanged since the previous request is read from cache (×0.1), the rest written (×1.25); "uncached input" is every token ×1. A request is the tool list, a system prompt, then the messages. Deferred modes take three requests per intent (search, call, reply), eager two; a miss ends the intent after the search. Calls return "ok" (the same in every mode).`,
    '',
  );
  const stack = await bundled();
  const sets: BenchCatalog[] = [stack, liveMcpBench(), smithery()];
  const longPrompt: string[] = [];
  for (const set of sets) {
    process.stderr.write(`${set.name}…\n`);
    const { lines, runs } = await sessionTable(set);
    out.push(...lines);
    if (set === stack)
      out.push(...perRequest(set.name, runs.get('growing')!), ...perRequest(set.name, runs.get('fixed')!));
    if (set.name === 'LiveMCPBench') {
      process.stderr.write(`${set.name}, ${SYSTEM_TOKENS}-token system prompt…\n`);
      longPrompt.push(...(await systemPromptTable(set, runs, SYSTEM_TOKENS)));
    }
  }
  out.push(...longPrompt);
  await stack.close();
  process.stderr.write('eight everyday intents over stdio…\n');
  out.push(...(await everydayStdio()));
  const text = out.join('\n');
  process.stdout.write(`${text}\n`);
  if (write) writeFileSync(join(HERE, 'results', 'session.md'), `${text}\n`);
}

await main();
