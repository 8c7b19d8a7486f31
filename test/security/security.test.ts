/**
 * Security (issue 6, G3): loopback binding, DNS-rebinding defences (Origin and Host), bearer
 * tokens, per-session isolation of discovered tools, upstream environment passed only as
 * configured, and no secret in the logs of a real `toolsearch serve --log-level debug`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'tok-3f9a1c-SECRET-bearer';
const UPSTREAM_SECRET = 'sk-upstream-7d2e-SECRET';
const GATEWAY_ONLY_SECRET = 'gw-only-91bb-SECRET';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sec', version: '1' } },
};

/** A raw POST with full control of Host/Origin/Authorization (fetch forbids setting Host). */
function rawPost(url: string, headers: Record<string, string>, body: unknown = INIT): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('G3 security: HTTP gateway in-process', () => {
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let a: TestClient;
  let b: TestClient;

  beforeAll(async () => {
    process.env['GATEWAY_ONLY_SECRET'] = GATEWAY_ONLY_SECRET;
    const config = parseHubConfig({
      mcpServers: { fx: fixtureServer('fx', { env: { UPSTREAM_API_KEY: UPSTREAM_SECRET } }) },
    });
    stack = await createGatewayFromConfig({ config });
    http = await startHttpGateway(stack.gateway, { token: TOKEN });
    await stack.hub.settled();
    a = await httpClient(http.url, { authorization: `Bearer ${TOKEN}` });
    b = await httpClient(http.url, { authorization: `Bearer ${TOKEN}` });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await http?.close();
    await stack?.close();
    delete process.env['GATEWAY_ONLY_SECRET'];
  });

  it('G3: binds to loopback by default; not reachable on other interfaces', async () => {
    expect(http.host).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return console.log('no non-loopback IPv4 interface: reachability check skipped');
    await expect(
      rawPost(`http://${external.address}:${http.port}/mcp`, { authorization: `Bearer ${TOKEN}` }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it('G3: DNS rebinding: a foreign Origin gets 403; a foreign Host gets 403; loopback names pass', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (const origin of [
      'http://evil.example',
      'http://localhost.evil.example',
      'null',
      'file://',
      'http://127.0.0.1.nip.io',
    ]) {
      expect(await rawPost(http.url, { ...auth, origin }), origin).toBe(403);
    }
    for (const host of [`evil.example:${http.port}`, `attacker.127.0.0.1.nip.io:${http.port}`, 'evil.example']) {
      expect(await rawPost(http.url, { ...auth, host }), host).toBe(403);
    }
    expect(
      await rawPost(http.url, { ...auth, origin: `http://localhost:${http.port}`, host: `localhost:${http.port}` }),
    ).toBe(200);
    expect(await rawPost(http.url, { ...auth, host: `127.0.0.1:${http.port}` })).toBe(200);
  });

  it('G3: bearer token: missing, wrong, prefix, longer or differently cased token → 401; the right one → 200', async () => {
    const wrong = [
      '',
      'Bearer',
      'Bearer ',
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.toUpperCase()}`,
      `Basic ${TOKEN}`,
      TOKEN,
    ];
    expect(await rawPost(http.url, {})).toBe(401);
    for (const authorization of wrong) expect(await rawPost(http.url, { authorization }), authorization).toBe(401);
    expect(await rawPost(http.url, { authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(await rawPost(http.url, { authorization: `bearer ${TOKEN}` })).toBe(200);
  });

  it("D4/C15: one session's discoveries never reach another's list; what a call does never depends on another session", async () => {
    const bBefore = await b.toolNames();
    // b calls before any session searched: an exact name with arguments that fit runs (C15).
    expect((await b.call('mcp__fx__add', { a: 1, b: 1 })).text).toBe('2');
    const wrongBefore = (await b.call('mcp__fx__add', { a: 1 })).text;
    await a.call('tool_search', { query: 'select:mcp__fx__add' });
    // a's search changed nothing for b: its list, and what its calls answer.
    expect(await b.toolNames()).toEqual(bBefore);
    expect((await b.call('mcp__fx__add', { a: 1, b: 2 })).text).toBe('3');
    expect((await b.call('call_tool', { name: 'mcp__fx__add', arguments: { a: 2, b: 2 } })).text).toBe('4');
    expect((await b.call('mcp__fx__add', { a: 1 })).text).toBe(wrongBefore);
    expect(wrongBefore).toMatch(
      /^Arguments for mcp__fx__add do not match its input schema, so nothing was sent: b is missing\./,
    );
    expect((await a.call('mcp__fx__add', { a: 1, b: 2 })).text).toBe('3');
  });

  it('G3: an unknown or forged session id is refused (404), not attached to any session', async () => {
    const status = await rawPost(
      http.url,
      { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': 'not-a-real-session' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
    );
    expect(status).toBe(404);
  });

  it('G1: upstream servers receive only the configured environment variables', async () => {
    await a.call('tool_search', { query: 'select:mcp__fx__show_env' });
    const names = JSON.parse((await a.call('mcp__fx__show_env')).text) as string[];
    expect(names).toContain('UPSTREAM_API_KEY');
    expect(names).not.toContain('GATEWAY_ONLY_SECRET');
    expect(names).not.toContain('TOOLSEARCH_TOKEN');
  });
});

describe('G3 security: no secret in the logs of `toolsearch serve --log-level debug`', () => {
  let child: ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-sec-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { fx: fixtureServer('fx', { env: { UPSTREAM_API_KEY: UPSTREAM_SECRET } }) } }),
    );
    child = spawn(
      process.execPath,
      cliArgs('serve', '--http', '127.0.0.1:0', '--config', config, '--log-level', 'debug', '--settle-ms', '5000'),
      {
        cwd: repoRoot,
        env: cliEnv({ TOOLSEARCH_TOKEN: TOKEN, GATEWAY_ONLY_SECRET }),
      },
    );
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('G3: token and upstream secrets never appear on stdout or stderr, through calls, bad tokens and a reconnect', async () => {
    const url = (await waitFor(() => /listening on (\S+)/.exec(stdout)?.[1], 'the gateway to listen', 20_000))!;
    await waitFor(() => stdout.includes('estimate for Claude'), 'the summary (servers settled)', 20_000);
    expect(await rawPost(url, { authorization: `Bearer wrong-${TOKEN}` })).toBe(401);
    const client = await httpClient(url, { authorization: `Bearer ${TOKEN}` });
    try {
      await client.call('tool_search', { query: 'select:mcp__fx__show_env,mcp__fx__die,mcp__fx__ping' });
      await client.call('mcp__fx__show_env');
      await client.call('mcp__fx__die');
      await waitFor(() => stderr.includes('"fx" disconnected'), 'the drop to be logged');
      await waitFor(
        async () => (await client.call('mcp__fx__ping')).text === 'pong from fx',
        'fx to reconnect',
        15_000,
      );
    } finally {
      await client.close();
    }
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const output = stdout + stderr;
    expect(stderr).toMatch(/debug/);
    expect(stderr).toMatch(/disconnected/);
    for (const secret of [TOKEN, UPSTREAM_SECRET, GATEWAY_ONLY_SECRET]) expect(output).not.toContain(secret);
  });
});
