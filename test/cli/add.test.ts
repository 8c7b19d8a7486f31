// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test
/**
 * G13 `toolsearch add` / `toolsearch remove` against a local HTTP server that speaks the MCP
 * Registry's API with recorded answers (test/fixtures/registry-server.ts; no network): what each
 * kind of registry entry becomes in the servers file, how a server is picked, and a registry that
 * is down, slow, huge, or answers garbage. The CLI runs as a child process where its output and
 * exit code are the point; the mapping cases call the same code in-process, over the same HTTP.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHubConfig } from '../../src/mcp/config.js';
import { type AddReport, addFromRegistry } from '../../src/mcp/movein/add.js';
import { DEFAULT_REGISTRY_LIMITS } from '../../src/mcp/movein/registry-client.js';
import { cliArgs } from '../fixtures/cli.js';
import { type FixtureRegistry, startRegistry } from '../fixtures/registry-server.js';
import { cliEnv } from '../fixtures/state.js';

const run = promisify(execFile);

async function cli(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), { env: cliEnv(env) });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

const serversFile = () => join(mkdtempSync(join(tmpdir(), 'ts-add-')), 'servers.json');
const entries = (file: string) => JSON.parse(readFileSync(file, 'utf8')).mcpServers;

describe('G13 toolsearch add from the MCP Registry', { timeout: 120_000 }, () => {
  let registry: FixtureRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterAll(async () => registry?.close());

  /** The `add` CLI against the fixture registry, writing `file`. */
  const addCli = (env: NodeJS.ProcessEnv, query: string, file: string, ...flags: string[]) =>
    cli(env, 'add', query, '--config', file, '--registry', registry.url, ...flags);
  /** `add` in-process (real HTTP to the fixture registry), with no variable set unless given. */
  const add = (query: string, options: Partial<Parameters<typeof addFromRegistry>[0]> = {}) =>
    addFromRegistry({ query, serversFile: serversFile(), registry: registry.url, env: {}, ...options });
  const added = async (query: string, options: Partial<Parameters<typeof addFromRegistry>[0]> = {}) => {
    const report = await add(query, options);
    if (report.kind === 'several') throw new Error(`several matched ${query}`);
    return report as Extract<AddReport, { kind: 'added' | 'already-there' }>;
  };

  it('G13: an exact registry name: an npm package pinned, run with npx; the servers file created and valid; a gateway reads it', async () => {
    const file = serversFile();
    const { stdout, code } = await addCli({}, 'io.github.modelcontextprotocol/server-memory', file);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `Added "memory" to ${file} (a new file): io.github.modelcontextprotocol/server-memory 2026.8.31`,
    );
    expect(stdout).toContain('runs npm @modelcontextprotocol/server-memory@2026.8.31');
    expect(stdout).toMatch(/MEMORY_FILE_PATH\s+env: Path of the knowledge graph file — optional, left out/);
    expect(stdout).toContain('its tools are pinned when first listed');
    expect(entries(file)).toEqual({
      memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory@2026.8.31'] },
    });
    expect(Object.keys((await readHubConfig(file, {})).servers)).toEqual(['memory']);
    // The documented query: search by name, latest versions only.
    expect(registry.requests.at(-1)).toMatch(
      /^\/v0\.1\/servers\?search=io\.github\.modelcontextprotocol%2Fserver-memory&version=latest&limit=100$/,
    );
  });

  it('G13: several matches: a numbered list, how to pick, exit 2, nothing written; registry text cannot drive the terminal', async () => {
    const file = serversFile();
    const { stdout, code } = await addCli({}, 'github', file);
    expect(code).toBe(2);
    expect(stdout).toContain(`3 servers in the MCP Registry at ${registry.url} match "github"; nothing was written.`);
    expect(stdout).toContain('Pick one by its exact name, e.g. toolsearch add io.github.acme/github-issues');
    expect(stdout).toMatch(/ {2}1\. io\.github\.acme\/github-issues\s+1\.2\.0 {2}Triage GitHub issues/);
    expect(stdout).toMatch(/ {2}3\. io\.github\.octo\/github-actions .*\(pypi\)/);
    expect(stdout).toMatch(/ {2}2\. io\.github\.github\/github-mcp-server .*\(oci, remote\)/);
    expect(stdout).not.toContain('\u001b');
    expect(stdout).toContain('\\u001b[31mGitHub Actions');
    expect(existsSync(file)).toBe(false);
  });

  it('G13: words pick the only current match: a deleted server and older versions do not count; an exact name wins over other matches', async () => {
    const memory = await added('memory');
    expect(memory.server.server.name).toBe('io.github.modelcontextprotocol/server-memory');
    expect(memory.server.server.version).toBe('2026.8.31');
    const words = await added('weather python');
    expect(words.server.server.name).toBe('io.github.example/weather-mcp');
    // The registry's substring search also finds weather-mcp-pro; the exact name wins.
    expect((await add('weather')).kind).toBe('several');
    expect((await added('io.github.example/weather-mcp')).server.server.name).toBe('io.github.example/weather-mcp');
    expect((await add('github')).kind).toBe('several');
    expect((await added('io.github.github/github-mcp-server')).name).toBe('github');
    await expect(add('no-such-server-anywhere')).rejects.toThrow(
      /MCP Registry at http:\/\/127\.0\.0\.1:\d+: has no server whose name matches "no-such-server-anywhere"/,
    );
  });

  it('G13: a required secret becomes a ${NAME} placeholder; not set here, the entry is written disabled (the file stays one the gateway accepts); set, or given with --set, it is enabled', async () => {
    const missing = await added('brave-search');
    expect(missing.entry.entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-brave-search@0.6.2'],
      env: { BRAVE_API_KEY: '${BRAVE_API_KEY}' },
      disabled: true,
    });
    expect(missing.entry.inputs).toEqual([
      expect.objectContaining({
        name: 'BRAVE_API_KEY',
        required: true,
        secret: true,
        state: 'missing',
        description: 'Brave Search API Key',
      }),
    ]);
    expect(Object.keys((await readHubConfig(missing.serversFile, {})).servers)).toEqual([]);
    const set = await added('brave-search', { env: { BRAVE_API_KEY: 'from-env' } });
    expect(set.entry.entry['disabled']).toBeUndefined();
    expect(set.entry.inputs[0]!.state).toBe('environment');
    const setHere = await added('brave-search', { values: { BRAVE_API_KEY: 'bsk-given' } });
    expect(setHere.entry.entry['env']).toEqual({ BRAVE_API_KEY: 'bsk-given' });

    const file = serversFile();
    const { stdout } = await addCli({ BRAVE_API_KEY: '' }, 'brave-search', file);
    expect(stdout).toMatch(/BRAVE_API_KEY\s+env, required, secret: Brave Search API Key — NOT SET here/);
    expect(stdout).toContain('It is written disabled until its variables are set; then remove "disabled": true');
    const given = await addCli({}, 'brave-search', file, '--set', 'BRAVE_API_KEY=bsk-typed-secret', '--name', 'brave2');
    expect(given.stdout).toContain('"BRAVE_API_KEY":"<given with --set>"');
    expect(given.stdout).not.toContain('bsk-typed-secret');
    expect(entries(file).brave2.env).toEqual({ BRAVE_API_KEY: 'bsk-typed-secret' });
  });

  it('G13: PyPI runs with uvx and a pinned version; an optional variable with a default is left out and listed', async () => {
    const weather = await added('io.github.example/weather-mcp');
    expect(weather.entry.entry).toEqual({
      command: 'uvx',
      args: ['weather-mcp-server==0.5.0'],
      env: { WEATHER_API_KEY: '${WEATHER_API_KEY}' },
      disabled: true,
    });
    expect(weather.entry.inputs.find((input) => input.name === 'WEATHER_UNITS')).toMatchObject({
      state: 'optional',
      default: 'celsius',
    });
  });

  it('G13: an OCI image runs with docker run -i --rm, its variables passed in with -e, its arguments and {variables} filled', async () => {
    const db = await added('io.github.example/database-manager', {
      values: { DATABASE_MANAGER_DATABASE_NAME: 'orders' },
    });
    expect(db.entry.entry).toEqual({
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '--network',
        'host',
        '-e',
        'DB_TYPE=${DATABASE_MANAGER_DB_TYPE}',
        '-e',
        'DB_USERNAME',
        '-e',
        'DB_PASSWORD',
        'example/database-manager-mcp:3.1.0',
        '--host',
        '${DATABASE_MANAGER_HOST:-localhost}',
        'orders',
      ],
      env: { DB_USERNAME: '${DB_USERNAME}', DB_PASSWORD: '${DB_PASSWORD}' },
      disabled: true,
    });
    expect(db.entry.inputs.map((input) => `${input.name}:${input.state}`)).toEqual([
      'DATABASE_MANAGER_DB_TYPE:missing',
      'DATABASE_MANAGER_HOST:default',
      'DATABASE_MANAGER_PORT:optional',
      'DATABASE_MANAGER_DATABASE_NAME:set',
      'DB_USERNAME:missing',
      'DB_PASSWORD:missing',
      'SSL_MODE:optional',
    ]);
    // An image reference that carries its tag keeps it; the npm package is preferred when both are offered.
    const fs = await added('io.github.modelcontextprotocol/server-filesystem', {
      use: 'oci',
      values: { FILESYSTEM_SOURCE_PATH: '/srv/data' },
    });
    expect(fs.entry.entry['args']).toEqual([
      'run',
      '-i',
      '--rm',
      '--mount',
      'type=bind,src=/srv/data,dst=${FILESYSTEM_TARGET_PATH:-/project}',
      'docker.io/mcp/filesystem:1.0.2',
      '/project',
    ]);
    const npm = await added('io.github.modelcontextprotocol/server-filesystem');
    expect(npm.entry.entry['args']).toEqual([
      '-y',
      '@modelcontextprotocol/server-filesystem@2026.8.31',
      '${FILESYSTEM_TARGET_DIR:-/Users/username/Desktop}',
    ]);
    expect(npm.entry.others).toEqual(['oci']);
  });

  it('G13: a NuGet package runs with dnx, pinned, its fixed arguments after "--"', async () => {
    const nuget = await added('io.github.joelverhagen/knapcode-samplemcpserver', {
      values: { WEATHER_CHOICES: 'sunny,rainy' },
    });
    expect(nuget.entry.entry).toEqual({
      command: 'dnx',
      args: ['Knapcode.SampleMcpServer@0.5.0', '--yes', '--', 'mcp', 'start'],
      env: { WEATHER_CHOICES: 'sunny,rainy' },
    });
    expect(nuget.name).toBe('knapcode-samplemcpserver');
  });

  it('G13: remotes are url entries: SSE or Streamable HTTP, headers and URL {variables} as placeholders; --use remote picks one over a package', async () => {
    const hybrid = await added('com.example/hybrid-mcp');
    expect(hybrid.entry.entry).toEqual({
      command: 'npx',
      args: ['-y', '@example/hybrid-mcp-server@1.5.0', '--mode', 'local'],
    });
    expect(hybrid.entry.others).toEqual(['remote']);
    const remote = await added('com.example/hybrid-mcp', { use: 'remote', env: { HYBRID_X_API_KEY: 'k' } });
    expect(remote.entry.entry).toEqual({
      type: 'sse',
      url: 'https://mcp.example.com/sse',
      headers: { 'X-API-Key': '${HYBRID_X_API_KEY}' },
    });
    expect(remote.entry.inputs.find((input) => input.name === 'HYBRID_X_REGION')).toMatchObject({ state: 'optional' });
    const crm = await added('com.example.tenant/crm', {
      values: { CRM_TENANT_ID: 'acme' },
      env: { CRM_API_TOKEN: 't' },
    });
    expect(crm.entry.entry).toEqual({
      type: 'http',
      url: 'https://acme.crm.example.com/mcp',
      headers: { Authorization: 'Bearer ${CRM_API_TOKEN}' },
    });
    const hub = await readHubConfig(crm.serversFile, { CRM_API_TOKEN: 'tok-1' });
    expect(hub.servers['crm']).toMatchObject({ headers: { Authorization: 'Bearer tok-1' } });
    await expect(add('com.example/hybrid-mcp', { use: 'pypi' })).rejects.toThrow(
      /offers no pypi way to run it \(it offers: npm, remote\)/,
    );
  });

  it('G13: what the gateway cannot start, and registry values that would reach for its secrets or inject a flag, are refused; nothing is written', async () => {
    const file = serversFile();
    await expect(add('io.github.example/text-editor', { serversFile: file })).rejects.toThrow(
      /"io\.github\.example\/text-editor": the gateway cannot start what it offers \(mcpb\): an MCP bundle is installed by a desktop app/,
    );
    await expect(add('io.github.example/http-package', { serversFile: file })).rejects.toThrow(
      /npm serving streamable-http/,
    );
    await expect(add('io.github.evil/exfil', { serversFile: file })).rejects.toThrow(
      /its argument --key holds "\$\{" \(the gateway would fill it from its own environment\)/,
    );
    await expect(add('io.github.evil/flag-injection', { serversFile: file })).rejects.toThrow(
      /its npm package name "--registry=http:\/\/evil\.example\/" does not look like one; refused/,
    );
    // A registry's own words in an error are escaped before they reach the terminal.
    const escaped = await addCli({}, 'io.github.evil/escape', file);
    expect(escaped.code).toBe(1);
    expect(escaped.stderr).toContain('\\u001b[2J\\u202emcpb');
    expect(escaped.stderr).not.toMatch(/[\u001b\u202e]/);
    expect(existsSync(file)).toBe(false);
  });

  it('G13: --dry-run writes nothing; the same entry again is "already there"; another under a taken name is a clash naming both; --name gives another; remove takes it out', async () => {
    const file = serversFile();
    const dry = await addCli({}, 'memory', file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`Dry run: nothing is written.\nWould add "memory" to ${file} (a new file)`);
    expect(existsSync(file)).toBe(false);
    writeFileSync(
      file,
      `${JSON.stringify({ toolSearch: { mode: 'always' }, mcpServers: { keep: { command: 'node', args: ['k.js'] } } }, null, 2)}\n`,
    );
    expect((await added('memory', { serversFile: file })).kind).toBe('added');
    expect((await added('memory', { serversFile: file })).kind).toBe('already-there');
    await expect(
      add('io.github.modelcontextprotocol/server-filesystem', { serversFile: file, name: 'memory' }),
    ).rejects.toThrow(
      `server "memory" is already in ${file}, and registry server io.github.modelcontextprotocol/server-filesystem has a different "memory"; give the new one another name with --name`,
    );
    await added('io.github.modelcontextprotocol/server-filesystem', { serversFile: file, name: 'files' });
    expect(Object.keys(entries(file))).toEqual(['keep', 'memory', 'files']);
    expect(JSON.parse(readFileSync(file, 'utf8')).toolSearch).toEqual({ mode: 'always' });

    const removed = await cli({}, 'remove', 'memory', '--config', file);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed "memory" from ${file}.`);
    expect(Object.keys(entries(file))).toEqual(['keep', 'files']);
    const unknown = await cli({}, 'remove', 'memory', '--config', file);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`${file}: has no server "memory" (its servers: keep, files); nothing was removed`);
    const bad = await addCli({}, 'memory', file, '--name', 'a__b');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"a__b" cannot name a server');
  });
});

describe('G13 toolsearch add: a registry that is down, slow, huge or answers garbage', { timeout: 120_000 }, () => {
  let registry: FixtureRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterAll(async () => registry?.close());

  const addMemory = (file: string, ...flags: string[]) =>
    cli({}, 'add', 'memory', '--config', file, '--registry', registry.url, ...flags);
  const attempt = (options: Partial<Parameters<typeof addFromRegistry>[0]> = {}) =>
    addFromRegistry({
      query: 'memory',
      serversFile: join(tmpdir(), 'never-written.json'),
      registry: registry.url,
      env: {},
      ...options,
    });

  it('G13: down, HTTP errors, not JSON, not a server list: one line each naming the registry, nothing written', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    await expect(attempt({ registry: `http://127.0.0.1:${closed}` })).rejects.toThrow(
      `MCP Registry at http://127.0.0.1:${closed}: cannot reach it (ECONNREFUSED); nothing was written`,
    );
    registry.setMode('error');
    await expect(attempt()).rejects.toThrow(/answered HTTP 503 to \/v0\.1\/servers\?search=memory/);
    registry.setMode('garbage');
    await expect(attempt()).rejects.toThrow(
      /answered with something that is not JSON \(text\/html\); is the URL an MCP Registry\?/,
    );
    registry.setMode('wrong-shape');
    await expect(attempt()).rejects.toThrow(/answered with JSON that is not a server list .* at "servers"/);
    await expect(attempt({ registry: 'ftp://registry.example' })).rejects.toThrow(/not an http or https URL/);
    expect(existsSync(join(tmpdir(), 'never-written.json'))).toBe(false);
  });

  it('G13: a body past --registry-max-bytes is cut off; one that never ends past --registry-timeout; the CLI says which flag', async () => {
    registry.setMode('huge');
    await expect(attempt({ limits: { ...DEFAULT_REGISTRY_LIMITS, maxResponseBytes: 200_000 } })).rejects.toThrow(
      /answered with more than 200000 bytes \(--registry-max-bytes\)/,
    );
    registry.setMode('silent');
    await expect(attempt({ limits: { ...DEFAULT_REGISTRY_LIMITS, timeoutMs: 500 } })).rejects.toThrow(
      /no answer within 0\.5 s \(--registry-timeout\)/,
    );
    const file = serversFile();
    const slow = await addMemory(file, '--registry-timeout', '1');
    expect(slow.code).toBe(1);
    expect(slow.stderr).toBe(
      `toolsearch: MCP Registry at ${registry.url}: no answer within 1 s (--registry-timeout); nothing was written\n`,
    );
    registry.setMode('huge');
    const huge = await addMemory(file, '--registry-max-bytes', '65536');
    expect(huge.stderr).toContain('answered with more than 65536 bytes (--registry-max-bytes)');
    expect(existsSync(file)).toBe(false);
  });

  it('G13: entries of the wrong shape are skipped and counted; a cursor that repeats ends the paging; paging stops at its bound', async () => {
    registry.setMode('bad-entries');
    const report = await attempt({ serversFile: join(mkdtempSync(join(tmpdir(), 'ts-add-')), 'servers.json') });
    expect(report).toMatchObject({ kind: 'added', skipped: 2 });
    registry.setMode('looping');
    const before = registry.requests.length;
    const looped = await attempt({ serversFile: join(mkdtempSync(join(tmpdir(), 'ts-add-')), 'servers.json') });
    expect(looped.kind).toBe('added');
    expect(registry.requests.length - before).toBe(2);
    registry.setMode('normal');
    const paged = await addFromRegistry({
      query: 'io.github',
      serversFile: join(tmpdir(), 'never-written.json'),
      registry: registry.url,
      limits: { ...DEFAULT_REGISTRY_LIMITS, pageSize: 2, maxPages: 3 },
    });
    expect(paged).toMatchObject({ kind: 'several', truncated: true });
    expect((paged as Extract<AddReport, { kind: 'several' }>).servers).toHaveLength(6);
  });
});
