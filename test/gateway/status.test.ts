/**
 * H3 — `/healthz`, the status data behind the status page, its live search with explanations,
 * and `toolsearch status --http URL`, against a real HTTP gateway (real server-memory, one server
 * that cannot start), with the same token and Origin rules as /mcp.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusSearchAnswer, StatusSnapshot } from '../../src/gateway/status/routes.js';
import { httpClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { startStatusGateway, STATUS_TOKEN } from '../fixtures/status-gateway.js';
import { waitFor } from '../fixtures/wait.js';
import { cliArgs } from '../fixtures/cli.js';
import { cliEnv } from '../fixtures/state.js';

const run = promisify(execFile);
const auth = { authorization: `Bearer ${STATUS_TOKEN}` };
let gateway: Awaited<ReturnType<typeof startStatusGateway>>;

beforeAll(async () => {
  gateway = await startStatusGateway();
});
afterAll(() => gateway?.close());

describe('H3 status over HTTP', () => {
  it('H3: /healthz answers without the token, with state counts only', async () => {
    const response = await fetch(`${gateway.base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      servers: { connected: 1, connecting: 0, installing: 0, failed: 1, quarantined: 0, 'needs-sign-in': 0, closed: 0 },
    });
  });

  it('H3: readiness (/readyz, /healthz?ready=1) is 503 while a server failed; names need the token; plain /healthz stays 200', async () => {
    for (const path of ['/readyz', '/healthz?ready=1']) {
      const response = await fetch(`${gateway.base}${path}`);
      expect(response.status, path).toBe(503);
      expect(await response.json()).toEqual({
        status: 'not ready',
        servers: {
          connected: 1,
          connecting: 0,
          installing: 0,
          failed: 1,
          quarantined: 0,
          'needs-sign-in': 0,
          closed: 0,
        },
      });
    }
    expect(await (await fetch(`${gateway.base}/readyz`, { headers: auth })).json()).toMatchObject({
      status: 'not ready',
      waitingFor: ['supabase'],
    });
    expect((await fetch(`${gateway.base}/healthz`)).status).toBe(200);
  });

  it('H3: status data needs the same bearer token as /mcp and passes the same Origin check', async () => {
    expect((await fetch(`${gateway.base}/status.json`)).status).toBe(401);
    expect((await fetch(`${gateway.base}/status/search?q=x`)).status).toBe(401);
    expect(
      (await fetch(`${gateway.base}/status.json`, { headers: { ...auth, origin: 'https://evil.example' } })).status,
    ).toBe(403);
    expect((await fetch(`${gateway.base}/status`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const page = await fetch(`${gateway.base}/status`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
    expect(await page.text()).not.toContain('supabase');
    // G5: /status/ (trailing slash) is sent to /status, whose relative status.json resolves.
    const slash = await fetch(`${gateway.base}/status/`, { redirect: 'manual' });
    expect(slash.status).toBe(308);
    expect(new URL(slash.headers.get('location')!, `${gateway.base}/status/`).pathname).toBe('/status');
  });

  it('H3/C12: each server with its state, tools, reconnects and last error; sessions; tokens saved', async () => {
    const client = await httpClient(gateway.mcpUrl, auth);
    try {
      const status = (await (await fetch(`${gateway.base}/status.json`, { headers: auth })).json()) as StatusSnapshot;
      const byName = Object.fromEntries(status.servers.map((s) => [s.server, s]));
      expect(byName['memory']).toMatchObject({ state: 'connected', tools: 9, reconnects: 0 });
      expect(byName['supabase']).toMatchObject({
        state: 'failed',
        tools: 0,
        lastError: 'could not connect: command not found: toolsearch-test-no-such-command',
      });
      expect(status.sessions).toBe(1);
      expect(status.tokens.eager).toBeGreaterThan(status.tokens.deferred);
      expect(status.tokens.savedPerRequest).toBe(status.tokens.eager - status.tokens.deferred);
      expect(status.failedServers).toEqual([
        { server: 'supabase', reason: expect.stringContaining('command not found') },
      ]);
    } finally {
      await client.close();
    }
  });

  it('H3/C11: the live search ranks the deferred tools with an explanation per hit', async () => {
    const answer = (await (
      await fetch(`${gateway.base}/status/search?q=${encodeURIComponent('create entities in the knowledge graph')}`, {
        headers: auth,
      })
    ).json()) as StatusSearchAnswer;
    expect(answer.hits[0]).toMatchObject({ rank: 1, name: 'mcp__memory__create_entities', server: 'memory' });
    expect(answer.hits[0]!.explanation.join('\n')).toMatch(/entit/);
    expect(answer.failedServers.map((f) => f.server)).toEqual(['supabase']);
  });

  it('H3: `toolsearch status --http URL` prints the same in a terminal', async () => {
    const cli = (...args: string[]) =>
      run(process.execPath, cliArgs('status', '--http', gateway.mcpUrl, ...args), {
        env: cliEnv(),
        timeout: 60_000,
      });
    await expect(cli()).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('needs its bearer token') });
    // A failed server: the status prints, and the exit code is 2 (for scripts and monitors).
    const failed = (await cli('--token', STATUS_TOKEN, '--search', 'create entities').then(
      () => expect.fail('expected exit code 2'),
      (error: { code: number; stdout: string }) => error,
    )) as { code: number; stdout: string };
    expect(failed.code).toBe(2);
    const { stdout } = failed;
    expect(stdout).toMatch(/^memory\s+connected\s+9\b/m);
    expect(stdout).toMatch(/^supabase\s+failed\s+0\b.*command not found: toolsearch-test-no-such-command/m);
    expect(stdout).toMatch(/1\. mcp__memory__create_entities\n\s+\S/);
  });

  it('H3: `toolsearch status --token-file FILE` reads the token from the file (kept out of the process list)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ts-status-token-')), 'token');
    writeFileSync(file, `${STATUS_TOKEN}\n`);
    const failed = (await run(process.execPath, cliArgs('status', '--http', gateway.base, '--token-file', file), {
      env: cliEnv(),
      timeout: 60_000,
    }).then(
      () => expect.fail('expected exit code 2 (a failed server)'),
      (error: { code: number; stdout: string }) => error,
    )) as { code: number; stdout: string };
    expect(failed.code).toBe(2);
    expect(failed.stdout).toMatch(/^memory\s+connected\s+9\b/m);
  });
});

describe('H3 readiness while a server connects for the first time', () => {
  it('H3: /readyz is 503 until every server connected, then 200; `toolsearch status` exits 0 when no server failed', async () => {
    const slow = await startStatusGateway({ extra: { slow: fixtureServer('slow', { delayMs: 3000 }) }, settle: false });
    try {
      const first = await fetch(`${slow.base}/readyz`, { headers: auth });
      // Guard: the slow server must still be on its first connect for this check to mean anything.
      expect(slow.hub.status().find((s) => s.server === 'slow')?.state).toBe('connecting');
      expect(first.status).toBe(503);
      expect(await first.json()).toMatchObject({ status: 'not ready', waitingFor: expect.arrayContaining(['slow']) });
      await waitFor(() => slow.hub.status().every((s) => s.state === 'connected'), 'both servers to connect', 20_000);
      const ready = await fetch(`${slow.base}/healthz?ready=1`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        servers: {
          connected: 2,
          connecting: 0,
          installing: 0,
          failed: 0,
          quarantined: 0,
          'needs-sign-in': 0,
          closed: 0,
        },
      });
      const { stdout } = await run(process.execPath, cliArgs('status', '--http', slow.base, '--token', STATUS_TOKEN), {
        env: cliEnv(),
        timeout: 60_000,
      });
      expect(stdout).toMatch(/^slow\s+connected\b/m);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
