/**
 * G7 "done when": behind one gateway at once — the SDK's OAuth example server (signed in with
 * `toolsearch auth login`), an SSE-only server (untyped URL: the fallback), a 2026-07-28-only
 * server over HTTP and over stdio, a dual-era server and bundled stdio reference servers —
 * `inspect` and `search` see every server's tools, and a client session lists and calls a tool of
 * each.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { type OAuthExample, startOAuthExample } from '../fixtures/oauth-example.js';
import { ERA_SERVER, SSE_SERVER } from '../fixtures/servers/index.js';
import { type Spawned, spawnListening } from '../fixtures/spawned.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);
const FOLLOW = fileURLToPath(new URL('../fixtures/follow-redirects.mjs', import.meta.url));

describe('G7: every kind of server behind one gateway', () => {
  let oauth: OAuthExample;
  let sse: Spawned;
  let modern: Spawned;
  let dual: Spawned;
  let stack: GatewayStack | undefined;
  let session: TestClient | undefined;
  let configFile: string;
  let env: NodeJS.ProcessEnv;
  let stateDir: string;

  beforeAll(async () => {
    [oauth, sse, modern, dual] = await Promise.all([
      startOAuthExample(),
      spawnListening([SSE_SERVER, 'legacy']),
      spawnListening([ERA_SERVER, 'http', 'modern', 'modern']),
      spawnListening([ERA_SERVER, 'http', 'dual', 'dual']),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'ts-reach-'));
    stateDir = join(dir, 'state');
    configFile = join(dir, 'mcp.json');
    env = { ...process.env, TOOLSEARCH_STATE_DIR: stateDir, BROWSER: `${process.execPath} ${FOLLOW}` };
    writeFileSync(
      configFile,
      JSON.stringify({
        mcpServers: {
          secure: { url: oauth.url },
          legacy: { url: sse.url },
          modern: { url: modern.url },
          dual: { url: dual.url },
          modernStdio: { command: process.execPath, args: [ERA_SERVER, 'stdio', 'modern', 'mstdio'] },
          memory: referenceServerConfig('memory'),
          everything: referenceServerConfig('everything'),
        },
      }),
    );
  });
  afterAll(async () => {
    await session?.close();
    await stack?.close();
    await Promise.all([oauth?.stop(), sse?.stop(), modern?.stop(), dual?.stop()]);
  });

  const cli = (args: string[]) => run(process.execPath, cliArgs(...args), { env, timeout: 90_000 });

  it('G7: after `auth login`, inspect, search and a client session reach the tools of every server', async () => {
    await cli(['auth', 'login', 'secure', '--config', configFile]);

    const inspect = JSON.parse((await cli(['inspect', '--config', configFile, '--json'])).stdout) as {
      servers: number;
      failedServers: unknown[];
      pendingServers: string[];
    };
    expect(inspect.failedServers).toEqual([]);
    expect(inspect.pendingServers).toEqual([]);
    expect(inspect.servers).toBe(7);

    const search = (
      await cli(['search', '--config', configFile, '--query', 'shout a message in capital letters', '--json'])
    ).stdout;
    expect(search).toContain('mcp__legacy__legacy_shout');

    stack = await createGatewayFromConfig({ config: configFile, hub: { stateDir } });
    await stack.hub.settled();
    expect(Object.fromEntries(stack.hub.status().map((s) => [s.server, s.state]))).toEqual({
      secure: 'connected',
      legacy: 'connected',
      modern: 'connected',
      dual: 'connected',
      modernStdio: 'connected',
      memory: 'connected',
      everything: 'connected',
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await stack.gateway.connect(serverSide, 'reach');
    session = await connectClient(clientSide);
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ['mcp__secure__greet', { name: 'reach' }, /Hello, reach/],
      ['mcp__legacy__legacy_shout', { message: 'quiet' }, /QUIET/],
      ['mcp__modern__era', {}, /modern/],
      ['mcp__dual__dual_echo', { message: 'both' }, /dual: both/],
      ['mcp__modernStdio__era', {}, /modern/],
      ['mcp__memory__read_graph', {}, /entities/],
      ['mcp__everything__echo', { message: 'hi' }, /hi/],
    ];
    for (const [name] of calls) {
      const loaded = await session.call('tool_search', { query: `select:${name}` });
      expect(loaded.text, name).toContain(name);
    }
    // The default fixed list: found tools stay out of tools/list and run through call_tool.
    expect(await session.toolNames()).toEqual(['tool_search', 'call_tool']);
    for (const [name, args, expected] of calls) {
      const result = await session.call('call_tool', { name, arguments: args });
      expect(result.isError ?? false, `${name}: ${result.text}`).toBe(false);
      expect(result.text, name).toMatch(expected);
    }
  }, 180_000);
});
