/**
 * C15 end to end: `toolsearch serve` over real stdio (and HTTP for one-shot clients) in front of the
 * real reference servers from npm (everything, filesystem, memory) and a fixture server with a
 * broken and a hostile input schema. What the model reads: nested one-line signatures, a server
 * listing that names every tool (deprecated last), "did you mean" for near-miss names, arguments
 * checked before anything goes upstream, an exact call that runs in a session that never searched,
 * and a broken schema that still gets a signature and a call.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { connectClient, httpClient, type TestClient } from '../fixtures/clients.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';
import { waitFor } from '../fixtures/wait.js';

const CREATE_ENTITIES = 'mcp__memory__create_entities(entities: {name, entityType, observations: string[]}[])';

/** A schema that nests 200 levels and holds 6,000 fields: bounded in the line, not checked, still callable. */
function hostileSchema(): Record<string, unknown> {
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { inner: deep }, required: ['inner'] };
  const properties: Record<string, unknown> = { deep };
  for (let i = 0; i < 6_000; i++) properties[`field${i}`] = { type: 'string', description: `Field ${i}.` };
  return { type: 'object', properties };
}

function writeConfig(): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-answers-'));
  writeFileSync(join(dir, 'notes.txt'), 'Meeting at noon.\n');
  const extra = join(dir, 'extra-tools.json');
  writeFileSync(
    extra,
    JSON.stringify([
      {
        name: 'broken_schema',
        description: 'A tool whose input schema names a type that does not exist.',
        inputSchema: { type: 'object', properties: { level: { type: 'strnig' } }, required: ['level'] },
      },
      {
        name: 'hostile_schema',
        description: 'A tool with a schema nobody can read whole.',
        inputSchema: hostileSchema(),
      },
    ]),
  );
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        everything: referenceServerConfig('everything'),
        filesystem: referenceServerConfig('filesystem', { root: dir }),
        memory: referenceServerConfig('memory', { memoryFile: join(dir, 'memory.jsonl') }),
        fx: fixtureServer('fx', { env: { FIXTURE_EXTRA_TOOLS: extra } }),
      },
      toolSearch: { learning: false },
    }),
  );
  return { dir, config };
}

describe('C15 answers over stdio', () => {
  let client: TestClient;
  let dir: string;
  beforeAll(async () => {
    const written = writeConfig();
    dir = written.dir;
    client = await connectClient(
      stdioGateway(['serve', '--config', written.config, '--log-level', 'silent'], { stateDir: join(dir, 'state') }),
    );
  }, 60_000);
  afterAll(() => client?.close());

  /** The first call: every server is up once a listing of the last one to start answers. */
  const ready = () =>
    waitFor(
      async () => {
        const text = (await client.call('tool_search', { query: 'mcp__fx' })).text;
        return text.includes('mcp__fx__hostile_schema') && !text.includes('Partial answer') ? text : undefined;
      },
      'every server connected',
      45_000,
    );

  it('C15/F3: an exact name with arguments that fit runs in a session that never searched', async () => {
    // Before any search (a one-shot client calls at once): wait only for the server to connect.
    const sum = await waitFor(
      async () => {
        const r = await client.call('mcp__everything__get-sum', { a: 2, b: 3 });
        return r.text.includes('still connecting') ? undefined : r;
      },
      'everything connected',
      45_000,
    );
    expect(sum.isError).not.toBe(true);
    expect(sum.text).toMatch(/\b5\b/);
    // Nothing was loaded for it: the fixed list never holds it.
    expect(await client.toolNames()).not.toContain('mcp__everything__get-sum');
  }, 60_000);

  it('C15: arguments are checked before anything goes upstream: the fields and the expected signature in one line', async () => {
    await ready();
    const sum = await client.call('call_tool', { name: 'mcp__everything__get-sum', arguments: { a: 1 } });
    expect(sum.isError).toBe(true);
    expect(sum.text).toBe(
      'Arguments for mcp__everything__get-sum do not match its input schema, so nothing was sent: b is missing. Expected: mcp__everything__get-sum(a: number, b: number).',
    );
    const nested = await client.call('mcp__memory__create_entities', { entities: [{ name: 'Bob' }] });
    expect(nested.text).toBe(
      `Arguments for mcp__memory__create_entities do not match its input schema, so nothing was sent: entities[0].entityType is missing; entities[0].observations is missing. Expected: ${CREATE_ENTITIES}.`,
    );
    // The next call, written from that line, runs.
    const created = await client.call('mcp__memory__create_entities', {
      entities: [{ name: 'Bob', entityType: 'person', observations: ['prefers tea'] }],
    });
    expect(created.isError).not.toBe(true);
  }, 60_000);

  it('C15: one-line signatures show one level of nested fields, never a bare object', async () => {
    const memory = (await client.call('tool_search', { query: 'mcp__memory' })).text;
    expect(memory).toContain(`- ${CREATE_ENTITIES} — `);
    expect(memory).toContain(
      '- mcp__memory__delete_observations(deletions: {entityName, observations: string[]}[]) — ',
    );
    expect(memory).not.toMatch(/: object\b|object\[\]/);
  }, 60_000);

  it('C15: browsing filesystem names all 14 of its tools, the deprecated read_file last', async () => {
    await ready();
    const listing = (await client.call('tool_search', { query: 'mcp__filesystem' })).text;
    const lines = listing.split('\n');
    expect(lines[0]).toMatch(/^14 tools under mcp__filesystem__; call through call_tool/);
    const named = lines.filter((l) => l.startsWith('- mcp__filesystem__')).map((l) => l.slice(2, l.indexOf('(')));
    expect(named).toHaveLength(14);
    expect(named.at(-1)).toBe('mcp__filesystem__read_file');
    expect(lines.find((l) => l.startsWith('- mcp__filesystem__read_file('))).toMatch(/\(deprecated\)$/);
    expect(listing).not.toMatch(/^\{/m);
  }, 60_000);

  it('C15: a typo, a missing prefix and another separator get "did you mean" with the right tool first', async () => {
    await ready();
    const path = join(dir, 'notes.txt');
    for (const name of [
      'mcp__filesystem__read_text_flie',
      'filesystem__read_text_file',
      'filesystem.read_text_file',
      'filesystem/read-text-file',
    ]) {
      const viaCallTool = await client.call('call_tool', { name, arguments: { path } });
      const direct = await client.call(name, { path });
      for (const answer of [viaCallTool, direct]) {
        expect(answer.isError).toBe(true);
        expect(answer.text).toMatch(
          new RegExp(
            `^Tool "${name.replace(/[.]/g, '\\.')}" is not available here, so nothing was run\\. Did you mean mcp__filesystem__read_text_file\\(path: string, tail\\?: number, head\\?: number\\) — `,
          ),
        );
      }
    }
    // Followed, the suggestion runs.
    const read = await client.call('call_tool', { name: 'mcp__filesystem__read_text_file', arguments: { path } });
    expect(read.text).toContain('Meeting at noon.');
  }, 60_000);

  it('C15/G5: a broken schema still gets a signature and a call (not checked, and said so); a hostile one stays bounded', async () => {
    const listing = await ready();
    expect(listing).toContain('- mcp__fx__broken_schema(level: unknown) — ');
    const hostile = listing.split('\n').find((l) => l.startsWith('- mcp__fx__hostile_schema('))!;
    expect(hostile.length).toBeLessThan(700);
    expect(hostile).toContain('deep?: {inner: {…}}');
    expect(hostile).toContain(', …)');
    const broken = await client.call('call_tool', { name: 'mcp__fx__broken_schema', arguments: { level: 3 } });
    expect(broken.isError).not.toBe(true);
    expect(broken.content[0]).toEqual({ type: 'text', text: 'ran broken_schema' });
    expect(broken.text).toMatch(
      /\(toolsearch: the arguments of mcp__fx__broken_schema were not checked before the call: its input schema does not compile \(.+\)\.\)$/,
    );
    const wide = await client.call('mcp__fx__hostile_schema', {});
    expect(wide.content[0]).toEqual({ type: 'text', text: 'ran hostile_schema' });
    expect(wide.text).toMatch(
      /were not checked before the call: its input schema (nests deeper than 40 levels|has more than 5000 parts)\.\)$/,
    );
  }, 60_000);
});

describe('C15 one-shot clients over HTTP (a new session per call)', () => {
  let served: Served;
  beforeAll(async () => {
    const { config } = writeConfig();
    served = await serveHttp({ config });
  }, 60_000);
  afterAll(async () => {
    await served?.http?.close();
    await served?.stack.close();
  });

  const once = async (name: string, args: Record<string, unknown>) => {
    const client = await httpClient(served.http!.url);
    try {
      return await client.call(name, args);
    } finally {
      await client.close();
    }
  };

  it('C15/F3: each call in a fresh session: an exact name with valid arguments runs; wrong ones get the signature', async () => {
    await waitFor(() => served.stack.hub.catalog.has('mcp__everything__get-sum'), 'everything connected', 45_000);
    const sum = await once('mcp__everything__get-sum', { a: 40, b: 2 });
    expect(sum.isError).not.toBe(true);
    expect(sum.text).toMatch(/\b42\b/);
    const viaCallTool = await once('call_tool', { name: 'mcp__everything__get-sum', arguments: { a: 1, b: 1 } });
    expect(viaCallTool.text).toMatch(/\b2\b/);
    const wrong = await once('mcp__everything__get-sum', { a: 'one', b: 2 });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toBe(
      'Arguments for mcp__everything__get-sum do not match its input schema, so nothing was sent: a must be number (got string). Expected: mcp__everything__get-sum(a: number, b: number).',
    );
    const near = await once('everything.get_sum', { a: 1, b: 2 });
    expect(near.text).toMatch(
      /^Tool "everything\.get_sum" is not available here, so nothing was run\. Did you mean mcp__everything__get-sum\(a: number, b: number\)/,
    );
  }, 60_000);
});

describe('G5 the argument check is bounded: argumentSchemaParts', () => {
  it('G5/C15: a schema past the limit is not compiled; the call goes through and its result says why, naming the limit', async () => {
    const { config } = writeConfig();
    const served = await serveHttp({ config, limit: { argumentSchemaParts: 3 } });
    try {
      await waitFor(() => served.stack.hub.catalog.has('mcp__everything__get-sum'), 'everything connected', 45_000);
      const client = await httpClient(served.http!.url);
      // get-sum's schema has five parts (itself, its properties, a, b, its required list).
      const sum = await client.call('mcp__everything__get-sum', { a: 2, b: 2 });
      await client.close();
      expect(sum.isError).not.toBe(true);
      expect(sum.text).toMatch(/\b4\b/);
      expect(sum.text).toMatch(
        /\(toolsearch: the arguments of mcp__everything__get-sum were not checked before the call: its input schema has more than 3 parts \(limit argumentSchemaParts\)\.\)$/,
      );
    } finally {
      await served.http?.close();
      await served.stack.close();
    }
  }, 60_000);
});
