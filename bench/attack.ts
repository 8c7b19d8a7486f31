/**
 * `npm run bench:attack` — G5: what each attack of issue 11 costs the gateway and the other
 * sessions (loopback only, bounded in count and time).
 *
 * Per scenario, a fresh gateway process (bench/attack-gateway.ts, default limits) fronts a steady
 * fixture server and, for upstream attacks, one hostile fixture server. A victim session searches
 * ("add two numbers") and calls `mcp__steady__add` in a loop during the attack window; HTTP
 * attacks run from this process at the same time. Reported: the victim's latency (p50/p99/max)
 * and failures, the gateway's RSS after a GC at the end and its peak RSS, and what the attack
 * left (tools accepted, sessions left, status codes). `--window MS` (default 8000).
 *
 * The npm script silences MaxListenersExceededWarning in this process only: the SDK's HTTP client
 * transport adds an abort listener per request to one long-lived signal, so the victim's few
 * thousand requests trip it. The gateway process's warnings still print.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { hostileServer } from '../test/fixtures/servers/index.js';

const windowIndex = process.argv.indexOf('--window');
const WINDOW_MS = windowIndex >= 0 ? Number(process.argv[windowIndex + 1]) : 8_000;
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
};
const GOOD = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Stats {
  httpSessions: number;
  liveSessions: number;
  storedSessions: number;
  tools: Record<string, number>;
  longestDescription: number;
  rssMiB: number;
  peakRssMiB: number;
}

interface Scenario {
  name: string;
  attack: string;
  /** Hostile upstream servers besides `steady`. */
  servers?: Record<string, ReturnType<typeof hostileServer>>;
  /** Runs during the window (HTTP attacks, or triggering an upstream); returns a summary of what it saw. */
  run?: (ctx: { url: string; call: (server: string, tool: string) => Promise<void> }) => Promise<string>;
  /** What the attack left, from the gateway's stats at the end. */
  outcome: (stats: Stats, seen: string) => string;
}

/** A raw request with full control of the headers; resolves to the status code. */
function raw(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', () => resolve(0));
    req.end(JSON.stringify(INIT));
  });
}

/** `count` requests, `concurrency` at a time; returns a status histogram like "503×4000, 200×1000". */
async function flood(count: number, concurrency: number, send: (i: number) => Promise<number>): Promise<string> {
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const status = await send(next++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(', ');
}

const port = (url: string) => new URL(url).port;

const SCENARIOS: Scenario[] = [
  { name: 'baseline', attack: 'no attack', outcome: (s) => `${s.tools['steady']} steady tools` },
  {
    name: 'huge description',
    attack: 'one tool with a 2,000,000-character description',
    servers: { huge: hostileServer('huge', ['huge_description']) },
    outcome: (s) =>
      `${s.tools['huge']} tools; longest description kept: ${s.longestDescription.toLocaleString('en-US')} chars`,
  },
  {
    name: 'endless pagination',
    attack: 'tools/list never ends (100 tools a page)',
    servers: { endless: hostileServer('endless', ['endless_pages']) },
    outcome: (s) => `${(s.tools['endless'] ?? 0).toLocaleString('en-US')} tools accepted`,
  },
  {
    name: 'endless refresh',
    attack: 'after list_changed, tools/list never ends (50 ms a page)',
    servers: { stalls: hostileServer('stalls', ['endless_on_change']) },
    run: async ({ call }) => {
      await call('stalls', 'change');
      return '';
    },
    outcome: (s) => `${s.tools['stalls']} tools listed at the end of the window`,
  },
  {
    name: 'stderr flood',
    attack: '100 MB of stderr without a newline',
    servers: { flood: hostileServer('flood', ['stderr_flood']) },
    outcome: (s) => `${s.tools['flood']} tools listed`,
  },
  {
    name: 'stdout garbage',
    attack: 'non-JSON lines on stdout before every answer',
    servers: { garbage: hostileServer('garbage', ['stdout_garbage']) },
    outcome: (s) => `${s.tools['garbage']} tools accepted`,
  },
  {
    name: 'refused initializes',
    attack: '3,000 initializes with a bad Accept or Content-Type (406/415), 20 at a time',
    run: ({ url }) =>
      flood(3_000, 20, (i) =>
        raw(url, i % 2 === 0 ? { ...GOOD, accept: 'application/json' } : { ...GOOD, 'content-type': 'text/plain' }),
      ),
    outcome: (s, seen) =>
      `${seen}; sessions left: ${s.httpSessions - 1} open, ${s.liveSessions - 1} servers, ${s.storedSessions - 1} stored (victim excluded)`,
  },
  {
    name: 'session flood',
    attack: '5,000 valid initializes never deleted, 50 at a time',
    run: ({ url }) => flood(5_000, 50, () => raw(url, GOOD)),
    outcome: (s, seen) => `${seen}; ${s.httpSessions} sessions open`,
  },
  {
    name: 'forged Host',
    attack: '3,000 initializes with Host 127.0.0.1.evil.com / 127.0.0.1.nip.io',
    run: ({ url }) =>
      flood(3_000, 20, (i) =>
        raw(url, { ...GOOD, host: `${i % 2 ? '127.0.0.1.evil.com' : '127.0.0.1.nip.io'}:${port(url)}` }),
      ),
    outcome: (s, seen) => `${seen}; sessions left: ${s.httpSessions - 1} open, ${s.liveSessions - 1} servers`,
  },
];

interface Row {
  scenario: Scenario;
  ok: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  stats: Stats;
  seen: string;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function runScenario(scenario: Scenario, dir: string): Promise<Row> {
  const config = join(dir, `${scenario.name.replace(/\W+/g, '-')}.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { steady: hostileServer('steady', []), ...scenario.servers } }));
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', new URL('./attack-gateway.ts', import.meta.url).pathname, config],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async <T>(): Promise<T> => {
    const line = await lines.next();
    if (line.done) throw new Error('the gateway process ended');
    return JSON.parse(line.value) as T;
  };
  try {
    const { url } = await next<{ url: string }>();
    const victim = new Client({ name: 'victim', version: '1' });
    await victim.connect(new StreamableHTTPClientTransport(new URL(url)));
    await victim.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__steady__add' } });
    const call = async (server: string, tool: string) => {
      child.stdin.write(`call ${server} ${tool}\n`);
      await next();
    };
    const latencies: number[] = [];
    let failed = 0;
    const end = Date.now() + WINDOW_MS;
    const attack = scenario.run?.({ url, call }) ?? Promise.resolve('');
    for (let i = 0; Date.now() < end; i++) {
      const started = performance.now();
      try {
        const result = (
          i % 2 === 0
            ? await victim.callTool({ name: 'tool_search', arguments: { query: 'add two numbers' } })
            : await victim.callTool({ name: 'mcp__steady__add', arguments: { a: i, b: 1 } })
        ) as CallToolResult;
        const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
        const good =
          i % 2 === 0 ? text.includes('mcp__steady__add') && !text.includes('Search error') : text === String(i + 1);
        if (!good || result.isError) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
    }
    const seen = await attack;
    await victim.close();
    child.stdin.write('stats\n');
    const stats = await next<Stats>();
    latencies.sort((a, b) => a - b);
    return {
      scenario,
      ok: latencies.length - failed,
      failed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
      stats,
      seen,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-attack-'));
const rows: Row[] = [];
for (const scenario of SCENARIOS) {
  process.stderr.write(`attack: ${scenario.name}…\n`);
  rows.push(await runScenario(scenario, dir));
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const command = `npm run bench:attack${WINDOW_MS !== 8_000 ? ` -- --window ${WINDOW_MS}` : ''}`;
const table = [
  '| scenario | attack | victim requests ok / failed | victim p50 / p99 / max (ms) | gateway RSS after GC (MiB) | gateway peak RSS (MiB) | what the attack left |',
  '|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.scenario.name} | ${r.scenario.attack} | ${r.ok} / ${r.failed} | ${ms(r.p50)} / ${ms(r.p99)} / ${ms(r.max)} | ${r.stats.rssMiB} | ${r.stats.peakRssMiB} | ${r.scenario.outcome(r.stats, r.seen)} |`,
  ),
].join('\n');
const report = [
  '# Attack bench (G5, issue 11)',
  '',
  `Command: \`${command}\` — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores (shared with other work while measured).`,
  `Each scenario: a fresh gateway process with default limits; a victim session alternates a keyword search and a call for ${WINDOW_MS / 1000} s while the attack runs.`,
  '',
  table,
  '',
].join('\n');
process.stdout.write(report);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/attack.md', import.meta.url), report);
