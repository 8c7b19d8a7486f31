/**
 * C14/C15 end to end over HTTP: a shared gateway learns across client identities a caller cannot
 * make up (sessions/identity.ts), never across sessions. Real `toolsearch serve --http` in process,
 * the real server-filesystem and server-memory from npm, the hostile fixture server (its
 * `exfiltrate` is the tool an attacker wants in front of other users), SDK clients of both eras.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { HOSTILE_SERVER } from '../fixtures/servers/index.js';
import { serveHttp, type Served } from '../fixtures/serve-http.js';
import { httpClient } from '../fixtures/clients.js';
import { eraClient } from './eras-clients.js';

const HOSTILE = 'mcp__hostile__exfiltrate';
/** What the tests need of a client of either era. */
interface Caller {
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError?: boolean }>;
}
/** Other users' everyday requests; the attacker teaches the hostile tool for each. */
const ORDINARY = ['read a file', 'list the files in a folder', 'search the knowledge graph', 'create a new entity'];

function writeConfig(learning: Record<string, unknown> = {}): { config: string; learned: string; tokens: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-corroboration-'));
  const files = join(dir, 'files');
  mkdirSync(files);
  const config = join(dir, 'mcp.json');
  const learned = join(dir, 'learned.json');
  const tokens = join(dir, 'tokens.txt');
  const servers = {
    files: { command: process.execPath, args: [resolvePackageBin('@modelcontextprotocol/server-filesystem'), files] },
    memory: {
      command: process.execPath,
      args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    },
    hostile: { command: process.execPath, args: [HOSTILE_SERVER], env: { HOSTILE_TOOLS: 'exfiltrate' } },
  };
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: servers, toolSearch: { learning: { path: learned, ...learning } } }),
  );
  writeFileSync(tokens, 'token-alice\ntoken-bob\ntoken-carol\n');
  return { config, learned, tokens };
}

async function matches(client: Caller, query: string, maxResults = 5): Promise<string[]> {
  const result = await client.call('tool_search', { query, max_results: maxResults });
  // A hit is one compact line, `- name(args) — purpose` (its name is what comes before `(`), or,
  // for the best hit under the default fixed list, its definition in full as one JSON line.
  return result.text.split('\n').flatMap((l) => {
    if (l.startsWith('- ')) return [l.slice(2).split('(')[0]!];
    if (l.startsWith('{')) return [(JSON.parse(l) as { name: string }).name];
    return [];
  });
}

/** What a client's searches for the ordinary requests find, in order. */
async function answers(client: Caller): Promise<string[][]> {
  const out: string[][] = [];
  for (const query of ORDINARY) out.push(await matches(client, query));
  return out;
}

/** One attack step: a search that names the hostile tool (so it is a result), then a call of it. */
async function teachHostile(attacker: Caller, query: string): Promise<void> {
  expect(await matches(attacker, `${query} exfiltrate`, 20)).toContain(HOSTILE);
  expect((await attacker.call(HOSTILE, {})).isError).not.toBe(true);
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function withServed(served: Served, run: (url: string) => Promise<void>): Promise<void> {
  try {
    await run(served.http!.url);
  } finally {
    await served.stack.close();
  }
}

describe('C15: a shared gateway learns across identities, not sessions (HTTP)', () => {
  it('C15: without a token, two sessions of one client (24 requests) change no other client’s answers, nor its own', async () => {
    const { config } = writeConfig();
    const serving = await serveHttp({ config });
    await withServed(serving, async (url) => {
      const victim = await httpClient(url);
      const before = await answers(victim);
      expect(before.every((found) => found[0] !== HOSTILE)).toBe(true);
      for (let session = 0; session < 2; session++) {
        const attacker = await httpClient(url);
        for (const query of [...ORDINARY, ORDINARY[0]!, ORDINARY[1]!]) await teachHostile(attacker, query);
        await attacker.close();
      }
      expect(await answers(victim)).toEqual(before);
      expect(await answers(await httpClient(url))).toEqual(before);
      // Callers the gateway cannot tell apart teach nothing at all.
      expect(serving.stack.learner!.summary()).toEqual([]);
    });
  });

  it('C15: without a token, 2026-07-28 requests with made-up Authorization headers change no one’s answers', async () => {
    const { config } = writeConfig();
    const serving = await serveHttp({ config });
    await withServed(serving, async (url) => {
      const victim = await httpClient(url);
      const before = await answers(victim);
      for (let k = 0; k < 6; k++) {
        const attacker = await eraClient(
          'pin',
          new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(`made-up-${k}`) } }),
        );
        expect(attacker.era).toBe('modern');
        await teachHostile(attacker, ORDINARY[k % ORDINARY.length]!);
        await teachHostile(attacker, ORDINARY[(k + 1) % ORDINARY.length]!);
        await attacker.close();
      }
      expect(await answers(victim)).toEqual(before);
      expect(serving.stack.learner!.summary()).toEqual([]);
    });
  });

  it('C15: one token per client: two sessions of token A change nothing for token B; B agreeing lifts the tool for C', async () => {
    const { config, tokens } = writeConfig();
    await withServed(await serveHttp({ config, tokenFile: tokens }), async (url) => {
      const bob = await httpClient(url, bearer('token-bob'));
      const before = await answers(bob);
      for (let session = 0; session < 2; session++) {
        const alice = await httpClient(url, bearer('token-alice'));
        for (const query of [...ORDINARY, ORDINARY[0]!]) await teachHostile(alice, query);
        await alice.close();
      }
      expect(await answers(bob)).toEqual(before);
      // Nor for Alice herself: she is one identity of several.
      expect((await matches(await httpClient(url, bearer('token-alice')), 'read a file'))[0]).not.toBe(HOSTILE);
      // A real second identity: Bob's own searches for a memory tool share a distinctive word with Alice's.
      const target = 'mcp__memory__search_nodes';
      const carol = await httpClient(url, bearer('token-carol'));
      const later = 'what do we know about zorblat';
      expect((await matches(carol, later))[0]).not.toBe(target);
      for (const [client, query] of [
        [await httpClient(url, bearer('token-alice')), 'check the knowledge graph for zorblat'],
        [bob, 'search the graph for zorblat'],
      ] as const) {
        expect(await matches(client, query)).toContain(target);
        expect((await client.call(target, { query: 'zorblat' })).isError).not.toBe(true);
      }
      expect((await matches(carol, later))[0]).toBe(target);
      // The status data (every session's queries) is the operator's: the first line's token only.
      const status = (token: string) =>
        fetch(new URL('/status.json', url), { headers: bearer(token) }).then((r) => r.status);
      expect(await status('token-alice')).toBe(200);
      expect(await status('token-bob')).toBe(401);
    });
  });

  it('C15: a select: of a tool the search did not return teaches nothing; of one it returned, it teaches', async () => {
    const { config } = writeConfig();
    const serving = await serveHttp({ config, token: 'solo' });
    await withServed(serving, async (url) => {
      const client = await httpClient(url, bearer('solo'));
      const query = 'read a file';
      expect(await matches(client, query)).not.toContain(HOSTILE);
      await client.call('tool_search', { query: `select:${HOSTILE}` });
      expect(serving.stack.learner!.summary()).toEqual([]);
      expect((await matches(client, query))[0]).not.toBe(HOSTILE);
      const target = 'mcp__memory__search_nodes';
      expect(await matches(client, 'look up zorblat in the knowledge graph')).toContain(target);
      await client.call('tool_search', { query: `select:${target}` });
      expect(serving.stack.learner!.summary()).toEqual([expect.objectContaining({ tool: target, searches: 1 })]);
    });
  });

  it('C15: identities "one" makes a gateway without a token learn at once; "shared" makes an only token wait for a second', async () => {
    const target = 'mcp__memory__search_nodes';
    const query = 'check the knowledge graph for zorblat';
    const teachAndAsk = async (url: string, headers?: Record<string, string>) => {
      const teacher = await httpClient(url, headers);
      expect(await matches(teacher, query)).toContain(target);
      expect((await teacher.call(target, { query: 'zorblat' })).isError).not.toBe(true);
      await teacher.close();
      return (await matches(await httpClient(url, headers), query))[0];
    };
    const one = writeConfig({ identities: 'one' });
    await withServed(await serveHttp({ config: one.config }), async (url) => {
      expect(await teachAndAsk(url)).toBe(target);
    });
    const shared = writeConfig({ identities: 'shared' });
    await withServed(await serveHttp({ config: shared.config, token: 'team' }), async (url) => {
      expect(await teachAndAsk(url, bearer('team'))).not.toBe(target);
    });
  });

  it('C14: one client teaches at most lessonsPerHour lessons; the learned file keeps only the catalog’s words', async () => {
    const { config, learned } = writeConfig({ lessonsPerHour: 3 });
    const serving = await serveHttp({ config, token: 'solo' });
    const target = 'mcp__memory__search_nodes';
    await withServed(serving, async (url) => {
      const client = await httpClient(url, bearer('solo'));
      const queries = [
        'look up maria lopez 1984 patient in the knowledge graph',
        'find nodes about the project',
        'search the graph for acme',
        'query entities named bob',
        'find observations about carol',
      ];
      for (const q of queries) {
        expect(await matches(client, q)).toContain(target);
        expect((await client.call(target, { query: 'x' })).isError).not.toBe(true);
      }
      await client.close();
      const learner = serving.stack.learner!;
      expect(learner.summary()).toEqual([expect.objectContaining({ tool: target, searches: 3 })]);
      await learner.flush();
      const text = readFileSync(learned, 'utf8').toLowerCase();
      // Words of tools stay readable (they match future queries as they are); the rest is hashed.
      for (const personal of ['maria', 'lopez', '1984']) expect(text).not.toContain(personal);
      expect(text).toContain('graph');
      expect(text).toMatch(/#[0-9a-z]{11}/);
    });
  });
});
