/**
 * `npm run bench:attack` (second part) — the attacks of issue 21 on a multi-user HTTP gateway:
 * cross-session sampling and logs, a client widening the filesystem sandbox, ReDoS in resource
 * routing, and a huge HTTP upstream result. In-process (the gateway, the HTTP upstreams and the
 * clients share this process), so RSS is this process's.
 *
 * `--root DIR` runs it against another checkout's `src` (the "before" numbers: main at the start
 * of the work, with this checkout's fixtures); the fixture servers always come from this checkout.
 * Output: one Markdown table row per case.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { PEER_SERVER } from '../test/fixtures/servers/index.js';
import { boundsAttacks } from './attack-bounds.js';

const rootIndex = process.argv.indexOf('--root');
const ROOT = resolve(rootIndex >= 0 ? process.argv[rootIndex + 1]! : '.');
const load = (path: string) => import(pathToFileURL(join(ROOT, path)).href);
const { createGatewayFromConfig } = await load('src/gateway/create.ts');
const { startHttpGateway } = await load('src/gateway/transports/http/server.ts');
const { parseHubConfig } = await load('src/mcp/config.ts');
const { referenceServerConfig } = await load('src/mcp/defaults.ts');
const { DEFAULT_LIMITS } = await load('src/core/limits.ts');

const peer = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [PEER_SERVER], env });
const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  sampled: string[];
  logs: string[];
}

async function user(
  url: string,
  name: string,
  roots = `file:///work/${name}`,
): Promise<{ client: Client; seen: Seen }> {
  const client = new Client({ name, version: '1' }, { capabilities: { sampling: {}, roots: { listChanged: true } } });
  const seen: Seen = { sampled: [], logs: [] };
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]?.content as { text?: string };
    seen.sampled.push(String(content?.text));
    return { model: name, role: 'assistant', content: { type: 'text', text: `sampled by ${name}` } };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: roots }] }));
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void seen.logs.push(JSON.stringify(n.params.data)),
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, seen };
}

async function gateway(
  servers: Record<string, unknown>,
  options: { limits?: Record<string, number>; http?: Record<string, unknown>; mode?: string } = {},
) {
  const stack = await createGatewayFromConfig({
    config: parseHubConfig({ mcpServers: servers }, 'bench'),
    gateway: { mode: options.mode ?? 'never' },
    ...(options.limits && { limits: options.limits }),
  });
  const http = await startHttpGateway(stack.gateway, { port: 0, ...options.http });
  await stack.hub.settled();
  return {
    url: http.url as string,
    close: async () => {
      await http.close();
      await stack.close();
    },
  };
}

const call = (c: Client, name: string, args: Record<string, unknown> = {}, timeout = 120_000) =>
  c.callTool({ name, arguments: args }, undefined, { timeout });

const rows: string[] = [];
const row = (attack: string, result: string) => {
  rows.push(`| ${attack} | ${result} |`);
  process.stderr.write(`${attack}: ${result}\n`);
};

async function crossSession(): Promise<void> {
  const gw = await gateway({ peer: peer() });
  const alice = await user(gw.url, 'alice');
  const bob = await user(gw.url, 'bob');
  await bob.client.setLoggingLevel('debug');
  await call(bob.client, 'mcp__peer__late_sample', { secret: 'BOB-PRIVATE', delayMs: 200 });
  await call(alice.client, 'mcp__peer__hold', { ms: 800 });
  await sleep(200);
  row(
    "sampling after Bob's call ended, Alice's call in flight",
    alice.seen.sampled.includes('BOB-PRIVATE') ? "**Alice's client got Bob's text**" : 'refused; Alice saw nothing',
  );
  await call(alice.client, 'mcp__peer__log_args', { secret: 'SSN 078-05-1120' });
  await sleep(300);
  row(
    "Alice's call logs its arguments; Bob never used the server",
    bob.seen.logs.some((l) => l.includes('078-05-1120')) ? "**Bob got Alice's SSN**" : 'only Alice got the line',
  );
  await Promise.all([alice.client.close(), bob.client.close()]);
  await gw.close();
}

/**
 * The residual risk of a shared connection, and `"isolation": "session"` closing it: the server
 * samples for Bob past `attributionGraceMs` (50 ms here) while Alice's call is the only one
 * running. Then the cost: the first call of each of 10 sessions (one after another), which on an
 * isolated stdio server spawns and initializes that session's own process.
 */
async function residual(): Promise<void> {
  for (const isolation of ['shared', 'session']) {
    const gw = await gateway({ peer: { ...peer(), isolation } }, { limits: { attributionGraceMs: 50 } });
    const alice = await user(gw.url, 'alice');
    const bob = await user(gw.url, 'bob');
    await call(bob.client, 'mcp__peer__late_sample', { secret: 'BOB-PRIVATE', delayMs: 300 });
    await call(alice.client, 'mcp__peer__hold', { ms: 800 });
    await sleep(300);
    const who = [alice.seen.sampled.includes('BOB-PRIVATE') && "**Alice's client got Bob's text**"];
    who.push(bob.seen.sampled.includes('BOB-PRIVATE') && "Bob's client got it");
    row(
      `"isolation": "${isolation}": sampling 300 ms after Bob's call ended (grace 50 ms), Alice's call in flight`,
      who.filter(Boolean).join('; ') || 'refused; nobody got it',
    );
    const firsts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const u = await user(gw.url, `u${i}`);
      const start = performance.now();
      await call(u.client, 'mcp__peer__pid');
      firsts.push(performance.now() - start);
      await u.client.close();
    }
    firsts.sort((a, b) => a - b);
    row(
      `"isolation": "${isolation}": first call of a new session (10 sessions)`,
      `p50 ${firsts[4]!.toFixed(0)} ms, max ${firsts[9]!.toFixed(0)} ms`,
    );
    await Promise.all([alice.client.close(), bob.client.close()]);
    await gw.close();
  }
}

async function sandbox(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-roots-'));
  writeFileSync(join(dir, 'in.txt'), 'in');
  const gw = await gateway({ fs: referenceServerConfig('filesystem', { root: dir }) });
  const attacker = await user(gw.url, 'mallory', 'file:///');
  await attacker.client.sendRootsListChanged();
  await sleep(500);
  const read = await call(attacker.client, 'mcp__fs__read_text_file', { path: '/etc/hostname' });
  row(
    'a client answers roots with file:/// and reads /etc/hostname',
    read.isError ? 'denied (roots are the operator’s)' : '**read outside --root**',
  );
  await attacker.client.close();
  await gw.close();
}

async function redos(): Promise<void> {
  for (const [label, template, uri, reads] of [
    [
      'hostile template h:{v0}…{v9}, one 46-char URI',
      'h:{v0}{v1}{v2}{v3}{v4}{v5}{v6}{v7}{v8}{v9}',
      `h:${'a'.repeat(43)}/`,
      1,
    ],
    [
      'git://{+repo}/blob/{+path}, three reads of a 180 KB URI',
      'git://{+repo}/blob/{+path}',
      `git://${'a/blob/'.repeat(26_000)}\n`,
      3,
    ],
  ] as const) {
    // Two servers offer resources, so a URI no template claims is not just sent to the only one.
    const gw = await gateway({
      evil: peer({ PEER_TEMPLATES: template }),
      other: peer({ PEER_TEMPLATES: 'other://{x}' }),
    });
    const client = await user(gw.url, 'c');
    const start = performance.now();
    for (let i = 0; i < reads; i++)
      await client.client.readResource({ uri }, { timeout: 300_000 }).catch(() => undefined);
    row(`ReDoS: ${label}`, `gateway blocked ${(performance.now() - start).toFixed(0)} ms`);
    await client.client.close();
    await gw.close();
  }
}

async function httpHuge(): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [PEER_SERVER], {
    env: { ...process.env, PEER_HTTP_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((done) =>
    child.stdout!.on('data', (b: Buffer) => {
      const m = /listening (\d+)/.exec(b.toString());
      if (m) done(m[1]!);
    }),
  );
  const gw = await gateway({ remote: { url: `http://127.0.0.1:${port}/mcp` } });
  const client = await user(gw.url, 'c');
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const result = await call(client.client, 'mcp__remote__huge', { bytes: 200 * 1024 * 1024 }).catch((e: Error) => ({
    isError: true,
    content: [{ type: 'text', text: e.message }],
  }));
  clearInterval(sampler);
  const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
  row(
    'HTTP upstream answers 200 MB (SSE)',
    `${result.isError ? `failed: ${text(result).slice(0, 90)}` : `passed through (${mib(text(result).length)} MB)`}; RSS +${mib(peak - base)} MiB peak`,
  );
  await client.client.close();
  await gw.close();
  child.kill();
}

// `--only a,b` runs some cases: cross, residual, sandbox, redos, huge, and bench/attack-bounds.ts's bounds
// (all of them) or stream, initialize, relist.
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(process.argv[onlyIndex + 1]!.split(',')) : undefined;
const cases: [string, () => Promise<void>][] = [
  ['cross', crossSession],
  ['residual', residual],
  ['sandbox', sandbox],
  ['redos', redos],
  ['huge', httpHuge],
];
for (const [name, run] of cases) if (!only || only.has(name)) await run();
await boundsAttacks({ gateway, row, peer, defaults: DEFAULT_LIMITS }, only);
process.stdout.write(`\n| attack (issue 21) | outcome |\n|---|---|\n${rows.join('\n')}\n`);
process.exit(0);
