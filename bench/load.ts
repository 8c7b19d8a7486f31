/**
 * `npm run bench:load` — load on the HTTP gateway (loopback only, bounded in count and time).
 *
 * A gateway process fronting server-everything and server-memory; N concurrent Streamable HTTP
 * sessions (default 200), each: initialize → tool_search (select: one tool) → 50 calls of the
 * discovered tool → DELETE (terminateSession). Two rounds; reports throughput, p50/p99 latency,
 * failed calls, and the gateway's sessions and RSS (after GC) before, after round 1 and after
 * round 2 (equal sessions and flat RSS = nothing leaks). `--sessions N --calls N --rounds N`.
 *
 * G9: two gateway processes, operations off and on (metrics + audit log, tracing off), take the
 * rounds in turn (off, on, off, on, …) so both see the same machine; the last table is on/off as a
 * ratio of call latency p50 and p99 (target: p50 at most 1.10×).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

function arg(flag: string, fallback: number): number {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const SESSIONS = arg('--sessions', 200);
const CALLS = arg('--calls', 50);
const ROUNDS = arg('--rounds', 2);
/** A whole round past this is reported as a failure, not waited on forever. */
const ROUND_TIMEOUT_MS = 180_000;

interface GatewayStats {
  httpSessions: number;
  liveSessions: number;
  storedSessions: number;
  rssMiB: number;
  heapMiB: number;
  externalMiB: number;
}

interface GatewayProcess {
  readonly label: string;
  readonly url: string;
  readonly tools: number;
  stats(): Promise<GatewayStats>;
  stop(): void;
}

async function startGateway(label: string, extraArgs: string[]): Promise<GatewayProcess> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', new URL('./load-gateway.ts', import.meta.url).pathname, ...extraArgs],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async <T>(): Promise<T> => {
    const next = await lines.next();
    if (next.done) throw new Error(`the ${label} gateway process ended`);
    return JSON.parse(next.value) as T;
  };
  const { url, tools } = await nextLine<{ url: string; tools: number }>();
  return {
    label,
    url,
    tools,
    stats: () => {
      child.stdin.write('stats\n');
      return nextLine<GatewayStats>();
    },
    stop: () => {
      child.stdin.end();
      child.kill('SIGTERM');
    },
  };
}

/** Tools the sessions use, alternately: one per upstream server. */
const WORKLOADS = [
  {
    tool: 'mcp__everything__echo',
    args: (i: number) => ({ message: `hello ${i}` }),
    expect: (i: number) => `Echo: hello ${i}`,
  },
  { tool: 'mcp__memory__search_nodes', args: (i: number) => ({ query: `n${i}` }), expect: () => undefined },
] as const;

interface RoundResult {
  calls: number;
  failed: number;
  latencies: number[];
  wallMs: number;
  errors: string[];
}

async function runSession(url: string, index: number, result: RoundResult): Promise<void> {
  const work = WORKLOADS[index % WORKLOADS.length]!;
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: `load-${index}`, version: '1.0.0' });
  const fail = (what: string) => {
    result.failed++;
    if (result.errors.length < 10) result.errors.push(what);
  };
  try {
    await client.connect(transport);
    const found = (await client.callTool({
      name: 'tool_search',
      arguments: { query: `select:${work.tool}` },
    })) as CallToolResult;
    if (found.isError || !JSON.stringify(found.content).includes(work.tool))
      fail(`session ${index}: search did not load ${work.tool}`);
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      try {
        const r = (await client.callTool({ name: work.tool, arguments: work.args(i) })) as CallToolResult;
        result.latencies.push(performance.now() - t0);
        result.calls++;
        const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
        const expected = work.expect(i);
        if (r.isError || (expected !== undefined && text !== expected))
          fail(`session ${index} call ${i}: ${text.slice(0, 120)}`);
      } catch (error) {
        result.calls++;
        fail(`session ${index} call ${i}: ${String(error)}`);
      }
    }
    await transport.terminateSession();
  } catch (error) {
    fail(`session ${index}: ${String(error)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function round(url: string): Promise<RoundResult> {
  const result: RoundResult = { calls: 0, failed: 0, latencies: [], wallMs: 0, errors: [] };
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const all = Promise.all(Array.from({ length: SESSIONS }, (_, i) => runSession(url, i, result)));
  const timedOut = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), ROUND_TIMEOUT_MS)),
  );
  if ((await Promise.race([all, timedOut])) === 'timeout') result.errors.push(`round exceeded ${ROUND_TIMEOUT_MS} ms`);
  clearTimeout(timer);
  result.wallMs = performance.now() - t0;
  return result;
}

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const statsLine = (label: string, s: GatewayStats) =>
  `| ${label} | ${s.httpSessions} | ${s.liveSessions} | ${s.storedSessions} | ${s.rssMiB.toFixed(1)} | ${s.heapMiB.toFixed(1)} | ${s.externalMiB.toFixed(1)} |`;

const gateways = await Promise.all([startGateway('ops off', []), startGateway('ops on', ['--ops'])]);
const runs = new Map<
  GatewayProcess,
  { before: GatewayStats; results: { round: RoundResult; after: GatewayStats }[] }
>();
for (const gateway of gateways) runs.set(gateway, { before: await gateway.stats(), results: [] });
for (let r = 0; r < ROUNDS; r++) {
  for (const gateway of gateways) {
    const res = await round(gateway.url);
    runs.get(gateway)!.results.push({ round: res, after: await gateway.stats() });
  }
}
for (const gateway of gateways) gateway.stop();

const latencies = (gateway: GatewayProcess) =>
  runs
    .get(gateway)!
    .results.flatMap(({ round: res }) => res.latencies)
    .sort((a, b) => a - b);
console.log(
  `Load: ${SESSIONS} concurrent Streamable HTTP sessions × (tool_search + ${CALLS} calls), ${ROUNDS} rounds per gateway, taken in turn (${gateways[0]!.tools} upstream tools: server-everything + server-memory)`,
);
for (const gateway of gateways) {
  const { before, results } = runs.get(gateway)!;
  console.log('');
  console.log(`### ${gateway.label} (${gateway.url})`);
  console.log('');
  console.log('| round | calls | failed | wall s | calls/s | p50 ms | p99 ms | max ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  results.forEach(({ round: res }, i) => {
    const sorted = [...res.latencies].sort((a, b) => a - b);
    console.log(
      `| ${i + 1} | ${res.calls} | ${res.failed} | ${(res.wallMs / 1000).toFixed(1)} | ${(res.calls / (res.wallMs / 1000)).toFixed(0)} | ${q(sorted, 0.5).toFixed(1)} | ${q(sorted, 0.99).toFixed(1)} | ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} |`,
    );
  });
  console.log('');
  console.log(
    '| gateway (after GC) | HTTP sessions | live sessions | stored sessions | RSS MiB | heap used MiB | external MiB |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(statsLine('before', before));
  for (const [i, { after }] of results.entries()) console.log(statsLine(`after round ${i + 1}`, after));
}
const [off, on] = [latencies(gateways[0]!), latencies(gateways[1]!)];
const ratio = (p: number) => q(on, p) / Math.max(q(off, p), 1e-9);
console.log('');
console.log('### G9 overhead: metrics + audit log on vs off (tracing off), all rounds');
console.log('');
console.log('| call latency | off ms | on ms | on/off |');
console.log('|---|---:|---:|---:|');
for (const [label, p] of [
  ['p50', 0.5],
  ['p99', 0.99],
] as const)
  console.log(`| ${label} | ${q(off, p).toFixed(2)} | ${q(on, p).toFixed(2)} | ${ratio(p).toFixed(2)}× |`);
const onStats = runs.get(gateways[1]!)!.results.at(-1)?.after as (GatewayStats & { auditDropped?: number }) | undefined;
if (onStats?.auditDropped) console.log(`audit records dropped (disk behind): ${onStats.auditDropped}`);
const all = [...runs.values()].flatMap((run) => run.results);
for (const { round: res } of all) for (const e of res.errors) console.log(`ERROR ${e}`);
const failed = all.reduce((n, { round: res }) => n + res.failed + res.errors.length, 0);
process.exitCode = failed === 0 ? 0 : 1;
