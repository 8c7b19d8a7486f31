/**
 * `npm run bench:attack-round3 -- [--root DIR]` — issue 32's six broken cases (and its item 10, the
 * parked 2026-07-28 call), each against a real
 * `toolsearch serve --http` (or `auth login`) process on loopback, bounded in count and time.
 * `--root DIR` runs the gateway from another source tree (e.g. an export of the commit before the
 * fixes, with this repo's node_modules linked in), so before and after are one command apart:
 *
 *   git archive 301692b | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   npm run bench:attack-round3 -- --root /tmp/before     # before
 *   npm run bench:attack-round3                           # after
 *   npm run bench:attack-round3 -- --only 1,5             # some cases
 *
 * Fixture servers always come from this tree (the peer fixture's `subscribes` tool is new).
 * Printed per case: what the attack left (memory of the gateway process from /proc, series and
 * bytes of /metrics, upstream subscriptions, whether an opener ran, whether a query leaked).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { credentialBytes } from '../test/fixtures/credentials.js';
import { processMemory, serveProcess } from './serve-process.js';
import { type ModernResult, modernToolCall } from '../test/fixtures/raw-http.js';
import { listenRequestBody, listenRequestHeaders } from '../test/fixtures/listen-request.js';
import { FIXTURE_SERVER, OAUTH_SERVER, PEER_SERVER } from '../test/fixtures/servers/index.js';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const rootIndex = process.argv.indexOf('--root');
const ROOT = rootIndex >= 0 ? resolve(process.argv[rootIndex + 1]!) : here;
const FOLLOW = join(here, 'test/fixtures/follow-redirects.mjs');
const TOKEN = 'round3-token';
const dir = mkdtempSync(join(tmpdir(), 'ts-round3-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `toolsearch serve --http` of ROOT with this config; resolves once it listens. */
function serve(config: object, args: string[] = [], node: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return serveProcess(config, { root: ROOT, dir, args, node, env: { TOOLSEARCH_TOKEN: TOKEN, ...env } });
}

const memory = processMemory;

async function client(url: string, token = TOKEN, asked?: string[]): Promise<Client> {
  const c = new Client({ name: 'round3', version: '1' }, { capabilities: asked ? { elicitation: {} } : {} });
  // A 2025 client answering the questions asked during its calls (elicitation), recording them.
  c.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked?.push(request.params.message);
    return { action: 'accept', content: { name: 'Alice' } };
  });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return c;
}

const text = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** Case 1: a new 3.5 MB word per search, 60 searches, gateway heap 256 MiB. */
async function searchFlood(extra: string[]): Promise<string> {
  const gw = await serve({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER] } } }, extra, [
    '--max-old-space-size=256',
  ]);
  const c = await client(gw.url);
  const start = memory(gw.child.pid!).rss;
  let done = 0;
  let refused = 0;
  try {
    for (; done < 60; done++) {
      const word = `w${done}q${'x'.repeat(3_500_000)}`;
      const answer = text(await c.callTool({ name: 'tool_search', arguments: { query: `read ${word} add` } }));
      if (/searchQueryChars/.test(answer)) refused++;
    }
  } catch {
    // the gateway died
  }
  const end = memory(gw.child.pid!);
  // /proc has no entry once the process is gone (its exit may not be reported yet).
  const alive = end.rss > 0 && gw.child.exitCode === null && gw.child.signalCode === null;
  await c.close().catch(() => undefined);
  await gw.stop();
  return `${done}/60 searches answered (${refused} refused by the query cap); gateway ${alive ? `alive, RSS ${start} → ${end.rss} MiB (peak ${end.peak})` : `DEAD after ${done} (${gw.child.signalCode ?? gw.child.exitCode ?? 'gone'})`}`;
}

async function oauthServer(): Promise<{ url: string; hostile: (mode: object) => Promise<void>; stop(): void }> {
  const child = spawn(process.execPath, [OAUTH_SERVER], { env: { ...process.env, TOKEN_TTL_S: '2' } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 0; i < 200 && !out.includes('"url"'); i++) await sleep(50);
  const url = (JSON.parse(out.split('\n')[0]!) as { url: string }).url;
  return {
    url,
    hostile: async (mode) =>
      void (await fetch(new URL('/test/hostile', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(mode),
      })),
    stop: () => child.kill('SIGKILL'),
  };
}

function authLogin(config: string, stateDir: string, browser: string, timeout = 10): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'auth', 'login', 'secure', '--config', config]
      // The browser step waits this long; the process is killed well after (a slow start under load).
      .concat(['--timeout', String(timeout)]),
    {
      cwd: ROOT,
      env: { ...process.env, TOOLSEARCH_STATE_DIR: stateDir, BROWSER: browser },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), (timeout + 60) * 1000);
  return new Promise((done) =>
    child.once('exit', () => {
      clearTimeout(kill);
      done(output);
    }),
  );
}

/** Case 2: the authorization server names file:, smb: and a custom handler; does the opener run? */
async function opener(): Promise<string> {
  const as = await oauthServer();
  const config = join(dir, 'oauth-open.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { secure: { url: as.url } } }));
  const record = join(dir, 'opened.txt');
  const recorder = join(dir, 'record.mjs');
  writeFileSync(
    recorder,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
  );
  const out: string[] = [];
  for (const [i, bad] of [
    'file:///etc/passwd',
    'smb://attacker.example/x.exe',
    'x-handler://run?cmd=calc&x=1',
  ].entries()) {
    await as.hostile({ authorize: bad });
    await authLogin(config, join(dir, `state-open-${i}`), `${process.execPath} ${recorder}`, 5);
    const opened = existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n').length : 0;
    out.push(`${bad.split(':')[0]}: ${opened > i ? 'OPENED' : 'refused'}`);
  }
  as.stop();
  return out.join(', ');
}

/** Case 3: a 20 MB code exchange, a 20 MB refresh answer, a hung refresh (gateway at default limits). */
async function tokenEndpoints(extra: string[]): Promise<string> {
  const as = await oauthServer();
  const config = { mcpServers: { secure: { url: as.url } } };
  const configFile = join(dir, 'oauth-tokens.json');
  writeFileSync(configFile, JSON.stringify(config));
  // A 20 MB code exchange: what does the sign-in leave on disk?
  const hugeState = join(dir, 'state-huge');
  await as.hostile({ token: 'huge' });
  await authLogin(configFile, hugeState, `${process.execPath} ${FOLLOW}`, 30);
  const codeFile = credentialBytes(hugeState);
  await as.hostile({ token: null });
  // A good sign-in, then the gateway refreshes against a hostile token endpoint.
  const stateDir = join(dir, 'state-refresh');
  await authLogin(configFile, stateDir, `${process.execPath} ${FOLLOW}`, 30);
  const gw = await serve(config, extra, [], { TOOLSEARCH_STATE_DIR: stateDir });
  const c = await client(gw.url);
  await c.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__secure__whoami' } });
  const before = memory(gw.child.pid!).peak;
  await as.hostile({ token: 'huge' });
  await sleep(2_500);
  await c.callTool({ name: 'mcp__secure__whoami', arguments: {} }).catch(() => undefined);
  const afterHuge = memory(gw.child.pid!).peak;
  // Hung: how long does a call wait, and does the server answer once the endpoint recovers?
  await as.hostile({ token: 'hang' });
  await sleep(2_500);
  const t0 = performance.now();
  const hung = await Promise.race([
    c.callTool({ name: 'mcp__secure__whoami', arguments: {} }, undefined, { timeout: 90_000 }).then(
      (r) => (/client/.test(text(r)) ? 'answered ok' : `answered with an error (${text(r).slice(0, 80)})`),
      (e: Error) => `failed (${e.message.slice(0, 60)})`,
    ),
    sleep(60_000).then(() => 'still waiting at 60 s'),
  ]);
  const hungSeconds = ((performance.now() - t0) / 1000).toFixed(1);
  await as.hostile({ token: null });
  const t1 = performance.now();
  const recovered = await Promise.race([
    c.callTool({ name: 'mcp__secure__whoami', arguments: {} }, undefined, { timeout: 90_000 }).then(
      (r) => (/client/.test(text(r)) ? 'ok' : `error: ${text(r).slice(0, 60)}`),
      (e: Error) => `failed (${e.message.slice(0, 60)})`,
    ),
    sleep(60_000).then(() => 'still waiting at 60 s'),
  ]);
  const recoveredSeconds = ((performance.now() - t1) / 1000).toFixed(1);
  await c.close().catch(() => undefined);
  await gw.stop();
  as.stop();
  return (
    `20 MB code exchange → credentials ${(codeFile / 1024).toFixed(0)} KiB on disk; ` +
    `20 MB refresh → gateway peak RSS ${before} → ${afterHuge} MiB; ` +
    `hung refresh → call ${hung} after ${hungSeconds} s; after recovery → ${recovered} in ${recoveredSeconds} s`
  );
}

/** Case 4: 2,000 calls of made-up tools with 2 KB names; then the real tool's label. */
async function labels(): Promise<string> {
  const gw = await serve({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER] } } });
  const c = await client(gw.url);
  for (let i = 0; i < 2_000; i++)
    await c.callTool({ name: `mcp__evil${i}__${'x'.repeat(2_000)}${i}`, arguments: {} }).catch(() => undefined);
  await c.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__fx__ping' } });
  await c.callTool({ name: 'mcp__fx__ping', arguments: {} });
  const scrape = await (
    await fetch(new URL('/metrics', gw.url), { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  const series = scrape.split('\n').filter((l) => /^toolsearch_tool_call/.test(l)).length;
  const real = /toolsearch_tool_calls_total\{server="fx",tool="mcp__fx__ping"/.test(scrape) ? 'own label' : '"other"';
  const rss = memory(gw.child.pid!).rss;
  await c.close();
  await gw.stop();
  return `${series} tool-call series, /metrics ${(scrape.length / 1024).toFixed(0)} KiB, real tool has ${real}, RSS ${rss} MiB`;
}

/** Case 5: one subscriptions/listen naming 20,000 URIs. */
async function listen(): Promise<string> {
  const gw = await serve({
    mcpServers: {
      docs: { command: process.execPath, args: [PEER_SERVER], env: { PEER_TEMPLATES: 'doc://{id}' } },
    },
  });
  // The listen is routed by the server's templates: wait until it is connected.
  const c = await client(gw.url);
  await c.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__docs__subscribes' } });
  const before = memory(gw.child.pid!).rss;
  const uris = Array.from({ length: 20_000 }, (_, i) => `doc://${i}`);
  const abort = new AbortController();
  void fetch(gw.url, {
    method: 'POST',
    signal: abort.signal,
    headers: listenRequestHeaders({ authorization: `Bearer ${TOKEN}` }),
    body: listenRequestBody(uris),
  }).catch(() => undefined);
  let count = 0;
  for (let i = 0; i < 40; i++) {
    await sleep(500);
    const now = Number(text(await c.callTool({ name: 'mcp__docs__subscribes', arguments: {} })));
    if (now === count && now > 0) break;
    count = now;
  }
  const after = memory(gw.child.pid!).rss;
  abort.abort();
  await c.close();
  await gw.stop();
  return `${count} upstream subscriptions (cap 1,000), gateway RSS ${before} → ${after} MiB`;
}

/** Case 6: a search through a profile with its own token, read back with the gateway's token. */
async function statusLeak(): Promise<string> {
  const gw = await serve({
    mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER] } },
    profiles: { support: { servers: ['fx'], token: 'support-token' } },
  });
  const base = new URL(gw.url).origin;
  const c = await client(`${base}/mcp/support`, 'support-token');
  await c.callTool({ name: 'tool_search', arguments: { query: 'ping for Jane Roe SSN 078-05-1120' } });
  await c.close();
  const status = await (await fetch(`${base}/status.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  await gw.stop();
  return status.includes('078-05-1120') ? "the profile's raw query is READABLE" : "the profile's query is not shown";
}

/**
 * Case 10 (issue 32, item 10): a 2026-07-28 call parks on `input_required` and its client never
 * comes back; a 2025 session's own call on the same shared server then asks its client something,
 * 2 s and 10 s after the park. And the guard (a second gateway, so no grace period of the first
 * part's calls is in the way): the parked call's second question, sent while that session's call
 * runs, must still be refused, never shown to it.
 */
async function parkedCall(): Promise<string> {
  const config = { mcpServers: { peer: { command: process.execPath, args: [PEER_SERVER] } } };
  const asked: string[] = [];
  const first = await withGateway(config, asked, (url, alice) => neverComesBack(url, alice));
  const second = await withGateway(config, asked, (url, alice) => secondQuestion(url, alice));
  const leaked = asked.some((message) => message.includes('2026 user'));
  return `${first}; ${second}, ${leaked ? 'SHOWN TO ALICE' : 'never shown to Alice'}`;
}

const auth = { headers: { authorization: `Bearer ${TOKEN}` } };

/** A gateway with a 2025 session (Alice, answering questions into `asked`) whose peer is up. */
async function withGateway<T>(
  config: object,
  asked: string[],
  run: (url: string, alice: Client) => Promise<T>,
): Promise<T> {
  const gw = await serve(config);
  const alice = await client(gw.url, TOKEN, asked);
  try {
    // A search waits for a server still connecting: after it, the peer is up.
    for (const tool of ['mcp__peer__ask', 'mcp__peer__hold'])
      await alice.callTool({ name: 'tool_search', arguments: { query: `select:${tool}` } });
    return await run(gw.url, alice);
  } finally {
    await alice.close().catch(() => undefined);
    await gw.stop();
  }
}

/** A 2026 call parks and is never retried; Alice asks on the same server 2 s and 10 s later. */
async function neverComesBack(url: string, alice: Client): Promise<string> {
  const parked = await modernToolCall(url, 'mcp__peer__ask', { message: 'for the 2026 user' }, auth);
  const parkedAt = performance.now();
  const outcomes: string[] = [];
  for (const at of [2_000, 10_000]) {
    await sleep(Math.max(0, parkedAt + at - performance.now()));
    const answer = text(await alice.callTool({ name: 'mcp__peer__ask', arguments: { message: `for Alice at ${at}` } }));
    const refused = /requests of \d+ client sessions/.test(answer);
    const outcome = refused
      ? 'refused ("requests of 2 client sessions are in flight")'
      : answer.includes('Alice')
        ? 'reached Alice'
        : answer.slice(0, 80);
    outcomes.push(`+${at / 1000} s: ${outcome}`);
  }
  return `parked call: ${parked.resultType}; Alice's own question ${outcomes.join(', ')}`;
}

/** The guard: a parked call's second question, sent while Alice's call runs there. */
async function secondQuestion(url: string, alice: Client): Promise<string> {
  const args = { first: 'first for the 2026 user', second: 'second for the 2026 user' };
  const parked = await modernToolCall(url, 'mcp__peer__ask_then', args, auth);
  const parkedAt = performance.now();
  const [key] = Object.keys(parked.inputRequests ?? {});
  await alice.callTool({ name: 'mcp__peer__hold', arguments: { ms: 200 } });
  const sentMs = Math.round(performance.now() - parkedAt - 200);
  const done: ModernResult = await modernToolCall(url, 'mcp__peer__ask_then', args, {
    ...auth,
    retry: {
      inputResponses: { [key!]: { action: 'accept', content: { name: 'p' } } },
      requestState: parked.requestState!,
    },
  });
  const second = (JSON.parse((done.content ?? [])[0]?.text ?? '[]') as string[])[1] ?? '';
  return `the parked call's second question, sent ${sentMs} ms after it parked while Alice's call runs: ${/^error/.test(second) ? 'refused' : 'answered'}`;
}

const cases: Array<[string, () => Promise<string>]> = [
  ['1 search flood (60 × 3.5 MB new words, 256 MiB heap)', () => searchFlood([])],
  ...(ROOT === here
    ? ([
        [
          '1b same, query cap raised to 4,000,000 (the memos alone)',
          () => searchFlood(['--limit', 'searchQueryChars=4000000']),
        ],
      ] as Array<[string, () => Promise<string>]>)
    : []),
  ['2 sign-in opener (file:, smb:, custom handler)', opener],
  ['3 token endpoints (20 MB answers, a hung refresh)', () => tokenEndpoints([])],
  ['4 labels (2,000 made-up 2 KB tool names)', labels],
  ['5 subscriptions/listen naming 20,000 URIs', listen],
  ['6 status read with the gateway token', statusLeak],
  ['10 a parked 2026-07-28 call that never comes back, and a 2025 session asking on the same server', parkedCall],
];
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1]!.split(',') : undefined;
console.log(`# bench:attack-round3 — gateway from ${ROOT === here ? 'this tree' : ROOT}\n`);
for (const [name, run] of cases) {
  if (only && !only.includes(name.split(' ')[0]!)) continue;
  const result = await run().catch((error: Error) => `bench error: ${error.message.slice(0, 200)}`);
  console.log(`- ${name}: ${result}`);
}
process.exit(0);
