/**
 * `npm run bench:scaleout` — G6 scale-out on this machine: a real `redis-server`, two
 * `toolsearch serve --session-store redis://…` replicas and a real `haproxy` (docs/scale-out.md's config:
 * round robin, no stickiness), driven by official MCP SDK clients over loopback. Bounded in count
 * and time. Writes bench/results/scaleout.md.
 *
 * Phases: (1) one replica direct, the peer; (2) the same load through haproxy over two replicas;
 * (3) Redis killed mid-load and restarted from its append-only file; (4) Redis restarted empty;
 * (5) the resume race: GET + two POSTs of a fresh session at once on a replica that never saw
 * it; (6) DELETE then requests to both replicas; (7) a catalog change on one replica reaching
 * every client's stream; (8) a replica SIGKILLed mid-load. `--sessions N --calls N`.
 */
import { writeFileSync } from 'node:fs';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectClient, type TestClient } from '../test/fixtures/clients.js';
import { waitFor } from '../test/fixtures/wait.js';
import { freePort, redisUnavailable, startRedis } from '../test/faults/redis.js';
import { haproxyUnavailable, startHaproxy } from '../test/scaleout/haproxy.js';
import {
  fixtureConfig,
  openStream,
  rawRequest,
  rawSession,
  spawnReplica,
  type ReplicaProcess,
} from '../test/scaleout/replicas.js';

function arg(flag: string, fallback: number): number {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const SESSIONS = arg('--sessions', 50);
const CALLS = arg('--calls', 40);
/** Each client call gives up after this (a hang is reported as a failure, not waited on). */
const CALL_TIMEOUT_MS = 20_000;

const missing = redisUnavailable() ?? haproxyUnavailable();
if (missing) {
  console.error(`bench:scaleout needs redis-server and haproxy: ${missing}`);
  process.exit(1);
}

interface LoadResult {
  calls: number;
  ok: number;
  failed: number;
  /** Answered with isError (e.g. "deferred and not loaded": a session silently empty). */
  toolErrors: number;
  /** 404 (or "not in the session store") → the client started a new session, searched again and retried. */
  reinits: number;
  latencies: number[];
  wallMs: number;
  errors: Map<string, number>;
  /** performance.now() of each failure, to place failures relative to a fault. */
  failedAt: number[];
}

/** One client session: search, then `calls` calls of mcp__fx__add; on 404 it re-initializes once per call. */
async function runSession(entry: string, calls: number, result: LoadResult, pace: () => Promise<void>): Promise<void> {
  // A session lost while it starts (Redis restarted empty in between) is started again, up to 3 times.
  const open = async (attempt = 1): Promise<TestClient> => {
    const client = await connectClient(new StreamableHTTPClientTransport(new URL(entry)));
    try {
      await client.call('tool_search', { query: 'select:mcp__fx__add' });
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      if (attempt >= 3 || !isGone(error)) throw error;
      result.reinits++;
      return open(attempt + 1);
    }
  };
  let client: TestClient = await open();
  for (let i = 0; i < calls; i++) {
    await pace();
    const started = performance.now();
    const call = async () =>
      (await client.client.callTool({ name: 'mcp__fx__add', arguments: { a: i, b: 1 } }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      })) as CallToolResult;
    try {
      let answer: CallToolResult;
      try {
        answer = await call();
      } catch (error) {
        if (!isGone(error)) throw error;
        result.reinits++;
        await client.close().catch(() => undefined);
        client = await open();
        answer = await call();
      }
      result.latencies.push(performance.now() - started);
      const text = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if (answer.isError) {
        result.toolErrors++;
        const key = `tool error: ${text.slice(0, 70)}`;
        result.errors.set(key, (result.errors.get(key) ?? 0) + 1);
      } else if (text === String(i + 1)) result.ok++;
      else result.failed++;
    } catch (error) {
      result.failed++;
      result.failedAt.push(performance.now());
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const key = `${String((error as Error).message ?? error).slice(0, 80)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
      result.errors.set(key, (result.errors.get(key) ?? 0) + 1);
    }
    result.calls++;
  }
  await (client.client.transport as StreamableHTTPClientTransport | undefined)
    ?.terminateSession()
    .catch(() => undefined);
  await client.close().catch(() => undefined);
}

/** 404, or (a request that raced the store's loss) the gateway's "not in the session store" error: start over. */
function isGone(error: unknown): boolean {
  return (
    (error as { code?: number }).code === 404 || String((error as Error).message).includes('not in the session store')
  );
}

async function load(entry: string, during?: (elapsed: () => number) => Promise<void>, pacing = 0): Promise<LoadResult> {
  const result: LoadResult = {
    calls: 0,
    ok: 0,
    failed: 0,
    toolErrors: 0,
    reinits: 0,
    latencies: [],
    wallMs: 0,
    errors: new Map(),
    failedAt: [],
  };
  const started = performance.now();
  const pace = () => (pacing > 0 ? new Promise<void>((resolve) => setTimeout(resolve, pacing)) : Promise.resolve());
  const sessions = Array.from({ length: SESSIONS }, () =>
    runSession(entry, CALLS, result, pace).catch((error: unknown) => {
      result.errors.set(
        `session: ${String(error).slice(0, 70)}`,
        (result.errors.get(`session: ${String(error).slice(0, 70)}`) ?? 0) + 1,
      );
    }),
  );
  const fault = during?.(() => performance.now() - started);
  await Promise.all(sessions);
  result.wallMs = performance.now() - started;
  await fault;
  return result;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function row(name: string, r: LoadResult): string {
  const f = (n: number) => n.toFixed(1);
  const errors = [...r.errors].map(([k, n]) => `${n}× ${k}`).join('; ');
  return `| ${name} | ${r.calls} | ${r.ok} | ${r.failed} | ${r.toolErrors} | ${r.reinits} | ${f(r.calls / (r.wallMs / 1000))} | ${f(quantile(r.latencies, 0.5))} | ${f(quantile(r.latencies, 0.99))} | ${f(Math.max(...r.latencies))} | ${errors || '—'} |`;
}

const until = (ms: number, elapsed: () => number) =>
  waitFor(() => elapsed() >= ms, `${ms} ms into the load`, ms + 60_000);

const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  console.log(line);
};

const config = fixtureConfig();
const redis = await startRedis({ persist: true });
const ports = [await freePort(), await freePort()];
const replicas: ReplicaProcess[] = await Promise.all(ports.map((port) => spawnReplica(config, redis.url, port)));
const urls = ports.map((p) => `http://127.0.0.1:${p}/mcp`);
const balancer = await startHaproxy(
  await freePort(),
  ports.map((p) => `127.0.0.1:${p}`),
);

try {
  const table: string[] = [
    '| phase | calls | ok | failed | tool errors | 404 → re-init | calls/s | p50 ms | p99 ms | max ms | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const direct = await load(urls[0]!);
  table.push(row('1. one replica, direct (peer)', direct));
  const balanced = await load(balancer.url);
  table.push(row('2. two replicas via haproxy', balanced));
  let outageMs = 0;
  const outage = await load(
    balancer.url,
    async (elapsed) => {
      await until(500, elapsed);
      const down = performance.now();
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await redis.restart();
      outageMs = performance.now() - down;
    },
    10,
  );
  table.push(row(`3. Redis down ${(outageMs / 1000).toFixed(1)} s, restarted from AOF`, outage));
  const empty = await load(
    balancer.url,
    async (elapsed) => {
      await until(500, elapsed);
      await redis.restart({ empty: true });
    },
    10,
  );
  table.push(row('4. Redis restarted empty', empty));

  // 5. The resume race, through haproxy: initialize, then GET + 2 POSTs at once (round robin
  // spreads them over both replicas, one of which never saw the session).
  const RACE = 100;
  let raceAnswered = 0;
  for (let i = 0; i < RACE; i++) {
    const sessionId = await rawSession(balancer.url);
    const stream = new AbortController();
    const answers = await Promise.allSettled([
      openStream(balancer.url, sessionId, stream.signal),
      rawRequest(balancer.url, sessionId, 'tools/list', {}, 1).then((r) => r.status),
      rawRequest(balancer.url, sessionId, 'tools/list', {}, 2).then((r) => r.status),
    ]);
    stream.abort();
    raceAnswered += answers.filter((a) => a.status === 'fulfilled' && a.value === 200).length;
    await fetch(balancer.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
  }

  // 6. DELETE through haproxy, then each session's requests straight to both replicas.
  const DELETED = 50;
  let after404 = 0;
  let afterTotal = 0;
  for (let i = 0; i < DELETED; i++) {
    const sessionId = await rawSession(balancer.url);
    for (const url of urls)
      await rawRequest(url, sessionId, 'tools/call', {
        name: 'tool_search',
        arguments: { query: 'select:mcp__fx__add' },
      });
    await fetch(balancer.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    for (const url of [...urls, ...urls]) {
      afterTotal++;
      if (
        (
          await rawRequest(url, sessionId, 'tools/call', {
            name: 'tool_search',
            arguments: { query: 'select:mcp__fx__ping' },
          })
        ).status === 404
      )
        after404++;
    }
  }

  // 7. 20 clients (streams spread over both replicas); one calls `grow` (an upstream tools change
  // on whichever replica serves that call): how many clients hear list_changed?
  const listeners = await Promise.all(
    Array.from({ length: 20 }, () => connectClient(new StreamableHTTPClientTransport(new URL(balancer.url)))),
  );
  await listeners[0]!.call('tool_search', { query: 'select:mcp__fx__grow' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = listeners.map((c) => c.listChanged());
  await listeners[0]!.call('mcp__fx__grow');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const heard = listeners.filter((c, i) => c.listChanged() > before[i]!).length;
  await Promise.allSettled(listeners.map((c) => c.close()));

  // 8. A replica SIGKILLed 1 s into the load: calls in flight on it fail; when do failures stop?
  let killedAt = 0;
  const killed = await load(
    balancer.url,
    async (elapsed) => {
      await until(1000, elapsed);
      killedAt = performance.now();
      await replicas[0]!.kill();
    },
    10,
  );
  table.push(row('8. replica r1 SIGKILLed mid-load', killed));
  const lastFailure =
    killed.failedAt.length > 0 ? `${(Math.max(...killed.failedAt) - killedAt).toFixed(0)} ms` : 'none';

  const when = new Date().toISOString().replace('T', ' ').slice(0, 16);
  const md = [
    '# Scale-out: two replicas on one Redis behind haproxy',
    '',
    'Command (from the repo root; loopback only; needs `redis-server` and `haproxy`):',
    '',
    '```',
    `npm run bench:scaleout      # = tsx bench/scaleout.ts [--sessions ${SESSIONS}] [--calls ${CALLS}]`,
    '```',
    '',
    `Run on ${when} UTC, Node ${process.version}, 2 CPU cores shared by the bench client, haproxy, redis-server,`,
    'both replicas and their upstream servers (and other work on the machine: figures are noisy).',
    '',
    'Setup: `redis-server` with `appendonly yes`, `appendfsync always`; two `toolsearch serve --http',
    '127.0.0.1:PORT --session-store redis://127.0.0.1:PORT` replicas (run through tsx), each fronting two',
    "fixture MCP servers over stdio; `haproxy` with docs/scale-out.md's config (round robin, no stickiness,",
    '`retry-on conn-failure 503`, `/healthz` checked every 1 s). Each phase: ' +
      `${SESSIONS} concurrent SDK clients, each \`tool_search\` (\`select:mcp__fx__add\`) then ${CALLS} calls of \`mcp__fx__add\` ` +
      '(answer checked); phases 3, 4 and 8 pace calls 10 ms apart so the fault lands mid-load. A client that gets 404',
    'starts a new session, searches again and retries the call once (what an MCP client must do on 404).',
    '',
    '## Load and faults',
    '',
    ...table,
    '',
    '"tool errors" are calls answered with `isError` — before issue 15, a Redis restarted empty left',
    'sessions running with nothing discovered ("deferred and not loaded"); now they get 404 and re-initialize.',
    '',
    '## Consistency',
    '',
    '| check | result |',
    '|---|---|',
    `| 5. resume race: GET + 2 POSTs at once right after initialize, through haproxy | ${raceAnswered}/${RACE * 3} requests answered 200 |`,
    `| 6. after DELETE through haproxy: tool_search on each replica (twice) | ${after404}/${afterTotal} answered 404 |`,
    `| 7. upstream tools change on one replica: clients whose stream heard list_changed | ${heard}/20 |`,
    `| 8. time from the SIGKILL to the last failed call | ${lastFailure} |`,
    '',
  ].join('\n');
  writeFileSync(new URL('./results/scaleout.md', import.meta.url), md);
  log(md);
} finally {
  await balancer.stop();
  await Promise.allSettled(replicas.map((r) => r.kill()));
  await redis.stop();
}
