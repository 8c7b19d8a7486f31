/**
 * `npm run bench:attack-relist -- [--root DIR] [--only none,same,drift]` — a server that lists 20,000
 * tools and re-lists them again and again (hostile round 4, item 8), against a real
 * `toolsearch serve --http` process with its defaults (pinning on), while another session probes.
 *
 * The big server is the peer fixture with enough extra tools to list 20,000 (the `toolsPerServer` cap); it sends `tools/list_changed` ten
 * times, one a second (the gateway re-lists at most once a second, `refreshMinGapMs`). Another
 * session alternates a keyword search and a call to a second server the whole time, until the
 * re-lists stop (a probe every 50 ms, so each run carries the same load). Three variants:
 * - `none`: no re-list, the probes alone for 15 s (what the rest costs);
 * - `same`: the same 20,000 tools each time (pinned once, then hashed and compared);
 * - `drift`: every description changes at every listing (a rug pull of all 20,000: each re-list
 *   holds them all anew).
 *
 * Printed per variant: re-lists served, the probe's wait (p50, p99, max), the gateway's memory
 * from /proc (settled, at the end after 3 s idle, peak) and what the catalog holds at the end.
 * The gateway is the built package (`dist/`, no TypeScript loader in the process, as users run
 * it): build first. `--root DIR` runs it from another tree (e.g. the commit before the change,
 * with this repo's node_modules linked in and built there); the fixture servers always come from
 * this tree:
 *
 *   git archive main | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   (cd /tmp/before && npm run build) && npm run bench:attack-relist -- --root /tmp/before
 *   npm run build && npm run bench:attack-relist
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PEER_SERVER } from '../test/fixtures/servers/index.js';
import { processMemory, serveProcess } from './serve-process.js';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const rootIndex = process.argv.indexOf('--root');
const ROOT = rootIndex >= 0 ? resolve(process.argv[rootIndex + 1]!) : here;
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1]!.split(',') : undefined;
const TOKEN = 'relist-token';
const TOOLS = 20_000;
/** The peer fixture's own tools; the rest of the 20,000 are its extra ones (x0, x1, …). */
const OWN_TOOLS = 19;
const EXTRA = TOOLS - OWN_TOOLS;
const CHANGES = 10;
const PROBE_EVERY_MS = 50;
const dir = mkdtempSync(join(tmpdir(), 'ts-relist-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'relist', version: '1' });
  const headers = { authorization: `Bearer ${TOKEN}` };
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

const pick = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

type Variant = 'none' | 'same' | 'drift';

async function relist(variant: Variant): Promise<string> {
  const gw = await gateway(variant);
  try {
    return await attack(variant, gw.url, gw.child.pid!);
  } catch (error) {
    const exit = gw.child.exitCode ?? gw.child.signalCode;
    const why =
      exit === null ? '' : ` (the gateway exited: ${exit}; ${gw.output().trim().split('\n').at(-1)?.slice(0, 200)})`;
    throw new Error(`${(error as Error).message}${why}`);
  } finally {
    await gw.stop();
  }
}

function gateway(variant: Variant) {
  const extra = { PEER_EXTRA_TOOLS: String(EXTRA), ...(variant === 'drift' && { PEER_EXTRA_DRIFT: '1' }) };
  const big = { command: process.execPath, args: [PEER_SERVER], env: extra };
  const config = { mcpServers: { big, other: { command: process.execPath, args: [PEER_SERVER] } } };
  return serveProcess(config, {
    root: ROOT,
    dir,
    built: true,
    env: { TOOLSEARCH_TOKEN: TOKEN, TOOLSEARCH_STATE_DIR: join(dir, `state-${variant}`) },
  });
}

async function attack(variant: Variant, url: string, pid: number): Promise<string> {
  const [attacker, victim] = [await client(url), await client(url)];
  const lists = async () =>
    Number(text(await attacker.callTool({ name: 'mcp__big__lists', arguments: {} }, undefined, { timeout: 300_000 })));
  // Both servers up and the tools loaded (a search while a server connects may answer without it).
  const load = async (c: Client, tool: string, works: () => Promise<boolean>) => {
    for (let i = 0; i < 120; i++) {
      await c.callTool({ name: 'tool_search', arguments: { query: `select:${tool}` } });
      if (await works()) return;
      await sleep(1_000);
    }
    throw new Error(`${tool} never loaded`);
  };
  await load(attacker, 'mcp__big__lists', async () => Number.isFinite(await lists()));
  await load(attacker, 'mcp__big__flap_paced', async () => true);
  await load(victim, 'mcp__other__hold', async () =>
    text(await victim.callTool({ name: 'mcp__other__hold', arguments: { ms: 0 } })).includes('held'),
  );
  // The first keyword search builds the search index over the 20,000 tools: before the clock runs.
  await victim.callTool({ name: 'tool_search', arguments: { query: 'hold a while' } });
  const before = await lists();
  const settled = processMemory(pid).rss;

  let attacking = true;
  const waits: number[] = [];
  let failed = 0;
  // A probe every PROBE_EVERY_MS (not back to back: the same load, whatever the gateway's speed).
  const probing = (async () => {
    for (let i = 0; attacking; i++) {
      const t0 = performance.now();
      try {
        if (i % 2 === 0) await victim.callTool({ name: 'tool_search', arguments: { query: 'hold a while' } });
        else await victim.callTool({ name: 'mcp__other__hold', arguments: { ms: 0 } });
      } catch {
        failed++;
      }
      const wait = performance.now() - t0;
      waits.push(wait);
      await sleep(Math.max(0, PROBE_EVERY_MS - wait));
    }
  })();
  let seen = before;
  if (variant === 'none') await sleep(15_000);
  else {
    await attacker.callTool({ name: 'mcp__big__flap_paced', arguments: { n: CHANGES, everyMs: 1_000 } }, undefined, {
      timeout: 300_000,
    });
    // Until the gateway stops re-listing (each list_changed may still be queued behind a re-list).
    seen = await lists();
    for (let i = 0; i < 100; i++) {
      await sleep(3_000);
      const now = await lists();
      if (now === seen) break;
      seen = now;
    }
  }
  attacking = false;
  await probing;
  await sleep(3_000);
  const end = processMemory(pid);
  const last = `mcp__big__x${EXTRA - 1}`;
  const answer = text(await victim.callTool({ name: 'tool_search', arguments: { query: `select:${last}` } }));
  const state = /\bheld\b/.test(answer) ? 'held' : answer.includes(last) ? 'served' : 'not found';
  await Promise.all([attacker.close(), victim.close()]);
  waits.sort((a, b) => a - b);
  const ms = (n: number) => n.toFixed(0);
  const relists =
    variant === 'none' ? 'no re-list' : `${seen - before} re-lists of ${TOOLS.toLocaleString('en-US')} tools`;
  return (
    `${relists}; probe wait p50 ${ms(pick(waits, 0.5))} ms, ` +
    `p99 ${ms(pick(waits, 0.99))} ms, max ${ms(waits.at(-1) ?? 0)} ms (${waits.length} probes, ${failed} failed); ` +
    `RSS settled ${settled} MiB, end ${end.rss} MiB, peak ${end.peak} MiB; ` +
    `${last} ${state} at the end`
  );
}

console.log(`# bench:attack-relist — gateway from ${ROOT === here ? 'this tree' : ROOT}\n`);
for (const variant of ['none', 'same', 'drift'] as const) {
  if (only && !only.includes(variant)) continue;
  const result = await relist(variant).catch((error: Error) => `bench error: ${error.message.slice(0, 300)}`);
  console.log(`- ${variant}: ${result}`);
}
process.exit(0);
