/**
 * `npm run bench:attack` (part of attack-isolation.ts, `--only bounds`) — the per-session bounds
 * of issue 21, each run with its knob off ("before") and at its default ("after"), in one process:
 * - a GET stream never read while an upstream logs 300 MB to that session (`streamQueuedBytes`);
 * - one client looping initialize + DELETE for 10 s (`initializePerMinute`, `initializeBurst`);
 * - an upstream with a 2,000- or 19,000-tool list sending `list_changed` every 60 ms for 9 s while
 *   a victim session searches and calls (`refreshMinGapMs`).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { initializeAndDelete, rawCall, rawSession, unreadStream } from '../test/fixtures/raw-http.js';

interface Gateway {
  url: string;
  close(): Promise<void>;
}

export interface BoundsContext {
  gateway(
    servers: Record<string, unknown>,
    options?: { limits?: Record<string, number>; http?: Record<string, unknown>; mode?: string },
  ): Promise<Gateway>;
  row(attack: string, result: string): void;
  peer(env?: Record<string, string>): unknown;
  defaults: Record<string, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (n: number) => (n / 2 ** 20).toFixed(0);
const text = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

/** RSS growth while `work` runs: the peak, and what is still held right after it (after a GC). */
async function rssDuring(work: () => Promise<void>): Promise<{ peak: number; held: number }> {
  gc();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  await work();
  clearInterval(sampler);
  gc();
  return { peak: peak - base, held: process.memoryUsage().rss - base };
}

async function unreadStreamFlood(ctx: BoundsContext, cap: number): Promise<string> {
  const gw = await ctx.gateway({ peer: ctx.peer() }, { http: { maxStreamQueuedBytes: cap } });
  const sessionId = await rawSession(gw.url);
  const socket = unreadStream(gw.url, sessionId);
  let closed = false;
  socket.once('close', () => (closed = true));
  await sleep(300);
  const rss = await rssDuring(async () => {
    await rawCall(gw.url, sessionId, 'mcp__peer__log_flood', { count: 30_000, bytes: 10_000 });
  });
  // Read what the stream still sends: a closed stream ends at once; an open one is still sending.
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  socket.resume();
  for (let i = 0; i < 40 && !closed; i++) await sleep(50);
  const victim = await client(gw.url);
  const ok = text(await victim.callTool({ name: 'mcp__peer__lists', arguments: {} })) !== '';
  await victim.close();
  socket.destroy();
  await gw.close();
  const stream = closed ? `closed after ${mib(received)} MiB more` : `still open, ${mib(received)} MiB read in 2 s`;
  return `RSS +${mib(rss.peak)} MiB peak, +${mib(Math.max(0, rss.held))} MiB held; stream ${stream}; other session ${ok ? 'ok' : 'FAILED'}`;
}

async function initializeLoop(ctx: BoundsContext, perMinute: number): Promise<string> {
  const gw = await ctx.gateway({}, { http: { initializeRate: { perMinute, burst: ctx.defaults.initializeBurst! } } });
  const seconds = 10;
  const end = performance.now() + seconds * 1000;
  let created = 0;
  let refused = 0;
  while (performance.now() < end) {
    const { status } = await initializeAndDelete(gw.url);
    if (status === 200) created++;
    else if (status === 429) refused++;
  }
  await gw.close();
  return `${created} sessions in ${seconds} s (${(created / seconds).toFixed(0)}/s)${refused > 0 ? `, ${refused} answered 429` : ''}`;
}

async function pacedListChanged(ctx: BoundsContext, gapMs: number, tools: number): Promise<string> {
  const gw = await ctx.gateway(
    { peer: ctx.peer({ PEER_EXTRA_TOOLS: String(tools) }), other: ctx.peer() },
    { limits: { refreshMinGapMs: gapMs }, mode: 'always' },
  );
  const attacker = await client(gw.url);
  const victim = await client(gw.url);
  const lists = async () =>
    Number(text(await attacker.callTool({ name: 'mcp__peer__lists', arguments: {} }, undefined, { timeout: 120_000 })));
  const select = (c: Client, tool: string) =>
    c.callTool({ name: 'tool_search', arguments: { query: `select:${tool}` } });
  await select(victim, 'mcp__other__hold');
  await select(attacker, 'mcp__peer__lists');
  await select(attacker, 'mcp__peer__flap_paced');
  const before = await lists();
  let attacking = true;
  const attack = attacker
    .callTool({ name: 'mcp__peer__flap_paced', arguments: { n: 150, everyMs: 60 } }, undefined, { timeout: 300_000 })
    .finally(() => (attacking = false));
  const waits: number[] = [];
  for (let i = 0; attacking; i++) {
    const t0 = performance.now();
    if (i % 2 === 0) await victim.callTool({ name: 'tool_search', arguments: { query: 'hold a while' } });
    else await victim.callTool({ name: 'mcp__other__hold', arguments: { ms: 0 } });
    waits.push(performance.now() - t0);
  }
  await attack;
  await sleep(Math.max(3_000, gapMs * 3));
  const relists = (await lists()) - before;
  waits.sort((a, b) => a - b);
  const p50 = waits[Math.floor(waits.length / 2)] ?? 0;
  await Promise.all([attacker.close(), victim.close()]);
  await gw.close();
  return `${relists} upstream re-lists; victim p50 ${p50.toFixed(0)} ms, max ${(waits.at(-1) ?? 0).toFixed(0)} ms (${waits.length} requests)`;
}

/** Every case, or those `only` names: stream, initialize, relist. */
export async function boundsAttacks(ctx: BoundsContext, only?: ReadonlySet<string>): Promise<void> {
  const run = (name: string) => !only || only.has('bounds') || only.has(name);
  const cap = ctx.defaults.streamQueuedBytes!;
  if (run('stream'))
    ctx.row(
      'a GET stream never read + 300 MB of upstream logs to its session',
      `streamQueuedBytes=0 (off): ${await unreadStreamFlood(ctx, 0)} / default ${mib(cap)} MiB: ${await unreadStreamFlood(ctx, cap)}`,
    );
  const perMinute = ctx.defaults.initializePerMinute!;
  if (run('initialize'))
    ctx.row(
      'one client looping initialize + DELETE for 10 s',
      `initializePerMinute=0 (off): ${await initializeLoop(ctx, 0)} / default ${perMinute}/min, burst ${ctx.defaults.initializeBurst}: ${await initializeLoop(ctx, perMinute)}`,
    );
  const gap = ctx.defaults.refreshMinGapMs!;
  if (run('relist'))
    for (const tools of [2_000, 19_000])
      ctx.row(
        `list_changed every 60 ms for 9 s on a ${tools.toLocaleString('en')}-tool list`,
        `refreshMinGapMs=0: ${await pacedListChanged(ctx, 0, tools)} / default ${gap} ms: ${await pacedListChanged(ctx, gap, tools)}`,
      );
}
