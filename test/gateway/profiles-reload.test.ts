/**
 * G7/G9 — profiles in a live reload, over a real `serve --http` and a real `serve --profile` on
 * stdio: a reload adds, removes and updates profiles without a restart. An updated profile's
 * session goes on and hears the change (tools and, when its servers changed, resources and
 * prompts); an added one is served at once with its own token; a removed one's path is gone. A
 * profile naming an unknown server refuses the whole file, and a stdio process keeps the profile
 * it serves.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import type { StatusSnapshot } from '../../src/gateway/status/routes.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { connectClient, httpClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';

const TOKEN = 'main-token';
const ENG_TOKEN = 'eng-token';
/** A deferred tool, as a model reaches it: `select:` it (a 2025 session loads it), then call it. */
async function callThrough(c: TestClient, name: string) {
  await c.call('tool_search', { query: `select:${name}` });
  return c.call(name);
}
const servers = () => ({
  alpha: fixtureServer('alpha'),
  beta: fixtureServer('beta'),
  everything: referenceServerConfig('everything'),
});

function writeConfig(path: string, profiles: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
  writeFileSync(path, JSON.stringify({ mcpServers: { ...servers(), ...extra }, profiles }));
}

describe('G7/G9: profiles follow a reload over HTTP', () => {
  let dir: string;
  let config: string;
  let served: Served;
  let base: string;
  let support: TestClient;
  let qa: TestClient;
  let resourcesChanged = 0;
  const get = (path: string, token = TOKEN) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ts-profiles-reload-'));
    config = join(dir, 'mcp.json');
    writeConfig(config, { support: { servers: ['alpha'] }, qa: { servers: ['beta'] } });
    served = await serveHttp({ config, token: TOKEN, watch: false });
    await waitFor(() => served.stack.hub.status().every((s) => s.state === 'connected'), 'the servers', 30_000);
    base = new URL(served.http!.url).origin;
    support = await httpClient(`${base}/mcp/support`, { authorization: `Bearer ${TOKEN}` });
    support.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      resourcesChanged++;
    });
    qa = await httpClient(`${base}/mcp/qa`, { authorization: `Bearer ${TOKEN}` });
  }, 60_000);
  afterAll(async () => {
    await support?.close();
    await qa?.close().catch(() => undefined);
    await served?.stack.close();
  });

  it('G7/G9: adds, removes and updates profiles in place; the updated profile’s session goes on', async () => {
    expect((await support.client.listResources()).resources).toEqual([]);
    expect((await support.call('tool_search', { query: 'select:mcp__beta__ping' })).text).toContain('Not found');
    const toolsBefore = support.listChanged();

    writeConfig(config, {
      support: { servers: ['alpha', 'beta', 'everything'], tools: { deny: ['mcp__alpha__fail'] } },
      eng: { servers: ['beta'], token: ENG_TOKEN },
    });
    const event = await served.stack.reloader!.reload();
    expect(event.ok, event.error).toBe(true);
    expect(event.parts).toEqual(['profiles: added eng; removed qa; updated support']);

    // The same session: it hears the change and reaches what the profile now holds.
    await waitFor(() => support.listChanged() > toolsBefore, 'tools list_changed on the updated profile');
    await waitFor(() => resourcesChanged > 0, 'resources list_changed on the updated profile');
    expect((await callThrough(support, 'mcp__beta__ping')).text).toContain('pong');
    expect((await support.client.listResources()).resources.length).toBeGreaterThan(0);
    const hidden = await callThrough(support, 'mcp__alpha__fail');
    expect(hidden.isError).toBe(true);
    expect(hidden.text).toMatch(/not available/);

    // The new profile, with its own token; the removed one is gone (404 for its path).
    const eng = await httpClient(`${base}/mcp/eng`, { authorization: `Bearer ${ENG_TOKEN}` });
    try {
      expect((await callThrough(eng, 'mcp__beta__ping')).text).toContain('pong');
    } finally {
      await eng.close();
    }
    expect((await get('/mcp/eng', TOKEN)).status).toBe(401);
    expect((await get('/mcp/qa')).status).toBe(404);
    await expect(qa.toolNames()).rejects.toThrow();

    const status = (await (await get('/status.json')).json()) as StatusSnapshot;
    expect(status.profiles?.map((p) => [p.name, p.servers])).toEqual([
      ['support', ['alpha', 'beta', 'everything']],
      ['eng', ['beta']],
    ]);
  });

  it('G7/G9: a profile naming a server the file does not have refuses the whole reload; nothing changes', async () => {
    writeConfig(
      config,
      { support: { servers: ['alpha', 'nope'] }, eng: { servers: ['beta'], token: ENG_TOKEN } },
      { delta: fixtureServer('delta') },
    );
    const event = await served.stack.reloader!.reload();
    expect(event.ok).toBe(false);
    expect(event.error).toMatch(/profiles\.support\.servers.*no server named "nope"/);
    expect(served.stack.hub.servers()).not.toContain('delta');
    expect(served.stack.profiles.get('support')?.servers).toEqual(['alpha', 'beta', 'everything']);
    expect((await callThrough(support, 'mcp__beta__ping')).text).toContain('pong');
  });
});

describe('G7/G9: `serve --profile` on stdio follows its profile and keeps it', () => {
  it('G7/G9: SIGHUP with the profile changed: the client hears it and calls the added server; removing it is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-profiles-stdio-'));
    const config = join(dir, 'mcp.json');
    writeConfig(config, { support: { servers: ['alpha'] } });
    const transport = stdioGateway(['serve', '--config', config, '--profile', 'support']);
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = await connectClient(transport);
    try {
      // Over stdio the servers start with the first request: wait for alpha.
      await waitFor(async () => !(await callThrough(client, 'mcp__alpha__ping')).isError, 'alpha', 20_000);
      const pid = transport.pid!;
      const before = client.listChanged();
      writeConfig(config, { support: { servers: ['alpha', 'beta'] } });
      process.kill(pid, 'SIGHUP');
      await waitFor(() => client.listChanged() > before, 'list_changed after the profile grew', 20_000);
      await waitFor(
        async () => !(await callThrough(client, 'mcp__beta__ping')).isError,
        'beta reachable through the profile',
        20_000,
      );

      writeConfig(config, { other: { servers: ['beta'] } });
      process.kill(pid, 'SIGHUP');
      await waitFor(() => /reload refused.*serves profile "support"/.test(stderr), 'the refusal on stderr', 20_000);
      expect((await callThrough(client, 'mcp__alpha__ping')).text).toContain('pong');
    } finally {
      await client.close();
    }
  }, 60_000);
});
