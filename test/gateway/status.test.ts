/**
 * H3 — `/healthz`, the status data behind the status page, its live search with explanations,
 * and `toolsearch status --http URL`, against a real HTTP gateway (real server-memory, one server
 * that cannot start), with the same token and Origin rules as /mcp.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusSearchAnswer, StatusSnapshot } from '../../src/gateway/status.js';
import { httpClient } from '../fixtures/clients.js';
import { startStatusGateway, STATUS_TOKEN } from '../fixtures/status-gateway.js';

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
    expect(await response.json()).toEqual({ status: 'ok', servers: { connected: 1, connecting: 0, failed: 1, quarantined: 0, closed: 0 } });
  });

  it('H3: status data needs the same bearer token as /mcp and passes the same Origin check', async () => {
    expect((await fetch(`${gateway.base}/status.json`)).status).toBe(401);
    expect((await fetch(`${gateway.base}/status/search?q=x`)).status).toBe(401);
    expect((await fetch(`${gateway.base}/status.json`, { headers: { ...auth, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${gateway.base}/status`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const page = await fetch(`${gateway.base}/status`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
    expect(await page.text()).not.toContain('supabase');
  });

  it('H3/C12: each server with its state, tools, reconnects and last error; sessions; tokens saved', async () => {
    const client = await httpClient(gateway.mcpUrl, auth);
    try {
      const status = (await (await fetch(`${gateway.base}/status.json`, { headers: auth })).json()) as StatusSnapshot;
      const byName = Object.fromEntries(status.servers.map((s) => [s.server, s]));
      expect(byName['memory']).toMatchObject({ state: 'connected', tools: 9, reconnects: 0 });
      expect(byName['supabase']).toMatchObject({ state: 'failed', tools: 0, lastError: 'could not connect: command not found: toolsearch-test-no-such-command' });
      expect(status.sessions).toBe(1);
      expect(status.tokens.eager).toBeGreaterThan(status.tokens.deferred);
      expect(status.tokens.savedPerRequest).toBe(status.tokens.eager - status.tokens.deferred);
      expect(status.failedServers).toEqual([{ server: 'supabase', reason: expect.stringContaining('command not found') }]);
    } finally {
      await client.close();
    }
  });

  it('H3/C11: the live search ranks the deferred tools with an explanation per hit', async () => {
    const answer = (await (await fetch(`${gateway.base}/status/search?q=${encodeURIComponent('create entities in the knowledge graph')}`, { headers: auth })).json()) as StatusSearchAnswer;
    expect(answer.hits[0]).toMatchObject({ rank: 1, name: 'mcp__memory__create_entities', server: 'memory' });
    expect(answer.hits[0]!.explanation.join('\n')).toMatch(/entit/);
    expect(answer.failedServers.map((f) => f.server)).toEqual(['supabase']);
  });

  it('H3: `toolsearch status --http URL` prints the same in a terminal', async () => {
    const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'status', '--http', gateway.mcpUrl, ...args], { timeout: 60_000 });
    await expect(cli()).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('needs its bearer token') });
    const { stdout } = await cli('--token', STATUS_TOKEN, '--search', 'create entities');
    expect(stdout).toMatch(/^memory\s+connected\s+9\b/m);
    expect(stdout).toMatch(/^supabase\s+failed\s+0\b.*command not found: toolsearch-test-no-such-command/m);
    expect(stdout).toMatch(/1\. mcp__memory__create_entities\n\s+\S/);
  });
});
