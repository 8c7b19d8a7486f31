import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolvePackageBin } from '../src/mcp/defaults.js';
import { HOSTILE_SERVER } from '../test/fixtures/servers/index.js';
import { processMemory, type ServeProcess, serveProcess } from './serve-process.js';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const rootIndex = process.argv.indexOf('--root');
const ROOT = rootIndex >= 0 ? resolve(process.argv[rootIndex + 1]!) : here;
const dir = mkdtempSync(join(tmpdir(), 'ts-round5-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOSTILE = 'mcp__hostile__exfiltrate';
/** Five requests of other users; the attacker teaches the hostile tool for each. */
const VICTIM_QUERIES = [
  'read a file',
  'list the files in a folder',
  'search the knowledge graph',
  'create a new entity',
  'write text to a file',
];

function servers(): Record<string, unknown> {
  const files = join(dir, 'files');
  mkdirSync(files, { recursive: true });
  writeFileSync(join(files, 'a.txt'), 'alpha');
  return {
    files: { command: process.execPath, args: [resolvePackageBin('@modelcontextprotocol/server-filesystem'), files] },
    memory: {
      command: process.execPath,
      args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, `memory-${Math.random().toString(36).slice(2)}.jsonl`) },
    },
    hostile: { command: process.execPath, args: [HOSTILE_SERVER], env: { HOSTILE_TOOLS: 'exfiltrate' } },
  };
}

/** `toolsearch serve --http` of ROOT with the servers and this `toolSearch`; resolves once it listens. */
function serve(toolSearch: object, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const learned = join(dir, `learned-${Math.random().toString(36).slice(2)}.json`);
  const config = { mcpServers: servers(), toolSearch: { learning: { path: learned }, ...toolSearch } };
  return serveProcess(config, {
    root: ROOT,
    dir,
    args,
    settleMs: 20_000,
    env: { TOOLSEARCH_STATE_DIR: join(dir, 'state'), ...env },
  });
}

const memory = processMemory;

interface Session {
  call(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

async function session(url: string, token?: string): Promise<Session> {
  const c = new Client({ name: 'round5', version: '1' });
  const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
  await c.connect(new StreamableHTTPClientTransport(new URL(url), headers && { requestInit: { headers } }));
  return {
    call: async (name, args) => text(await c.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })),
    close: () => c.close(),
  };
}

/** A 2026-07-28 client (no session): every request stands alone, with these headers. */
async function stateless(url: string, authorization: string): Promise<Session> {
  const c = new ModernClient(
    { name: 'round5-modern', version: '1' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await c.connect(new ModernTransport(new URL(url), { requestInit: { headers: { authorization } } }));
  return {
    call: async (name, args) => text((await c.callTool({ name, arguments: args })) as CallToolResult),
    close: () => c.close(),
  };
}

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** The hits of a search answer in order (compact lines and full definitions). */
function hits(answer: string): string[] {
  return answer.split('\n').flatMap((l) => {
    if (l.startsWith('- ')) return [l.slice(2).split('(')[0]!];
    if (l.startsWith('{')) {
      try {
        return [(JSON.parse(l) as { name: string }).name];
      } catch {
        return [];
      }
    }
    return [];
  });
}

/** Where the hostile tool is in a fresh session's answers to the victim queries: "1,–,3,…". */
async function victimRanks(victim: Session): Promise<string[]> {
  const out: string[] = [];
  for (const query of VICTIM_QUERIES) {
    const at = hits(await victim.call('tool_search', { query })).indexOf(HOSTILE);
    out.push(at < 0 ? '–' : String(at + 1));
  }
  return out;
}

/** One attacker search that names the hostile tool, then a call of it. */
async function teach(attacker: Session, query: string): Promise<boolean> {
  const found = hits(await attacker.call('tool_search', { query: `${query} exfiltrate`, max_results: 20 })).includes(
    HOSTILE,
  );
  await attacker.call(HOSTILE, {});
  return found;
}

function ranksLine(before: string[], after: string[]): string {
  const first = after.filter((r) => r === '1').length;
  return `hostile tool's rank for the 5 victim queries before ${before.join(',')} → after ${after.join(',')} (first for ${first} of 5)`;
}

async function learnSessions(): Promise<string> {
  const gw = await serve({});
  try {
    const victim = await session(gw.url);
    const before = await victimRanks(victim);
    let requests = 0;
    let found = 0;
    for (let s = 0; s < 2; s++) {
      const attacker = await session(gw.url);
      for (const query of [...VICTIM_QUERIES, VICTIM_QUERIES[0]!]) {
        if (await teach(attacker, query)) found++;
        requests += 2;
      }
      await attacker.close();
    }
    await sleep(300);
    const fresh = await session(gw.url);
    const after = await victimRanks(fresh);
    return `${requests} requests over 2 sessions of one client (no token; the tool a result of ${found} of ${requests / 2} attack searches): ${ranksLine(before, after)}`;
  } finally {
    await gw.stop();
  }
}

async function learnHeaders(): Promise<string> {
  const gw = await serve({});
  try {
    const victim = await session(gw.url);
    const before = await victimRanks(victim);
    for (let k = 0; k < 6; k++) {
      const attacker = await stateless(gw.url, `Bearer made-up-${k}`);
      await teach(attacker, VICTIM_QUERIES[k % VICTIM_QUERIES.length]!);
      await teach(attacker, VICTIM_QUERIES[(k + 1) % VICTIM_QUERIES.length]!);
      await attacker.close();
    }
    await sleep(300);
    const after = await victimRanks(await session(gw.url));
    return `6 made-up Authorization headers × 2 stateless search → call pairs (no token): ${ranksLine(before, after)}`;
  } finally {
    await gw.stop();
  }
}

async function learnTokens(): Promise<string> {
  const tokens = join(dir, 'tokens.txt');
  writeFileSync(tokens, 'token-alice\ntoken-bob\ntoken-carol\n');
  const gw = await serve({}, ['--token-file', tokens]);
  try {
    // The tree before read only the first line: there every client holds token-alice.
    const victimToken = ROOT === here ? 'token-bob' : 'token-alice';
    const victim = await session(gw.url, victimToken);
    const before = await victimRanks(victim);
    for (let s = 0; s < 2; s++) {
      const attacker = await session(gw.url, 'token-alice');
      for (const query of [...VICTIM_QUERIES, VICTIM_QUERIES[0]!]) await teach(attacker, query);
      await attacker.close();
    }
    await sleep(300);
    const after = await victimRanks(await session(gw.url, victimToken));
    return `2 sessions of the client with token A (24 requests), read by the client with ${victimToken === 'token-bob' ? 'token B' : 'the same token (the only one)'}: ${ranksLine(before, after)}`;
  } finally {
    await gw.stop();
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** What a run_code answer says, shortened to its kind. */
function outcomeKind(answer: string): string {
  const limit = /Limit (\w+) reached/.exec(answer)?.[1];
  if (limit) return `limit ${limit}`;
  const busy = /\(limits? (\w+)/.exec(answer)?.[1];
  if (busy) return `refused (${busy})`;
  if (/stopped unexpectedly/.test(answer)) return 'sandbox stopped unexpectedly';
  if (/did not start/.test(answer)) return 'sandbox did not start';
  return answer.slice(0, 60);
}

function tally(kinds: string[]): string {
  const counts = new Map<string, number>();
  for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} × ${k}`).join(', ');
}

async function runs(): Promise<string> {
  const tokens = join(dir, 'run-tokens.txt');
  writeFileSync(tokens, 'token-alice\ntoken-bob\n');
  const gw = await serve({ codeMode: true }, ['--token-file', tokens]);
  try {
    const attacker = await session(gw.url, 'token-alice');
    // The tree before read only the first line: there both clients hold token-alice.
    const other = await session(gw.url, ROOT === here ? 'token-bob' : 'token-alice');
    await other.call('run_code', { code: 'return 1' });
    const pid = gw.child.pid!;
    const start = memory(pid).rss;
    // Quiet search times first, as the peer of the times under attack.
    const quiet: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await other.call('tool_search', { query: 'read a file' });
      quiet.push(performance.now() - t);
    }
    const loops = Array.from({ length: 30 }, () =>
      attacker.call('run_code', { code: 'while (true) {}' }).then(outcomeKind, (e: Error) => `error ${e.message}`),
    );
    await sleep(2000);
    let peak = memory(pid).rss;
    const busy: number[] = [];
    const otherRun = other
      .call('run_code', { code: 'return 2' })
      .then((a) => (a.trim() === '2' ? 'ran' : outcomeKind(a)));
    let settled = false;
    void Promise.all(loops).then(() => (settled = true));
    const until = Date.now() + 25_000;
    while (!settled && Date.now() < until) {
      const t = performance.now();
      await other.call('tool_search', { query: 'read a file' });
      busy.push(performance.now() - t);
      peak = Math.max(peak, memory(pid).rss);
      await sleep(100);
    }
    const outcomes = await Promise.all(loops);
    peak = Math.max(peak, memory(pid).peak);
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    return (
      `30 busy loops at once from one client: ${tally(outcomes)}; gateway RSS ${start} → peak ${peak} MiB; ` +
      `another client's search p50 ${ms(quantile(quiet, 0.5))} quiet → ${ms(quantile(busy, 0.5))} (max ${ms(Math.max(...busy))}, ${busy.length} searches) under the loops; ` +
      `its own run_code meanwhile: ${await otherRun}`
    );
  } finally {
    await gw.stop();
  }
}

async function storm(): Promise<string> {
  const gw = await serve({ codeMode: true });
  try {
    const c = await session(gw.url);
    const code = `await Promise.all(Array.from({ length: 1000 }, () => call('mcp__memory__read_graph', {}))); return 'all';`;
    const answers = await Promise.all(Array.from({ length: 3 }, () => c.call('run_code', { code })));
    return `3 scripts, each firing 1,000 call()s at once: ${tally(answers.map(outcomeKind))}`;
  } finally {
    await gw.stop();
  }
}

async function strings(): Promise<string> {
  const gw = await serve({ codeMode: true });
  try {
    const c = await session(gw.url);
    await c.call('run_code', { code: 'return 1' });
    const pid = gw.child.pid!;
    const start = memory(pid).rss;
    const answer = await c.call('run_code', {
      code: `const a = []; for (let i = 0; i < 300; i++) a.push('x'.repeat(1000000) + i); return a.length;`,
    });
    return `300 strings of 1 MB kept by one script (memoryBytes 64 MiB): ${/^\d+$/.test(answer.trim()) ? `the script returned ${answer.trim()} (no limit)` : outcomeKind(answer)}; gateway RSS ${start} → peak ${memory(pid).peak} MiB`;
  } finally {
    await gw.stop();
  }
}

const CASES: [string, () => Promise<string>][] = [
  ['learn', learnSessions],
  ['headers', learnHeaders],
  ['tokens', learnTokens],
  ['runs', runs],
  ['storm', storm],
  ['strings', strings],
];
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1]!.split(',') : undefined;
console.log(`# bench:attack-round5 — gateway from ${ROOT === here ? 'this tree' : ROOT}\n`);
for (const [name, run] of CASES) {
  if (only && !only.includes(name)) continue;
  try {
    console.log(`- ${name}: ${await run()}`);
  } catch (error) {
    console.log(`- ${name}: FAILED ${(error as Error).message.slice(0, 300)}`);
  }
}
process.exit(0);
