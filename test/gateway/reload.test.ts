/**
 * G7 live reload over real processes: an HTTP gateway (`runServe`, as `toolsearch serve` runs it)
 * whose config file is edited on disk while one client session stays connected and keeps calling;
 * and SIGHUP sent to a spawned `toolsearch serve`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStack } from '../../src/gateway/create.js';
import type { StatusSnapshot } from '../../src/gateway/status/routes.js';
import type { ReloadEvent } from '../../src/mcp/config-reloader.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { isAlive } from '../fixtures/spawned.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const TOKEN = 'reload-test-token';

/** Save the way editors do: write a temporary file, rename it over the config. */
function save(path: string, value: unknown): void {
  const temporary = `${path}.tmp-${process.pid}`;
  writeFileSync(temporary, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  renameSync(temporary, path);
}

function servers(entries: Record<string, ReturnType<typeof fixtureServer>>) {
  return { mcpServers: entries };
}

async function statusJson(base: string): Promise<StatusSnapshot> {
  const response = await fetch(`${base}/status.json`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return (await response.json()) as StatusSnapshot;
}

describe('G7 live reload of an edited config file, one client session connected throughout', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-reload-'));
  const config = join(dir, 'mcp.json');
  let stack: GatewayStack;
  let base: string;
  let client: TestClient;
  const events: ReloadEvent[] = [];
  const pid = (server: string) => stack.hub.status().find((s) => s.server === server)?.pid;
  const connected = (server: string) => stack.hub.status().find((s) => s.server === server)?.state === 'connected';

  beforeAll(async () => {
    save(config, servers({ alpha: fixtureServer('alpha'), beta: fixtureServer('beta') }));
    const served = await serveHttp({ config, token: TOKEN });
    stack = served.stack;
    stack.reloader!.onReload((event) => events.push(event));
    base = new URL(served.http!.url).origin;
    client = await httpClient(served.http!.url, { authorization: `Bearer ${TOKEN}` });
    await waitFor(() => connected('alpha') && connected('beta'), 'alpha and beta', 20_000);
    const loaded = await client.call('tool_search', { query: 'select:mcp__alpha__ping,mcp__beta__ping' });
    expect(loaded.text).toContain('mcp__beta__ping');
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await stack?.close();
  });

  it('G7: an added server connects; unchanged ones keep their process; the session keeps calling', async () => {
    const alphaPid = pid('alpha');
    save(
      config,
      servers({ alpha: fixtureServer('alpha'), beta: fixtureServer('beta'), gamma: fixtureServer('gamma') }),
    );
    await waitFor(() => connected('gamma'), 'gamma to connect', 20_000);
    expect(pid('alpha')).toBe(alphaPid);
    const found = await client.call('tool_search', { query: 'select:mcp__gamma__ping' });
    expect(found.text).toContain('mcp__gamma__ping');
    expect((await client.call('mcp__gamma__ping')).isError).toBeFalsy();
    expect((await client.call('mcp__alpha__ping')).isError).toBeFalsy();
    const event = events.at(-1)!;
    expect(event).toMatchObject({ ok: true, trigger: 'file', changes: { added: ['gamma'], removed: [], changed: [] } });
  }, 30_000);

  it('G7: a removed server stops, its tools leave the session with list_changed, calls to it get an error', async () => {
    const betaPid = pid('beta')!;
    const alphaPid = pid('alpha');
    const notified = client.listChanged();
    save(config, servers({ alpha: fixtureServer('alpha'), gamma: fixtureServer('gamma') }));
    await waitFor(() => !stack.hub.servers().includes('beta'), 'beta to leave', 20_000);
    await waitFor(() => client.listChanged() > notified, 'list_changed for the session', 10_000);
    expect(await client.toolNames()).not.toContain('mcp__beta__ping');
    const call = await client.call('mcp__beta__ping');
    expect(call.isError).toBe(true);
    await waitFor(() => !isAlive(betaPid), 'the beta process to end', 10_000);
    expect(pid('alpha')).toBe(alphaPid);
    expect((await client.call('mcp__alpha__ping')).isError).toBeFalsy();
    expect((await statusJson(base)).servers.map((s) => s.server)).toEqual(['alpha', 'gamma']);
  }, 30_000);

  it('G7: a changed server restarts (compared after expansion); the others do not', async () => {
    const gammaPid = pid('gamma');
    const alphaPid = pid('alpha');
    save(config, servers({ alpha: fixtureServer('alpha'), gamma: fixtureServer('gamma-two') }));
    await waitFor(
      () => connected('gamma') && pid('gamma') !== gammaPid && stack.hub.catalog.get('mcp__gamma__ping'),
      'gamma to restart',
      20_000,
    );
    expect(stack.hub.catalog.get('mcp__gamma__ping')?.description).toContain('gamma-two');
    expect(pid('alpha')).toBe(alphaPid);
    expect(events.at(-1)?.changes).toMatchObject({ added: [], removed: [], changed: ['gamma'], unchanged: ['alpha'] });
    expect((await client.call('mcp__alpha__ping')).isError).toBeFalsy();
  }, 30_000);

  it('G7: an invalid file keeps the running config and says why: event, status page, toolsearch status', async () => {
    const before = events.length;
    const alphaPid = pid('alpha');
    save(config, '{"mcpServers": {"alpha": ');
    await waitFor(() => events.length > before, 'the refused reload', 10_000);
    expect(events.at(-1)).toMatchObject({ ok: false });
    expect(events.at(-1)!.error).toContain('not valid JSON');
    save(config, {
      mcpServers: { alpha: fixtureServer('alpha'), broken: { command: '$'.concat('{TOOLSEARCH_RELOAD_UNSET}') } },
    });
    await waitFor(() => events.at(-1)?.error?.includes('TOOLSEARCH_RELOAD_UNSET'), 'the missing variable', 10_000);
    const status = await statusJson(base);
    expect(status.config?.lastReload).toMatchObject({ ok: false });
    expect(status.config?.lastReload?.error).toContain(config);
    expect(status.config?.lastReload?.error).toContain('mcpServers.broken.command');
    expect(status.servers.map((s) => s.server)).toEqual(['alpha', 'gamma']);
    expect(pid('alpha')).toBe(alphaPid);
    expect((await client.call('mcp__alpha__ping')).isError).toBeFalsy();
    const cli = await run(cliArgs('status', '--http', base, '--token', TOKEN));
    expect(cli).toContain('RELOAD REFUSED');
    expect(cli).toContain('TOOLSEARCH_RELOAD_UNSET');
    // Fixed: the next save applies and clears the refusal.
    save(config, servers({ alpha: fixtureServer('alpha') }));
    await waitFor(() => events.at(-1)?.ok === true, 'the fixed file to apply', 10_000);
    await waitFor(() => !stack.hub.servers().includes('gamma'), 'gamma to leave', 10_000);
    expect((await statusJson(base)).config?.lastReload?.ok).toBe(true);
  }, 60_000);
});

describe('G7 SIGHUP reloads a running toolsearch serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-sighup-'));
  const config = join(dir, 'mcp.json');
  const audit = join(dir, 'audit.jsonl');
  let child: ChildProcess;
  let stderr = '';
  let base: string;

  beforeAll(async () => {
    save(config, servers({ alpha: fixtureServer('alpha') }));
    child = spawn(
      process.execPath,
      cliArgs(
        'serve',
        '--http',
        '127.0.0.1:0',
        '--config',
        config,
        '--no-watch',
        '--settle-ms',
        '0',
        '--audit-log',
        audit,
      ),
      { env: cliEnv({ TOOLSEARCH_TOKEN: TOKEN }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await waitFor(
      () => /listening on (http:\/\/\S+)\/mcp/.exec(stdout)?.[1],
      'the gateway to listen',
      60_000,
    );
    base = url;
    await waitFor(async () => (await statusJson(base)).servers.every((s) => s.state === 'connected'), 'alpha', 20_000);
  }, 90_000);
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('G7: SIGHUP applies the edited file (no watch), and a bad file is refused with the process still serving', async () => {
    save(config, servers({ alpha: fixtureServer('alpha'), beta: fixtureServer('beta') }));
    // --no-watch: nothing happens until the signal.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await statusJson(base)).servers.map((s) => s.server)).toEqual(['alpha']);
    child.kill('SIGHUP');
    await waitFor(
      async () => (await statusJson(base)).servers.some((s) => s.server === 'beta' && s.state === 'connected'),
      'beta after SIGHUP',
      20_000,
    );
    expect(stderr).toContain('config reloaded (signal): added beta');
    save(config, '{ not json');
    child.kill('SIGHUP');
    await waitFor(() => stderr.includes('config reload refused'), 'the refusal in the log', 10_000);
    const status = await statusJson(base);
    expect(status.config?.lastReload).toMatchObject({ ok: false, trigger: 'signal' });
    expect(status.servers.map((s) => s.server)).toEqual(['alpha', 'beta']);
    expect(child.exitCode).toBeNull();
    // G9: both reloads are audit records.
    const records = await waitFor(() => {
      const lines = existsSync(audit) ? readFileSync(audit, 'utf8').split('\n').filter(Boolean) : [];
      const reloads = lines.map((l) => JSON.parse(l) as { type: string; outcome: string; detail?: string });
      const found = reloads.filter((r) => r.type === 'reload');
      return found.length >= 2 ? found : undefined;
    }, 'two reload records in the audit log');
    expect(records.map((r) => r.outcome)).toEqual(['ok', 'failed']);
    expect(records[0]!.detail).toContain('added beta');
  }, 60_000);
});

function run(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 60_000, env: cliEnv() }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
}
