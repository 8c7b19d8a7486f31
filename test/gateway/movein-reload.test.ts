/**
 * G13 + G7: a running gateway picks up what `toolsearch add`, `remove` and `import` write into its
 * servers file, with no restart, while a client session stays connected; and G10: the added
 * server's tools are pinned when first listed (trust on first use, as for any server).
 *
 * Real parts throughout: the HTTP gateway as `serve --http` runs it, the CLI as a child process,
 * the fixture registry over HTTP (registry-server.ts), and the real memory and
 * sequential-thinking servers from npm, started by the entries `add` and `import` write (`npx -y
 * <package>`: npx finds this checkout's own copies, so nothing is downloaded).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStack } from '../../src/gateway/create.js';
import type { ReloadEvent } from '../../src/mcp/config-reloader.js';
import { cliArgs } from '../fixtures/cli.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { type FixtureRegistry, startRegistry } from '../fixtures/registry-server.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { cliEnv } from '../fixtures/state.js';
import { waitFor } from '../fixtures/wait.js';

const run = promisify(execFile);
const TOKEN = 'movein-reload-token';

describe('G13 a running gateway sees add, remove and import', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ts-movein-reload-'));
  const config = join(dir, 'servers.json');
  const stateDir = join(dir, 'state');
  const previousStateDir = process.env['TOOLSEARCH_STATE_DIR'];
  let registry: FixtureRegistry;
  let stack: GatewayStack;
  let client: TestClient;
  const events: ReloadEvent[] = [];
  const state = (server: string) => stack.hub.status().find((s) => s.server === server)?.state;
  const cli = (...args: string[]) => run(process.execPath, cliArgs(...args), { env: cliEnv() });

  beforeAll(async () => {
    // This gateway's pins in a folder of its own, so they are this test's alone.
    process.env['TOOLSEARCH_STATE_DIR'] = stateDir;
    registry = await startRegistry();
    writeFileSync(config, `${JSON.stringify({ mcpServers: { alpha: fixtureServer('alpha') } }, null, 2)}\n`);
    const served = await serveHttp({ config, token: TOKEN });
    stack = served.stack;
    stack.reloader!.onReload((event) => events.push(event));
    client = await httpClient(served.http!.url, { authorization: `Bearer ${TOKEN}` });
    await waitFor(() => state('alpha') === 'connected', 'alpha to connect', 30_000);
  }, 90_000);
  afterAll(async () => {
    await client?.close();
    await stack?.close();
    await registry?.close();
    if (previousStateDir === undefined) delete process.env['TOOLSEARCH_STATE_DIR'];
    else process.env['TOOLSEARCH_STATE_DIR'] = previousStateDir;
  });

  it('G13: `add` from the registry: the gateway starts the server, pins its tools on first listing, and the session finds and calls them', async () => {
    const { stdout } = await cli(
      'add',
      'io.github.modelcontextprotocol/server-memory',
      '--config',
      config,
      '--registry',
      registry.url,
    );
    expect(stdout).toContain('Added "memory"');
    await waitFor(() => state('memory') === 'connected', 'the added memory server to connect', 120_000);
    await waitFor(() => events.some((event) => event.changes?.added.includes('memory')), 'the reload', 60_000);
    expect(events.at(-1)).toMatchObject({ ok: true, changes: { added: ['memory'], removed: [] } });
    const found = await client.call('tool_search', { query: 'select:mcp__memory__read_graph' });
    expect(found.text).toContain('"name":"mcp__memory__read_graph"');
    expect((await client.call('call_tool', { name: 'mcp__memory__read_graph', arguments: {} })).isError).toBeFalsy();
    // Pinned on the first listing, nothing held: the pins file says so too.
    const record = stack.trust!.document.servers['memory'];
    expect(Object.keys(record?.tools ?? {})).toContain('read_graph');
    expect(Object.values(record!.tools).every((tool) => tool.pinned !== undefined && tool.held === undefined)).toBe(
      true,
    );
    const pins = JSON.parse(readFileSync(join(stateDir, 'tool-pins.json'), 'utf8'));
    expect(pins.servers.memory.tools.read_graph.pinned.hash).toBe(record!.tools['read_graph']!.pinned!.hash);
    expect(state('alpha')).toBe('connected');
  });

  it('G13: `remove`: the gateway stops the server and its tools leave the session', async () => {
    const { stdout } = await cli('remove', 'memory', '--config', config);
    expect(stdout).toContain('Removed "memory"');
    await waitFor(() => events.some((event) => event.changes?.removed.includes('memory')), 'the reload', 60_000);
    expect(events.at(-1)).toMatchObject({ ok: true, changes: { added: [], removed: ['memory'] } });
    expect(stack.hub.servers()).not.toContain('memory');
    const gone = await client.call('tool_search', { query: 'select:mcp__memory__read_graph' });
    expect(gone.text).not.toContain('"name":"mcp__memory__read_graph"');
    expect(JSON.parse(readFileSync(config, 'utf8')).mcpServers).toEqual({ alpha: fixtureServer('alpha') });
  });

  it("G13: `import` of a Cursor project's mcp.json into the running gateway's file: its server starts, toolsearch's own entry is skipped", async () => {
    const cursor = join(dir, 'project', '.cursor');
    mkdirSync(cursor, { recursive: true });
    writeFileSync(
      join(cursor, 'mcp.json'),
      [
        '{',
        '  // servers for this project',
        '  "mcpServers": {',
        '    "sequential-thinking": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-sequential-thinking"] },',
        `    "toolsearch": { "command": "npx", "args": ["-y", "--package=/opt/toolsearch", "toolsearch", "serve", "--config", ${JSON.stringify(config)}] },`,
        '  },',
        '}',
      ].join('\n'),
    );
    const { stdout } = await cli('import', join(cursor, 'mcp.json'), '--config', config);
    expect(stdout).toContain('1 server to move: sequential-thinking.');
    expect(stdout).toContain('mcpServers.toolsearch is toolsearch itself');
    await waitFor(() => state('sequential-thinking') === 'connected', 'the imported server to connect', 120_000);
    const found = await client.call('tool_search', { query: 'think step by step' });
    expect(found.text).toContain('mcp__sequential-thinking__sequentialthinking');
    expect(stack.hub.servers().sort()).toEqual(['alpha', 'sequential-thinking']);
  });
});
