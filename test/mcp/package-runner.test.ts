/**
 * G13 — first start through a package runner: a server started by `npx` (a fixture runner that
 * installs like npx, no network) is `installing`, not timed out, while its install moves; a stuck
 * install and one past its own limit fail with a clear error and a fix; a broken cache and a
 * crash name the real error. Real processes over real stdio.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { loadCatalogFromConfig } from '../../src/mcp/load.js';
import { cacheDirOf, packageRunnerOf, type RunnerContext } from '../../src/mcp/package-runner.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { connectClient } from '../fixtures/clients.js';
import { brokenInstall, fixtureRunner } from '../fixtures/runners.js';
import { isAlive } from '../fixtures/spawned.js';
import { waitFor } from '../fixtures/wait.js';

const linux: RunnerContext = { env: {}, home: '/home/u', platform: 'linux' };

describe('G13: package runners are recognised (pure)', () => {
  it('G13: npx, npm exec, pnpm dlx, bunx, uvx and yarn dlx, by any path; other commands are not runners', () => {
    const of = (command: string, ...args: string[]) => packageRunnerOf(command, args, linux);
    expect(of('npx', '-y', '@modelcontextprotocol/server-memory@2026.8.31')).toEqual({
      runner: 'npx',
      packageSpec: '@modelcontextprotocol/server-memory@2026.8.31',
      cacheDir: '/home/u/.npm',
    });
    expect(of('/usr/local/bin/npx', '--yes', '--package=@acme/tools', 'acme-mcp')?.packageSpec).toBe('@acme/tools');
    expect(of('npm', 'exec', '-y', '--', 'mcp-remote@0.1.0')).toMatchObject({
      runner: 'npm exec',
      packageSpec: 'mcp-remote@0.1.0',
    });
    expect(of('pnpm', 'dlx', 'tavily-mcp')).toMatchObject({ runner: 'pnpm dlx', packageSpec: 'tavily-mcp' });
    expect(of('pnpx', 'tavily-mcp')?.runner).toBe('pnpm dlx');
    expect(of('bunx', 'firecrawl-mcp')?.runner).toBe('bunx');
    expect(of('bun', 'x', 'firecrawl-mcp')?.packageSpec).toBe('firecrawl-mcp');
    expect(of('uvx', '--python', '3.12', 'mcp-server-time')).toEqual({
      runner: 'uvx',
      packageSpec: 'mcp-server-time',
      cacheDir: '/home/u/.cache/uv',
    });
    expect(of('uvx', '--from', 'git+https://x/y', 'tool')?.packageSpec).toBe('git+https://x/y');
    expect(of('uv', 'tool', 'run', 'mcp-server-git')?.runner).toBe('uvx');
    expect(of('yarn', 'dlx', '@acme/mcp')?.runner).toBe('yarn dlx');
    expect(of('cmd', '/c', 'npx', '-y', 'pkg')?.runner).toBe('npx');
    expect(of('C:\\Program Files\\nodejs\\npx.cmd', '-y', 'pkg')?.runner).toBe('npx');
    for (const [command, ...args] of [
      ['node', 'server.js'],
      ['npm', 'run', 'serve'],
      ['uv', 'run', 'server.py'],
      ['docker', 'run', '-i', 'mcp/fetch'],
      ['python', '-m', 'mcp_server_time'],
    ])
      expect(of(command!, ...args)).toBeUndefined();
  });

  it("G13: each runner's cache folder, from its variable or the platform's default", () => {
    expect(cacheDirOf('npx', [], { ...linux, env: { npm_config_cache: '/tmp/c' } })).toBe('/tmp/c');
    expect(cacheDirOf('npx', ['--cache', '/x'], linux)).toBe('/x');
    expect(cacheDirOf('npx', [], { env: { LOCALAPPDATA: 'C:\\L' }, home: 'C:\\U', platform: 'win32' })).toBe(
      'C:\\L\\npm-cache',
    );
    expect(cacheDirOf('uvx', [], { ...linux, env: { UV_CACHE_DIR: '/uv' } })).toBe('/uv');
    expect(cacheDirOf('uvx', [], { ...linux, env: { XDG_CACHE_HOME: '/xdg' } })).toBe('/xdg/uv');
    expect(cacheDirOf('bunx', [], linux)).toBe('/home/u/.bun/install/cache');
    expect(cacheDirOf('pnpm dlx', [], { ...linux, platform: 'darwin' })).toBe('/home/u/Library/Caches/pnpm');
  });
});

describe('G13: first start through a package runner, over real stdio', () => {
  it('G13: an install that keeps moving is "installing", not timed out, past the connect timeout; then it connects', async () => {
    const runner = fixtureRunner();
    const go = join(runner.dir, 'go');
    // npx -y prints nothing while it installs: only its cache folder grows.
    const config = parseHubConfig({
      mcpServers: { slowpkg: runner.server('slow-pkg@1.0.0', { RUNNER_GO_FILE: go }, { timeoutMs: 3_000 }) },
    });
    const hub = new McpHub(config, { reconnect: false });
    // A search waits for servers still connecting, but not for an install (it could take minutes).
    const gateway = new ToolsearchGateway({ catalog: hub.catalog, upstream: hub, pendingWaitMs: 600_000 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.connect(serverSide, 's1');
    const client = await connectClient(clientSide);
    try {
      hub.start();
      // Installing for more than twice the connect timeout, and still alive.
      const installing = await waitFor(
        () => hub.status().find((s) => s.state === 'installing' && Date.now() - s.since > 6_500),
        'an install longer than the connect timeout',
        30_000,
      );
      expect(installing).toMatchObject({ server: 'slowpkg', runner: 'npx' });
      expect(hub.catalog.pendingServers).toEqual(['slowpkg']);
      expect(hub.catalog.installingServers).toEqual([{ server: 'slowpkg', runner: 'npx', since: installing.since }]);
      const search = await client.call('tool_search', { query: 'ping the server' });
      expect(search.text).toMatch(/still installing[^\n]*:\n- slowpkg: installing through npx \(\d+ s so far\)/);
      expect(search.text).not.toMatch(/still connecting: [^\n]*slowpkg/);
      expect(hub.status()[0]?.state).toBe('installing');
      const call = await client.call('mcp__slowpkg__ping');
      expect(call.text).toMatch(/"slowpkg" is still installing through npx \(\d+ s so far\)\. Try again in a minute\./);
      writeFileSync(go, '');
      await waitFor(() => hub.status()[0]?.state === 'connected', 'the server to connect', 30_000);
      expect(hub.catalog.has('mcp__slowpkg__ping')).toBe(true);
      expect(hub.catalog.installingServers).toEqual([]);
      expect(hub.status()[0]?.lastError).toBeUndefined();
    } finally {
      await client.close();
      await gateway.close();
      await hub.close();
    }
  });

  it('G13: an install that shows no progress for the connect timeout fails as stuck, with the command to run by hand', async () => {
    const runner = fixtureRunner();
    const hub = new McpHub(
      parseHubConfig({
        mcpServers: { stuck: runner.server('stuck-pkg@2.0.0', { RUNNER_STUCK: '1' }, { timeoutMs: 500 }) },
      }),
      { reconnect: false },
    );
    try {
      hub.start();
      await waitFor(() => hub.status()[0]?.state === 'installing', 'the install to start');
      const pid = hub.status()[0]!.pid!;
      await hub.settled(60_000);
      const [status] = hub.status();
      expect(status).toMatchObject({
        state: 'failed',
        lastError: `could not connect: npx made no progress for 500 ms while installing stuck-pkg@2.0.0 (no output, no change in ${runner.cache})`,
        fix: `run "${runner.npx} -y stuck-pkg@2.0.0" by hand to see where it stops (a network problem, a registry that does not answer)`,
      });
      await waitFor(() => !isAlive(pid), 'the stuck runner to be ended');
    } finally {
      await hub.close();
    }
  });

  it('G13: an install past installTimeoutMs ends with an error naming the knob, even while it moves', async () => {
    const runner = fixtureRunner();
    const config = parseHubConfig({
      mcpServers: {
        // The quiet spell allowed (timeoutMs) is far longer than the install limit: only the limit can end it.
        endless: runner.server(
          'endless-pkg@1.0.0',
          { RUNNER_GO_FILE: join(runner.dir, 'never') },
          { timeoutMs: 60_000 },
        ),
      },
      toolSearch: { installTimeoutMs: 1_500 },
    });
    const hub = new McpHub(config, { reconnect: false });
    try {
      hub.start();
      await hub.settled(60_000);
      expect(hub.status()[0]).toMatchObject({
        state: 'failed',
        lastError:
          'could not connect: npx was still installing endless-pkg@1.0.0 after 1500 ms, the install limit (installTimeoutMs)',
        fix: expect.stringMatching(
          /^run ".*\/npx -y endless-pkg@1\.0\.0" once by hand to finish the install, or raise installTimeoutMs/,
        ),
      });
    } finally {
      await hub.close();
    }
  });

  it("G13: a broken npx cache is named with the exact folder to delete; a crash is named by its error, not by Node's footer", async () => {
    const runner = fixtureRunner();
    const folder = brokenInstall(runner, 'broken-pkg@1.0.0');
    const crash = {
      command: process.execPath,
      args: ['-e', "console.error('starting the server'); throw new Error('GITHUB_PERSONAL_ACCESS_TOKEN is not set')"],
    };
    const hub = new McpHub(parseHubConfig({ mcpServers: { broken: runner.server('broken-pkg@1.0.0'), crash } }), {
      reconnect: false,
    });
    try {
      hub.start();
      await hub.settled(60_000);
      const status = Object.fromEntries(hub.status().map((s) => [s.server, s]));
      expect(status['broken']).toMatchObject({
        state: 'failed',
        lastError: expect.stringContaining(
          `could not connect: a broken npx cache (an install that was cut off?): clear it with rm -rf ${folder}, and npx installs it again; exited with code 1; stderr: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'ajv' imported from ${folder}/node_modules/broken-pkg/index.mjs"`,
        ),
        fix: `rm -rf ${folder}`,
      });
      expect(status['crash']).toMatchObject({
        state: 'failed',
        lastError: 'could not connect: exited with code 1; stderr: "Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set"',
      });
      for (const s of hub.status()) expect(s.lastError).not.toContain('Node.js v');
      // The fix works: with the folder gone, the runner installs the package again and it starts.
      expect(existsSync(folder)).toBe(true);
    } finally {
      await hub.close();
    }
  });

  it('G13: a one-shot command (loadCatalogFromConfig) waits for an install past its settle time instead of killing it', async () => {
    const runner = fixtureRunner();
    const loaded = await loadCatalogFromConfig(
      { mcpServers: { later: runner.server('later-pkg@1.0.0', { RUNNER_STEPS: '20' }, { timeoutMs: 5_000 }) } },
      { settleTimeoutMs: 200 },
    );
    try {
      expect(loaded.hub.status()[0]?.state).toBe('connected');
      expect(loaded.catalog.has('mcp__later__ping')).toBe(true);
    } finally {
      await loaded.close();
    }
  });

  it('G13: a hub that stops while a server installs lets the install finish instead of killing it', async () => {
    const runner = fixtureRunner();
    const go = join(runner.dir, 'go');
    const hub = new McpHub(
      parseHubConfig({ mcpServers: { busy: runner.server('busy-pkg@1.0.0', { RUNNER_GO_FILE: go }) } }),
      { reconnect: false },
    );
    hub.start();
    await waitFor(() => hub.status()[0]?.state === 'installing' && hub.status()[0]?.pid, 'the install to start');
    const pid = hub.status()[0]!.pid!;
    await hub.close();
    hub.terminateNow();
    expect(isAlive(pid)).toBe(true);
    writeFileSync(go, '');
    // The install completes; the server it starts finds its input closed and exits.
    await waitFor(
      () => existsSync(join(runner.folderOf('busy-pkg@1.0.0'), 'node_modules/busy-pkg/package.json')),
      'the install to finish',
    );
    await waitFor(() => !isAlive(pid), 'the runner to exit after its install', 30_000);
  });
});
