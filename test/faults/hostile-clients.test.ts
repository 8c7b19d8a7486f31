/**
 * G5 (issue 11) — hostile HTTP clients against a real HTTP gateway on loopback: initializes the
 * SDK refuses, session floods, forged Host headers, an unsafe bind; and the same limits set from
 * the `serve` command line (`--limit`, `--token-file`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { defineTool } from '../../src/core/tool.js';
import { UnauthenticatedBindError } from '../../src/gateway/errors.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import {
  FULL_RETRY_AFTER_SECONDS,
  isLoopbackHost,
  startHttpGateway,
  type RunningHttpGateway,
} from '../../src/gateway/transports/http/server.js';
import { InMemorySessionStore } from '../../src/gateway/sessions/store.js';
import { httpClient } from '../fixtures/clients.js';
import { hostileServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
};
const GOOD = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw request with full control of every header (fetch forbids setting Host). */
function raw(url: string, headers: Record<string, string>, body: unknown = INIT, method = 'POST'): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.destroy();
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}

describe('G5: hostile HTTP clients', () => {
  const store = new InMemorySessionStore();
  let gateway: ToolsearchGateway;
  let http: RunningHttpGateway;
  const MAX = 5;

  beforeAll(async () => {
    const catalog = new Catalog([
      defineTool({ name: 'hello', description: 'Say hello.', defer: true, handler: () => 'hello!' }),
    ]);
    gateway = new ToolsearchGateway({ catalog, sessions: store });
    http = await startHttpGateway(gateway, { maxSessions: MAX, idleSessionTimeoutMs: 0 });
  });
  afterAll(async () => {
    await http?.close();
    await gateway?.close();
  });

  const nothingLeft = () =>
    expect({ open: http.sessionCount(), live: gateway.liveSessions, stored: store.size }).toEqual({
      open: 0,
      live: 0,
      stored: 0,
    });

  it('G5: 300 initializes the SDK refuses (406, 415) or that are not initializes (400) leave no session, server or store entry', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 100; i++) {
      answers.push((await raw(http.url, { ...GOOD, accept: 'application/json' })).status);
      answers.push((await raw(http.url, { ...GOOD, 'content-type': 'text/plain' })).status);
      answers.push((await raw(http.url, GOOD, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })).status);
    }
    expect(new Set(answers)).toEqual(new Set([406, 415, 400]));
    nothingLeft();
    // The gateway still serves a real client.
    const client = await httpClient(http.url);
    await client.call('tool_search', { query: 'select:hello' });
    expect((await client.call('hello')).text).toBe('hello!');
    await client.close();
  });

  it('G5: a request body past requestBodyBytes gets 413 and opens nothing', async () => {
    const before = { open: http.sessionCount(), live: gateway.liveSessions, stored: store.size };
    const big = { ...INIT, params: { ...INIT.params, padding: 'p'.repeat(5 * 1024 * 1024) } };
    expect((await raw(http.url, GOOD, big)).status).toBe(413);
    expect({ open: http.sessionCount(), live: gateway.liveSessions, stored: store.size }).toEqual(before);
  });

  it('G5: a session flood stops at the cap: the gateway answers 503 with Retry-After, and frees a place when a session ends', async () => {
    // 20 initializes at once: exactly the free places succeed (initializes under way count).
    const free = MAX - http.sessionCount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw(http.url, GOOD)));
    const ok = answers.filter((a) => a.status === 200);
    const full = answers.filter((a) => a.status === 503);
    expect(ok).toHaveLength(free);
    expect(full).toHaveLength(20 - free);
    for (const a of full) expect(a.headers['retry-after']).toBe(String(FULL_RETRY_AFTER_SECONDS));
    expect(http.sessionCount()).toBe(MAX);
    expect((await raw(http.url, GOOD)).status).toBe(503);
    // Ending one session (DELETE) makes room for exactly one more.
    const sessionId = ok[0]!.headers['mcp-session-id'] as string;
    const ended = await fetch(http.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(ended.status).toBe(200);
    await waitFor(() => http.sessionCount() === MAX - 1, 'the ended session to be freed');
    expect((await raw(http.url, GOOD)).status).toBe(200);
    expect((await raw(http.url, GOOD)).status).toBe(503);
  });

  it('G5: forged Host headers get 403 and open nothing; exact loopback names pass', async () => {
    const before = { open: http.sessionCount(), live: gateway.liveSessions, stored: store.size };
    const port = new URL(http.url).port;
    for (const host of [
      `127.0.0.1.evil.com:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost.evil.example:${port}`,
      `attacker.localhost:${port}`,
      'evil.example',
    ]) {
      expect((await raw(http.url, { ...GOOD, host })).status, host).toBe(403);
    }
    expect({ open: http.sessionCount(), live: gateway.liveSessions, stored: store.size }).toEqual(before);
    // Loopback names are accepted (the gateway is full here, so they reach the session cap: 503, not 403).
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await raw(http.url, { ...GOOD, host })).status, host).toBe(503);
    }
  });

  it('G5: binding beyond loopback without a token is refused before listening (unless explicitly allowed)', async () => {
    await expect(startHttpGateway(gateway, { host: '0.0.0.0', port: 0 })).rejects.toBeInstanceOf(
      UnauthenticatedBindError,
    );
    await expect(startHttpGateway(gateway, { host: '127.0.0.1.nip.io', port: 0 })).rejects.toThrow(
      /without a bearer token/,
    );
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '127.0.0.1.evil.com', '127.evil', '::', '10.0.0.1', 'localhost.evil'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('G5: the session cap also covers sessions resumed from a shared store', () => {
  // Two gateways sharing one store object stand in for two replicas sharing Redis.
  const store = new InMemorySessionStore();
  const gateways: ToolsearchGateway[] = [];
  const servers: RunningHttpGateway[] = [];

  async function replica(maxSessions: number): Promise<RunningHttpGateway> {
    const catalog = new Catalog([
      defineTool({ name: 'hello', description: 'Say hello.', defer: true, handler: () => 'hello!' }),
    ]);
    const gateway = new ToolsearchGateway({ catalog, sessions: store });
    gateways.push(gateway);
    const http = await startHttpGateway(gateway, { maxSessions, idleSessionTimeoutMs: 0 });
    servers.push(http);
    return http;
  }
  afterAll(async () => {
    for (const http of servers) await http.close();
    for (const gateway of gateways) await gateway.close();
  });

  it('G5: a full replica answers 503 with Retry-After to a session it would resume, and resumes it once a place frees', async () => {
    const roomy = await replica(10);
    const full = await replica(1);
    const sessionOf = async (url: string) => {
      const answer = await raw(url, GOOD);
      expect(answer.status).toBe(200);
      return answer.headers['mcp-session-id'] as string;
    };
    const local = await sessionOf(full.url);
    const elsewhere = await sessionOf(roomy.url);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const resumeHeaders = { ...GOOD, 'mcp-session-id': elsewhere, 'mcp-protocol-version': '2025-06-18' };

    const refused = await raw(full.url, resumeHeaders, list);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(FULL_RETRY_AFTER_SECONDS));
    expect(full.sessionCount()).toBe(1);
    // The refused resume lost nothing: the session still lives in the store and on its own replica.
    expect(await store.get(elsewhere)).toBeDefined();
    expect((await raw(roomy.url, resumeHeaders, list)).status).toBe(200);

    // Ending the local session frees the place: the same request now resumes the session here.
    const ended = await fetch(full.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': local, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(ended.status).toBe(200);
    await waitFor(() => full.sessionCount() === 0, 'the ended session to be freed');
    expect((await raw(full.url, resumeHeaders, list)).status).toBe(200);
    expect(full.sessionCount()).toBe(1);
    // Now full again, with the resumed session: a new initialize is refused too.
    expect((await raw(full.url, GOOD)).status).toBe(503);
  });
});

describe('G5: limits and token from the `serve` command line', () => {
  let dir: string;
  let config: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolsearch-hostile-'));
    config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          steady: hostileServer('steady', []),
          // Never reachable; its URL carries credentials that must not reach the log.
          remote: { url: 'http://admin:hunter2-SECRET@127.0.0.1:9/mcp?api_key=KEY-SECRET&x=1' },
        },
      }),
    );
  });

  function serve(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, cliArgs('serve', '--config', config, '--settle-ms', '3000', ...args), {
      cwd: repoRoot,
      env: cliEnv({ TOOLSEARCH_TOKEN: '', ...env }),
    });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    /** The URL it prints once listening. */
    const listening = async () =>
      (await waitFor(() => /listening on (\S+)/.exec(out.stdout)?.[1], 'the gateway to listen', 20_000))!;
    return { child, out, exited, listening };
  }

  it('G5: --token-file, --limit sessions=2 (503 past it) and --limit idleSessionTimeoutMs (idle sessions freed); no credential in the log', async () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'file-token-SECRET\n');
    const run = serve([
      '--http',
      '127.0.0.1:0',
      '--token-file',
      tokenFile,
      '--limit',
      'sessions=2',
      '--limit',
      'idleSessionTimeoutMs=500',
    ]);
    try {
      const url = await run.listening();
      expect(run.out.stdout).toContain('bearer token required');
      const auth = { ...GOOD, authorization: 'Bearer file-token-SECRET' };
      expect((await raw(url, GOOD)).status).toBe(401);
      expect((await raw(url, auth)).status).toBe(200);
      expect((await raw(url, auth)).status).toBe(200);
      const full = await raw(url, auth);
      expect(full.status).toBe(503);
      expect(full.headers['retry-after']).toBeDefined();
      // Both sessions go idle; the sweep frees them and new sessions fit again.
      await waitFor(async () => (await raw(url, auth)).status === 200, 'idle sessions to expire', 15_000);
      await waitFor(() => run.out.stderr.includes('"remote"'), 'the unreachable server to be logged', 15_000);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
    const output = run.out.stdout + run.out.stderr;
    for (const secret of ['file-token-SECRET', 'hunter2-SECRET', 'KEY-SECRET']) expect(output).not.toContain(secret);
  });

  it('G5: serve --limit initializeBurst=2 --limit initializePerMinute=1: the third initialize gets 429 with Retry-After', async () => {
    const run = serve(['--http', '127.0.0.1:0', '--limit', 'initializeBurst=2', '--limit', 'initializePerMinute=1']);
    try {
      const url = await run.listening();
      expect((await raw(url, GOOD)).status).toBe(200);
      expect((await raw(url, GOOD)).status).toBe(200);
      const refused = await raw(url, GOOD);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await waitFor(() => run.out.stderr.includes('limits initializePerMinute = 1'), 'the warning');
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });

  it('G5: serve --http 0.0.0.0:PORT without a token exits with a clear error before spawning anything', async () => {
    const run = serve(['--http', '0.0.0.0:0']);
    expect(await run.exited).toBe(1);
    expect(run.out.stderr).toMatch(
      /Refusing to serve on 0\.0\.0\.0 without a bearer token.*--dangerously-allow-unauthenticated/,
    );
    expect(run.out.stdout).not.toContain('listening');
  });

  it('G5: a bad --limit is refused naming the limit', async () => {
    const run = serve(['--http', '127.0.0.1:0', '--limit', 'sessions=0']);
    expect(await run.exited).not.toBe(0);
    expect(run.out.stderr).toMatch(/sessions|integer >= 1/);
  });

  it('G5: a bad --trust-proxy is refused in one line naming the entry, before anything listens', async () => {
    const run = serve(['--http', '127.0.0.1:0', '--trust-proxy', 'loopback,10.0.0.0/99']);
    expect(await run.exited).not.toBe(0);
    const lines = run.out.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/--trust-proxy loopback,10\.0\.0\.0\/99: .*loopback, linklocal, uniquelocal/);
    expect(run.out.stdout).not.toContain('listening');
  });
});
