/**
 * G9 — profiles over HTTP: two profiles of one gateway (`serve --http`), each at `/mcp/<name>`,
 * over fixture servers whose tools share their names (mcp__alpha__ping, mcp__beta__ping). A
 * profile's session sees only its tools in lists, search (keywords, select:, mcp__<server>),
 * announcements and calls (direct and through call_tool); tool globs narrow it further; a profile
 * with its own token refuses the gateway's; the hub keeps one connection per server.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe } from '../../src/cli/commands/serve.js';
import type { StatusSnapshot } from '../../src/gateway/status/routes.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

const TOKEN = 'main-token';
const ENG_TOKEN = 'eng-token';
let served: Served;
let base: string;
let support: TestClient;
let eng: TestClient;
let learnedPath: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ts-profiles-'));
  const config = join(dir, 'mcp.json');
  learnedPath = join(dir, 'learned.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { alpha: fixtureServer('alpha'), beta: fixtureServer('beta'), gamma: fixtureServer('gamma') },
      toolSearch: { learning: { path: learnedPath } },
      profiles: {
        support: { servers: ['alpha'], tools: { deny: ['fail', 'mcp__alpha__die'] } },
        eng: { servers: ['beta', 'gamma'], tools: { allow: ['ping', 'add', 'mcp__gamma__*'] }, token: ENG_TOKEN },
      },
    }),
  );
  served = await serveHttp({ config, token: TOKEN });
  await waitFor(
    () => served.stack.hub.status().every((s) => s.state === 'connected'),
    'the fixtures to connect',
    20_000,
  );
  base = new URL(served.http!.url).origin;
  support = await httpClient(`${base}/mcp/support`, { authorization: `Bearer ${TOKEN}` });
  eng = await httpClient(`${base}/mcp/eng`, { authorization: `Bearer ${ENG_TOKEN}` });
});

afterAll(async () => {
  await support?.close();
  await eng?.close();
  await served?.stack.close();
});

const servers = (text: string) => new Set([...text.matchAll(/mcp__([a-z]+)__/g)].map((m) => m[1]));

describe('G9 profiles are isolated', () => {
  it('G9: the announcement and tools/list name only the profile’s servers', async () => {
    // Tool names and the search tool's announcement (call_tool's schema has a fixed example name).
    const visible = async (client: TestClient) => {
      const { tools } = await client.client.listTools();
      const search = tools.find((t) => t.name === 'tool_search');
      return servers(JSON.stringify([tools.map((t) => t.name), search?.description, search?.inputSchema]));
    };
    expect(await visible(support)).toEqual(new Set(['alpha']));
    expect(await visible(eng)).toEqual(new Set(['beta', 'gamma']));
  });

  it('G9: keyword search finds only the profile’s tools; tool globs apply', async () => {
    const found = await support.call('tool_search', { query: 'ping pong fixture server', max_results: 20 });
    expect(found.text).toContain('mcp__alpha__ping');
    expect(servers(found.text)).toEqual(new Set(['alpha']));
    const failing = await support.call('tool_search', { query: 'always fails with a tool error', max_results: 20 });
    expect(failing.text).not.toContain('mcp__alpha__fail');
    const engFound = await eng.call('tool_search', { query: 'add two numbers sum', max_results: 20 });
    expect(engFound.text).toContain('mcp__beta__add');
    expect(servers(engFound.text)).toEqual(new Set(['beta', 'gamma']));
    // beta's tools beyond ping and add are not in eng; gamma's are (mcp__gamma__*).
    const sleep = await eng.call('tool_search', { query: 'select:mcp__beta__sleep,mcp__gamma__sleep' });
    expect(sleep.text).toContain('mcp__gamma__sleep');
    expect(sleep.text).not.toContain('mcp__beta__sleep"');
  });

  it('G9: select: and mcp__<server> cannot reach another profile’s tools', async () => {
    const select = await support.call('tool_search', { query: 'select:mcp__beta__ping,mcp__gamma__add' });
    expect(select.text).not.toMatch(/"name":"mcp__(beta|gamma)__/);
    const server = await support.call('tool_search', { query: 'mcp__beta' });
    expect(server.text).not.toMatch(/"name":"mcp__beta__/);
    const back = await eng.call('tool_search', { query: 'select:mcp__alpha__ping' });
    expect(back.text).not.toMatch(/"name":"mcp__alpha__/);
  });

  it('G9: calls of another profile’s tools fail, directly and through call_tool; own tools run', async () => {
    await support.call('tool_search', { query: 'select:mcp__alpha__ping' });
    const own = await support.call('mcp__alpha__ping');
    expect(own.isError).toBeFalsy();
    expect(own.text).toContain('alpha');
    for (const name of ['mcp__beta__ping', 'mcp__gamma__ping', 'mcp__alpha__fail']) {
      const direct = await support.call(name);
      expect(direct.isError, name).toBe(true);
      const through = await support.call('call_tool', { name, arguments: {} });
      expect(through.isError, name).toBe(true);
    }
    const engCall = await eng.call('call_tool', { name: 'mcp__alpha__ping', arguments: {} });
    expect(engCall.isError).toBe(true);
  });

  it('G9: a profile with its own token refuses the gateway’s token; others take the gateway’s', async () => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    };
    const post = (path: string, token: string) =>
      fetch(`${base}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    expect((await post('/mcp/eng', TOKEN)).status).toBe(401);
    expect((await post('/mcp/support', ENG_TOKEN)).status).toBe(401);
    expect((await post('/mcp/nope', TOKEN)).status).toBe(404);
  });

  it('G9: one connection per server; the status data lists the profiles', async () => {
    expect(served.stack.hub.status().map((s) => s.server)).toEqual(['alpha', 'beta', 'gamma']);
    const status = (await (
      await fetch(`${base}/status.json`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as StatusSnapshot;
    expect(status.profiles).toEqual([
      { name: 'support', path: '/mcp/support', servers: ['alpha'], tools: expect.any(Number), sessions: 1 },
      { name: 'eng', path: '/mcp/eng', servers: ['beta', 'gamma'], tools: expect.any(Number), sessions: 1 },
    ]);
  });

  it("G3: the status data, read with the gateway's token, does not show the queries of a profile with its own token", async () => {
    await eng.call('tool_search', { query: 'ping for Jane Roe SSN 078-05-1120' });
    await support.call('tool_search', { query: 'ping the support desk' });
    const text = await (await fetch(`${base}/status.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).not.toContain('078-05-1120');
    expect(text).not.toContain('Jane Roe');
    const status = JSON.parse(text) as StatusSnapshot;
    const queries = (profile: string) =>
      (status.searches ?? []).filter((s) => s.profile === profile).map((s) => s.query);
    expect(queries('support')).toContain('ping the support desk');
    expect(queries('eng').length).toBeGreaterThan(0);
    for (const query of queries('eng')) expect(query).toMatch(/hidden: made through profile "eng"/);
  });

  it('G9: metrics and audit events carry the profile', async () => {
    const seen: string[] = [];
    const off = served.stack.gateway.operations.events.subscribe((e) => {
      if (e.type === 'tool-call') seen.push(`${e.profile}:${e.tool}`);
    });
    await eng.call('tool_search', { query: 'select:mcp__beta__ping' });
    await eng.call('mcp__beta__ping');
    off();
    expect(seen).toEqual(['eng:mcp__beta__ping']);
  });
});

describe('G9 profile config', () => {
  it('G9: a profile naming a server the config lacks, or an unknown --profile, is refused before anything starts', async () => {
    const { parseProfiles } = await import('../../src/gateway/profiles/config.js');
    expect(() => parseProfiles({ p: { servers: ['nope'] } }, 'x.json', ['alpha'])).toThrow(
      /x\.json at "profiles\.p\.servers": no server named "nope"/,
    );
    expect(() => parseProfiles({ 'bad name': { servers: ['alpha'] } }, 'x.json', ['alpha'])).toThrow(/profile names/);
    // G3: a literal ${NAME} would silently be the token itself.
    expect(() => parseProfiles({ p: { servers: ['alpha'], token: `$\{PROFILE_TOKEN}` } }, 'x.json', ['alpha'])).toThrow(
      /profiles\.p\.token.*use "tokenEnv": "NAME"/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'ts-profiles-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { alpha: fixtureServer('alpha') },
        profiles: { support: { servers: ['alpha'] } },
      }),
    );
    await expect(
      runServe({ config, profile: 'nope', logLevel: 'silent', allowOrigin: [], allowHost: [], settleMs: 0 }, () => {}),
    ).rejects.toThrow(/--profile nope: no such profile in the config \(profiles: support\)/);
  });
});

describe('C13 with G9: each profile learns apart', () => {
  it('C13: a search → call in one profile teaches that profile only, kept in its own file', async () => {
    const pings = (learner: { summary(o: { tool: string }): { searches: number }[] }) =>
      learner.summary({ tool: 'mcp__alpha__ping' })[0]?.searches ?? 0;
    const mainBefore = pings(served.stack.learner!);
    const found = await support.call('tool_search', { query: 'reply pong to a ping', max_results: 5 });
    expect(found.text).toContain('mcp__alpha__ping');
    await support.call('mcp__alpha__ping', {});
    const learner = (name: string) => served.stack.profiles.get(name)!.gateway.learner!;
    // Earlier tests' searches and calls taught each profile too: only ever its own servers' tools.
    const learnedServers = (name: string) =>
      servers(
        learner(name)
          .summary()
          .map((r) => r.tool)
          .join(' '),
      );
    expect(pings(learner('support'))).toBeGreaterThan(0);
    expect(learnedServers('support')).toEqual(new Set(['alpha']));
    for (const server of learnedServers('eng')) expect(['beta', 'gamma']).toContain(server);
    expect(pings(served.stack.learner!)).toBe(mainBefore);
    await learner('support').flush();
    const stored = JSON.parse(readFileSync(join(learnedPath, '..', 'learned.support.json'), 'utf8'));
    expect(Object.keys(stored.tools)).toContain('mcp__alpha__ping');
  });
});
