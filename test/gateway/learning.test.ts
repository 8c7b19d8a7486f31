/**
 * C13/C15 end to end: on a gateway one identity reaches (stdio; HTTP with one token), a search
 * followed by a call of one of its results makes the next session's same search rank that tool
 * first, without waiting for a second identity. Real `toolsearch serve` (HTTP in process, and stdio
 * spawned twice over one store file), the real server-memory from npm, the SDK client. Gateways that
 * several identities share: test/gateway/learning-corroboration.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { connectClient, httpClient, type TestClient } from '../fixtures/clients.js';
import { statelessClient, statelessRequestId, usageKey } from '../../src/gateway/tools/stateless.js';
import { eraClient } from './eras-clients.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';

const QUERY = 'check the knowledge graph for alice';
const TARGET = 'mcp__memory__search_nodes';

function writeConfig(learning: unknown): { dir: string; config: string; learned: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-learning-'));
  const config = join(dir, 'mcp.json');
  const learned = join(dir, 'learned.json');
  const memory = {
    command: process.execPath,
    args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  };
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { memory },
      toolSearch: { learning: learning === 'file' ? { path: learned } : learning },
    }),
  );
  return { dir, config, learned };
}

async function matches(client: TestClient, query = QUERY): Promise<string[]> {
  const result = await client.call('tool_search', { query });
  return hitNames(result.text);
}

/** The hits of a search answer in order: compact lines ("- name(args) — purpose") and full definitions (one JSON per line). */
function hitNames(text: string): string[] {
  return text.split('\n').flatMap((l) => {
    if (l.startsWith('- ')) return [l.slice(2).split('(')[0]!];
    if (l.startsWith('{')) return [(JSON.parse(l) as { name: string }).name];
    return [];
  });
}

/** Session 1: search, then call the target (not first before learning) with valid arguments. */
async function teach(client: TestClient): Promise<void> {
  const before = await matches(client);
  expect(before).toContain(TARGET);
  expect(before[0]).not.toBe(TARGET);
  const called = await client.call(TARGET, { query: 'alice' });
  expect(called.isError).not.toBe(true);
}

/** Both processes of one test share a state directory beside the config, as one user's would. */
function serveStdio(config: string): Promise<TestClient> {
  const stateDir = join(dirname(config), 'state');
  return connectClient(stdioGateway(['serve', '--config', config, '--log-level', 'silent'], { stateDir }));
}

describe('C13 the gateway learns from use', () => {
  it('C13/C15 (HTTP, one token): search → call in one session; the next session’s search ranks the called tool first', async () => {
    const { config } = writeConfig('file');
    const served = await serveHttp({ config, token: 'alice' });
    try {
      // C15: the only token is the only identity: its first lesson lifts.
      const teacher = await httpClient(served.http!.url, { authorization: 'Bearer alice' });
      await teach(teacher);
      await teacher.close();
      const second = await httpClient(served.http!.url, { authorization: 'Bearer alice' });
      expect((await matches(second))[0]).toBe(TARGET);
      // A search that shares only generic words is not pulled.
      expect((await matches(second, 'create entities in the graph'))[0]).not.toBe(TARGET);
      await second.close();
      expect(served.stack.learner?.summary()).toEqual([expect.objectContaining({ tool: TARGET, searches: 1 })]);
    } finally {
      await served.stack.close();
    }
  });

  it('C13 (stdio): the evidence survives the process in the store file; the next process ranks the tool first', async () => {
    const { config, learned } = writeConfig('file');
    const first = await serveStdio(config);
    await teach(first);
    await first.close();
    expect(existsSync(learned)).toBe(true);
    // Only term sets are stored, never the raw query text.
    expect(readFileSync(learned, 'utf8')).not.toContain(QUERY);
    const second = await serveStdio(config);
    try {
      // C15: stdio's user is the gateway's only identity: what the first process learned lifts at once.
      expect((await matches(second))[0]).toBe(TARGET);
    } finally {
      await second.close();
    }
  });

  it('C13 (2026-07-28 over HTTP, no session): a search → call by the same credentials teaches; the next search ranks the tool first', async () => {
    const { config } = writeConfig('file');
    const served = await serveHttp({ config, token: 'alice' });
    const modern = (token: string) =>
      eraClient(
        'pin',
        new StreamableHTTPClientTransport(new URL(served.http!.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
    const lines = hitNames;
    try {
      const alice = await modern('alice');
      expect(alice.era).toBe('modern');
      const before = lines((await alice.call('tool_search', { query: QUERY })).text);
      expect(before).toContain(TARGET);
      expect(before[0]).not.toBe(TARGET);
      expect((await alice.call(TARGET, { query: 'alice' })).isError).not.toBe(true);
      expect(served.stack.learner?.summary()).toEqual([expect.objectContaining({ tool: TARGET, searches: 1 })]);
      // C15: the holder of the only token is the gateway's only identity: its lesson lifts at once.
      expect(lines((await alice.call('tool_search', { query: QUERY })).text)[0]).toBe(TARGET);
      await alice.close();
    } finally {
      await served.stack.close();
    }
  });

  it('C13: 2026 requests pair by client identity (a digest, never the token), 2025 sessions and stdio connections by their own id', () => {
    const alice = statelessClient('token:alice-digest@127.0.0.1');
    const first = statelessRequestId(alice);
    const second = statelessRequestId(alice);
    expect(first).not.toBe(second);
    expect(usageKey(first)).toBe(usageKey(second));
    expect(usageKey(statelessRequestId(statelessClient('token:bob-digest@127.0.0.1')))).not.toBe(usageKey(first));
    expect(first).not.toContain('alice');
    const stdioConnection = statelessRequestId();
    expect(usageKey(stdioConnection)).toBe(stdioConnection);
    expect(usageKey('0b9f3c1e-session')).toBe('0b9f3c1e-session');
  });

  it('C13: toolSearch.learning false: nothing is learned', async () => {
    const { config, learned } = writeConfig(false);
    const served = await serveHttp({ config, token: 'alice' });
    try {
      const client = await httpClient(served.http!.url, { authorization: 'Bearer alice' });
      await teach(client);
      expect((await matches(client))[0]).not.toBe(TARGET);
      await client.close();
      expect(served.stack.learner).toBeUndefined();
      expect(existsSync(learned)).toBe(false);
    } finally {
      await served.stack.close();
    }
  });
});
