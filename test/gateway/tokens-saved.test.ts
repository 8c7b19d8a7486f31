/**
 * G9 (issue 29): the status page's "tokens saved since start" is honest. Each tools/list counts
 * the catalog's tokens minus what that answer carried: a session that loaded tools saves less, one
 * that loaded the whole catalog saves nothing. Real `serve --http`, real server-memory, real
 * o200k counts, read from /status.json and /metrics.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import type { StatusSnapshot } from '../../src/gateway/status/routes.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { waitFor } from '../fixtures/wait.js';

const TOKEN = 'tokens-saved-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const dir = mkdtempSync(join(tmpdir(), 'ts-saved-'));
process.env['TOOLSEARCH_STATE_DIR'] = join(dir, 'state');
let served: Served;
let base: string;

beforeAll(async () => {
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
          env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
        },
      },
      // The growing list: a loaded tool rides on the session's every list and saves less.
      toolSearch: { toolList: 'growing' },
    }),
  );
  served = await serveHttp({ config, token: TOKEN });
  base = new URL(served.http!.url).origin;
  await waitFor(() => served.stack.hub.status().every((s) => s.state === 'connected'), 'memory to connect', 30_000);
}, 60_000);
afterAll(() => served?.stack.close());

async function status(): Promise<StatusSnapshot> {
  return (await (await fetch(`${base}/status.json`, { headers: auth })).json()) as StatusSnapshot;
}

async function savedTotal(): Promise<number> {
  return (await status()).tokens.savedTotal ?? 0;
}

/** The total once a fresh session's list (which saves `perFresh`) was counted after `before`. */
async function afterFreshList(fresh: TestClient, before: number, perFresh: number): Promise<number> {
  await fresh.toolNames();
  return waitFor(async () => {
    const now = await savedTotal();
    return now >= before + perFresh ? now : undefined;
  }, 'the fresh list to be counted');
}

describe('G9 tokens saved, per tools/list answered', () => {
  it('G9: a fresh list saves eager minus deferred; one with a loaded tool saves less; one with every tool loaded saves nothing', async () => {
    const first = await status();
    const perFresh = first.tokens.savedPerRequest;
    expect(perFresh).toBeGreaterThan(0);
    const fresh = await httpClient(served.http!.url, auth);
    const one = await httpClient(served.http!.url, auth);
    const all = await httpClient(served.http!.url, auth);
    try {
      const start = await afterFreshList(fresh, await savedTotal(), perFresh);
      expect(start).toBeGreaterThanOrEqual(perFresh);

      // One tool loaded: its definition rides on every list of that session.
      await one.call('tool_search', { query: 'select:mcp__memory__create_entities' });
      await one.toolNames();
      const withOne = await waitFor(async () => {
        const now = await savedTotal();
        return now > start ? now : undefined;
      }, 'the one-tool list to be counted');
      expect(withOne - start).toBeGreaterThan(0);
      expect(withOne - start).toBeLessThan(perFresh);

      // Every tool loaded: the list carries more than the whole catalog would; nothing saved.
      const names = served.stack.gateway.catalog.tools.map((t) => t.name);
      await all.call('tool_search', { query: `select:${names.join(',')}` });
      expect((await all.toolNames()).filter((n) => n.startsWith('mcp__memory__'))).toHaveLength(names.length);
      // A fresh list after it: counted in order, so once it shows, the full list's share is in too.
      const end = await afterFreshList(fresh, withOne, perFresh);
      expect(end - withOne).toBe(perFresh);
    } finally {
      await Promise.allSettled([fresh.close(), one.close(), all.close()]);
    }
  }, 120_000);
});
