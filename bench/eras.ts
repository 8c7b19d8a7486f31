/**
 * G8 bench (issue 20 items 2–3): what each client era costs.
 *
 * 1. Tokens (o200k) a model-facing client takes in per era over HTTP, fronting the embedded
 *    reference servers: the first request (`tools/list`), and a search → call round trip
 *    (`tool_search` result, then — 2025 only — the refreshed `tools/list` its list_changed asks
 *    for, then the call's result).
 * 2. Stdio probe cost: `toolsearch serve` spawned by the v2 client in legacy, auto and pinned
 *    mode; connect time, connect + first tools/list, and how many upstream servers were spawned
 *    (two fixture servers whose command appends to a counter file).
 *
 *   npm run bench:eras
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createGatewayFromConfig } from '../src/gateway/create.js';
import { startHttpGateway } from '../src/gateway/transports/http/server.js';
import { o200kTokens } from '../src/inspect/tokenizer.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(repoRoot, 'test/fixtures/servers/fixture-server.mjs');
type Mode = 'legacy' | 'auto' | 'pin';
const negotiation = (mode: Mode) => (mode === 'pin' ? { pin: '2026-07-28' } : mode);
const tokens = (value: unknown) => o200kTokens(JSON.stringify(value));

async function tokenCosts(): Promise<string[]> {
  // The growing list: what a 2025 client's refreshed list costs (under the default fixed list there
  // is no refresh, and a 2025 client's round trip costs what a 2026 one's does).
  const stack = await createGatewayFromConfig({
    root: mkdtempSync(join(tmpdir(), 'eras-root-')),
    toolList: 'growing',
  });
  const http = await startHttpGateway(stack.gateway, { port: 0 });
  await stack.hub.settled();
  const rows: string[] = [];
  try {
    for (const mode of ['legacy', 'pin'] as const) {
      const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: negotiation(mode) } });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const first = await client.listTools();
      const search = await client.callTool({
        name: 'tool_search',
        arguments: { query: 'select:mcp__everything__echo' },
      });
      // A 2025 client was told list_changed and lists again (the loaded tool joins); a 2026 one has no session list.
      const refresh = mode === 'legacy' ? await client.listTools() : undefined;
      const call = await client.callTool({ name: 'mcp__everything__echo', arguments: { message: 'hi' } });
      const roundTrip = tokens(search.content) + (refresh ? tokens(refresh.tools) : 0) + tokens(call.content);
      rows.push(
        `| ${mode === 'legacy' ? '2025 (session)' : '2026-07-28 (stateless)'} | ${tokens(first.tools)} | ${tokens(search.content)} | ${refresh ? tokens(refresh.tools) : '—'} | ${tokens(call.content)} | ${roundTrip} |`,
      );
      await client.close();
    }
  } finally {
    await http.close();
    await stack.close();
  }
  return rows;
}

async function stdioCost(mode: Mode, runs: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'eras-stdio-'));
  const counter = join(dir, 'spawns');
  writeFileSync(counter, '');
  const upstream = (name: string) => ({
    command: 'sh',
    args: ['-c', `echo ${name} >> '${counter}'; exec '${process.execPath}' '${FIXTURE}'`],
    env: { FIXTURE_NAME: name },
  });
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { one: upstream('one'), two: upstream('two') } }));
  const connects: number[] = [];
  const firstLists: number[] = [];
  for (let i = 0; i < runs; i++) {
    const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: negotiation(mode) } });
    const start = performance.now();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', join(repoRoot, 'src/cli/main.ts'), 'serve', '--config', config],
        cwd: repoRoot,
        stderr: 'ignore',
      }),
    );
    connects.push(performance.now() - start);
    await client.listTools();
    firstLists.push(performance.now() - start);
    await client.close();
  }
  // Let a probe's throwaway gateway (auto mode) finish dying before counting.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const spawns = readFileSync(counter, 'utf8').split('\n').filter(Boolean).length / runs;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0);
  return `| ${mode === 'pin' ? "{pin: '2026-07-28'}" : mode} | ${median(connects)} | ${median(firstLists)} | ${spawns} |`;
}

const runs = Number(process.env['ERAS_RUNS'] ?? 5);
console.log('## Tokens per era (HTTP, embedded reference servers, o200k)\n');
console.log(
  '| client | first request (tools/list) | tool_search result | refreshed tools/list | call result | search → call total |',
);
console.log('|---|---|---|---|---|---|');
for (const row of await tokenCosts()) console.log(row);
console.log(`\n## stdio: connect cost per v2 client mode (median of ${runs}; 2 stdio upstreams)\n`);
console.log('| mode | connect ms | connect + tools/list ms | upstream spawns per client |');
console.log('|---|---|---|---|');
for (const mode of ['legacy', 'auto', 'pin'] as const) console.log(await stdioCost(mode, runs));
