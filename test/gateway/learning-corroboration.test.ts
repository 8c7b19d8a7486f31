/**
 * C14 end to end over HTTP: learning needs corroboration, one client's lessons are capped, and the
 * learned file keeps only the catalog's words. Real `toolsearch serve --http` in process, the real
 * server-filesystem and server-everything from npm, two SDK clients.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';

const ECHO = 'mcp__everything__echo';

function writeConfig(learning: Record<string, unknown> = {}): { config: string; learned: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-corroboration-'));
  const files = join(dir, 'files');
  mkdirSync(files);
  const config = join(dir, 'mcp.json');
  const learned = join(dir, 'learned.json');
  const servers = {
    files: { command: process.execPath, args: [resolvePackageBin('@modelcontextprotocol/server-filesystem'), files] },
    everything: { command: process.execPath, args: [resolvePackageBin('@modelcontextprotocol/server-everything')] },
    memory: {
      command: process.execPath,
      args: [resolvePackageBin('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    },
  };
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: servers, toolSearch: { learning: { path: learned, ...learning } } }),
  );
  return { config, learned };
}

async function matches(client: TestClient, query: string): Promise<string[]> {
  const result = await client.call('tool_search', { query });
  // A hit is one compact line, `- name(args) — purpose` (its name is what comes before `(`), or,
  // for the best hit under the default fixed list, its definition in full as one JSON line.
  return result.text.split('\n').flatMap((l) => {
    if (l.startsWith('- ')) return [l.slice(2).split('(')[0]!];
    if (l.startsWith('{')) return [(JSON.parse(l) as { name: string }).name];
    return [];
  });
}

describe('C14 learning that needs corroboration (HTTP, two clients)', () => {
  it('C14: one session’s 12 searches and calls of an unrelated tool do not put it first for another client’s "read a file"', async () => {
    const { config } = writeConfig();
    const served = await serveHttp({ config });
    try {
      const victim = await httpClient(served.http!.url);
      const ordinary = ['read a file', 'read the file', 'read file contents', 'fill in a form', 'form'];
      const before = new Map<string, string[]>();
      for (const query of ordinary) before.set(query, await matches(victim, query));
      expect(before.get('read a file')![0]).not.toBe(ECHO);
      const attacker = await httpClient(served.http!.url);
      const phrasings = ['read a file', 'read the file', 'read file contents', 'please read a file now'];
      for (let i = 0; i < 12; i++) {
        const query = phrasings[i % phrasings.length]!;
        if (i % 2 === 0) {
          // A search that names the tool too, then a call of it from the results.
          expect(await matches(attacker, `${query} echo`)).toContain(ECHO);
          expect((await attacker.call(ECHO, { message: 'x' })).isError).not.toBe(true);
        } else {
          // A search that missed it, then a select: of it.
          await matches(attacker, query);
          await attacker.call('tool_search', { query: `select:${ECHO}` });
        }
      }
      // The case: one unrelated select: after "fill in a form" put a memory tool second for "form".
      await matches(attacker, 'fill in a form');
      await attacker.call('tool_search', { query: 'select:mcp__memory__read_graph' });
      expect(served.stack.learner!.summary().map((s) => s.tool)).toEqual(
        expect.arrayContaining([ECHO, 'mcp__memory__read_graph']),
      );
      // One session's lessons change nothing in another client's results.
      for (const query of ordinary) expect(await matches(victim, query)).toEqual(before.get(query));
      // The attacker's own later searches are not lifted either: its lessons count as one source.
      expect((await matches(attacker, 'read a file'))[0]).not.toBe(ECHO);
      await attacker.close();
      await victim.close();
    } finally {
      await served.stack.close();
    }
  });

  it('C14: what a second session confirms lifts; a bare select: with no search before it teaches nothing', async () => {
    const { config } = writeConfig();
    const served = await serveHttp({ config });
    const target = 'mcp__memory__search_nodes';
    const query = 'check the knowledge graph for alice';
    try {
      const bare = await httpClient(served.http!.url);
      await bare.call('tool_search', { query: `select:${target}` });
      expect(served.stack.learner!.summary()).toEqual([]);
      await bare.close();
      for (const expected of [false, true]) {
        const client = await httpClient(served.http!.url);
        const found = await matches(client, query);
        expect(found[0] === target).toBe(expected);
        if (!expected) {
          expect(found).toContain(target);
          expect((await client.call(target, { query: 'alice' })).isError).not.toBe(true);
        }
        await client.close();
        if (!expected) {
          // Taught once (by this session): nothing lifts until another session agrees.
          const second = await httpClient(served.http!.url);
          expect((await matches(second, query))[0]).not.toBe(target);
          expect((await second.call(target, { query: 'alice' })).isError).not.toBe(true);
          await second.close();
        }
      }
    } finally {
      await served.stack.close();
    }
  });

  it('C14: two people whose different searches share a distinctive word lift that word’s tool for a third', async () => {
    const { config } = writeConfig();
    const served = await serveHttp({ config });
    const target = 'mcp__memory__search_nodes';
    const later = 'what do we know about alice';
    try {
      const third = await httpClient(served.http!.url);
      expect((await matches(third, later))[0]).not.toBe(target);
      const taught: string[][] = [];
      for (const query of ['check the knowledge graph for alice', 'search the graph for alice']) {
        const client = await httpClient(served.http!.url);
        expect(await matches(client, query)).toContain(target);
        expect((await client.call(target, { query: 'alice' })).isError).not.toBe(true);
        await client.close();
        taught.push(await matches(third, later));
      }
      // After the first person nothing moved; after the second, "alice" is confirmed for the tool.
      expect(taught[0]![0]).not.toBe(target);
      expect(taught[1]![0]).toBe(target);
      await third.close();
    } finally {
      await served.stack.close();
    }
  });

  it('C14: one client teaches at most lessonsPerHour lessons; the learned file keeps only the catalog’s words', async () => {
    const { config, learned } = writeConfig({ lessonsPerHour: 3 });
    const served = await serveHttp({ config });
    const target = 'mcp__memory__search_nodes';
    try {
      const client = await httpClient(served.http!.url);
      const queries = [
        'look up maria lopez 1984 patient in the knowledge graph',
        'find nodes about the project',
        'search the graph for acme',
        'query entities named bob',
        'find observations about carol',
      ];
      for (const query of queries) {
        expect(await matches(client, query)).toContain(target);
        expect((await client.call(target, { query: 'x' })).isError).not.toBe(true);
      }
      await client.close();
      const learner = served.stack.learner!;
      expect(learner.summary()).toEqual([expect.objectContaining({ tool: target, searches: 3 })]);
      await learner.flush();
      const text = readFileSync(learned, 'utf8').toLowerCase();
      // Words of tools stay readable (they match future queries as they are); the rest is hashed.
      for (const personal of ['maria', 'lopez', '1984']) expect(text).not.toContain(personal);
      expect(text).toContain('graph');
      expect(text).toMatch(/#[0-9a-z]{11}/);
    } finally {
      await served.stack.close();
    }
  });
});
