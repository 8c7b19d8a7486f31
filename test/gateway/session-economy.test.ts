/**
 * E5 in the gateway (in-memory transport, the real gateway and SDK client): compact answers, the
 * confidence gate, lists that only grow at their end, the bounded working set with its "no longer
 * available" delta, a search during start-up (issue 29 item 7), and what a plain `auto` decides.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { ToolsearchGateway, type UpstreamCaller } from '../../src/gateway/gateway.js';
import { sessionCostOf } from '../../src/gateway/tools/deferral.js';
import { o200kTokens } from '../../src/inspect/tokenizer.js';
import { connectClient } from '../fixtures/clients.js';

const upstream: UpstreamCaller = {
  callTool: async (_s, tool) => ({ content: [{ type: 'text', text: `ran ${tool}` }] }),
};

const schema = (props: Record<string, string>, required: string[] = []) => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: Object.fromEntries(Object.entries(props).map(([k, type]) => [k, { type }])),
  required,
});

function catalog(): Catalog {
  const c = new Catalog();
  c.setServerTools('files', [
    {
      name: 'read_text_file',
      description: 'Read the complete contents of a text file. Handles encodings.',
      inputSchema: schema({ path: 'string', tail: 'number' }, ['path']),
      mcpFields: { execution: { taskSupport: 'optional' }, outputSchema: { type: 'object' } },
    },
    {
      name: 'write_file',
      description: 'Write text to a file, replacing it.',
      inputSchema: schema({ path: 'string', content: 'string' }, ['path', 'content']),
    },
    {
      name: 'list_directory',
      description: 'List the files in a directory.',
      inputSchema: schema({ path: 'string' }, ['path']),
    },
    {
      name: 'move_file',
      description: 'Move or rename a file.',
      inputSchema: schema({ source: 'string', destination: 'string' }),
    },
  ]);
  c.setServerTools('notes', [
    {
      name: 'create_note',
      description: 'Create a note with a title and a body.',
      inputSchema: schema({ title: 'string' }),
    },
    {
      name: 'find_notes',
      description: 'Find notes that mention some words.',
      inputSchema: schema({ query: 'string' }),
    },
  ]);
  return c;
}

async function session(gateway: ToolsearchGateway, id = 's') {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, id);
  return connectClient(clientSide);
}

describe('E5 session economy in the gateway', () => {
  it('a search answers in compact lines: the confident hit loads, the rest are listed; no $schema, execution or output schema', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream, toolList: 'growing' });
    const client = await session(gateway);
    const answer = (await client.call('tool_search', { query: 'read text file contents' })).text;
    expect(answer).toMatch(
      /^Loaded 1 tool;[^\n]*\n- mcp__files__read_text_file\(path: string, tail\?: number\) — Read the complete contents of a text file\.$/m,
    );
    expect(answer).toMatch(/Also found, not loaded/);
    expect(answer).not.toMatch(/\$schema|execution|outputSchema/);
    expect(o200kTokens(answer)).toBeLessThan(300);
    expect(await client.toolNames()).toEqual(['tool_search', 'call_tool', 'mcp__files__read_text_file']);
    await client.close();
    await gateway.close();
  });

  it('a weak search loads nothing; a listed tool loads when called (through call_tool or by name)', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream, toolList: 'growing' });
    const client = await session(gateway);
    const before = client.listChanged();
    const weak = (await client.call('tool_search', { query: 'zebra giraffe directory' })).text;
    expect(weak).not.toMatch(/^Loaded/m);
    expect(weak).toContain('mcp__files__list_directory(path: string)');
    expect(await client.toolNames()).toEqual(['tool_search', 'call_tool']);
    const ran = await client.call('call_tool', { name: 'mcp__files__list_directory', arguments: { path: '.' } });
    expect(ran.text).toBe('ran list_directory');
    expect(await client.toolNames()).toEqual(['tool_search', 'call_tool', 'mcp__files__list_directory']);
    expect(client.listChanged()).toBeGreaterThan(before);
    // C15: never shown, but an exact name with arguments that fit runs (the list does not change).
    const changes = client.listChanged();
    expect((await client.call('mcp__notes__create_note', { title: 'x' })).text).toBe('ran create_note');
    expect(await client.toolNames()).toEqual(['tool_search', 'call_tool', 'mcp__files__list_directory']);
    expect(client.listChanged()).toBe(changes);
    await client.close();
    await gateway.close();
  });

  it('select: shows the definition in full (output schema included, no $schema) and loads it', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream, toolList: 'growing' });
    const client = await session(gateway);
    const answer = (await client.call('tool_search', { query: 'select:mcp__files__read_text_file' })).text;
    const json = JSON.parse(answer.split('\n').find((l) => l.startsWith('{'))!) as Record<string, unknown>;
    expect(json['name']).toBe('mcp__files__read_text_file');
    expect(json['outputSchema']).toEqual({ type: 'object' });
    expect(json['inputSchema']).not.toHaveProperty('$schema');
    expect(json).not.toHaveProperty('execution');
    await client.close();
    await gateway.close();
  });

  it('every tool list keeps the previous one as its prefix: loads are appended in load order', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream, toolList: 'growing' });
    const client = await session(gateway);
    let previous = (await client.client.listTools()).tools;
    const loadedInOrder: string[] = [];
    for (const query of [
      'write text to a file',
      'create a note title',
      'read text file contents',
      'move rename file',
    ]) {
      const answer = (await client.call('tool_search', { query })).text;
      // What this answer says it loaded (the lines under "Loaded …", up to "Also found").
      const loadedPart = answer.split('Also found')[0]!;
      // A tool the session already holds is named again, not added again.
      for (const [, name] of loadedPart.matchAll(/^- (mcp__\w+)\(/gm))
        if (!loadedInOrder.includes(name!)) loadedInOrder.push(name!);
      const next = (await client.client.listTools()).tools;
      expect(next.slice(0, previous.length)).toEqual(previous);
      previous = next;
    }
    // Each search's loads were appended at the end, in the order the answers gave them.
    expect(previous.map((t) => t.name).slice(2)).toEqual(loadedInOrder);
    expect(loadedInOrder).toEqual(expect.arrayContaining(['mcp__notes__create_note', 'mcp__files__move_file']));
    await client.close();
    await gateway.close();
  });

  it('past the working-set cap the least recently used tools are unloaded in one batch, with the "no longer available" delta', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream, toolList: 'growing', workingSet: 3 });
    const client = await session(gateway);
    await client.call('tool_search', { query: 'select:mcp__files__write_file,mcp__files__list_directory' });
    await client.call('tool_search', { query: 'select:mcp__notes__create_note' });
    await client.call('mcp__files__write_file', { path: 'a', content: 'b' }); // used recently: kept
    const answer = (await client.call('tool_search', { query: 'select:mcp__files__move_file' })).text;
    expect(answer).toMatch(/^No longer available: mcp__files__list_directory, mcp__notes__create_note \(unloaded/m);
    expect(await client.toolNames()).toEqual([
      'tool_search',
      'call_tool',
      'mcp__files__write_file',
      'mcp__files__move_file',
    ]);
    // One search away again.
    await client.call('tool_search', { query: 'select:mcp__notes__create_note' });
    expect((await client.call('mcp__notes__create_note', { title: 't' })).text).toBe('ran create_note');
    await client.close();
    await gateway.close();
  });

  it('issue 29 item 7: a search during start-up names the servers still starting and loads only its best confident hit', async () => {
    const c = catalog();
    c.markPending('mail');
    const gateway = new ToolsearchGateway({ catalog: c, upstream, pendingWaitMs: 0, toolList: 'growing' });
    const client = await session(gateway);
    const search = (await client.client.listTools()).tools[0]!;
    expect(search.description).toMatch(/Still connecting[^\n]*mail/);
    const weak = (await client.call('tool_search', { query: 'send an email to bob' })).text;
    expect(weak).toMatch(/MCP servers still connecting: mail\./);
    expect(weak).not.toMatch(/^Loaded/m);
    await client.call('tool_search', { query: 'file' });
    expect((await client.toolNames()).length).toBeLessThanOrEqual(3);
    await client.close();
    await gateway.close();
  });
});

describe('E5 a plain auto weighs a whole session', () => {
  const servers = (count: number) => {
    const c = new Catalog();
    for (let s = 0; s < count; s++)
      c.setServerTools(
        `server${s}`,
        Array.from({ length: 15 }, (_, i) => ({
          name: `operation_${i}`,
          description: `Operation ${i} of server ${s}: does a long and specific thing with many options. `.repeat(4),
          inputSchema: schema({ id: 'string', mode: 'string', limit: 'number', cursor: 'string' }, ['id']),
        })),
      );
    return c;
  };
  const big = () => servers(40);

  it('a small catalog stays eager (deferral would cost more over a cached session); a large one defers', async () => {
    const small = sessionCostOf(catalog().tools, { count: o200kTokens });
    expect(small.defer).toBe(false);
    expect(small.crossover).toBeGreaterThan(0);
    const large = sessionCostOf(big().tools, { count: o200kTokens });
    expect(large.defer).toBe(true);
    expect(large.ratio).toBeLessThan(1);

    const eager = new ToolsearchGateway({ catalog: catalog(), upstream, mode: 'auto' });
    expect(eager.deferred().size).toBe(0);
    const deferred = new ToolsearchGateway({ catalog: big(), upstream, mode: 'auto' });
    expect(deferred.deferred().size).toBe(600);
    // auto:N keeps the context-window threshold.
    expect(new ToolsearchGateway({ catalog: big(), upstream, mode: 'auto:90' }).deferred().size).toBe(0);
    await eager.close();
    await deferred.close();
  });

  it('auto estimates with the list the gateway runs: by default fixed, which defers a mid-size catalog a growing list would keep eager', async () => {
    const mid = () => servers(8);
    expect(sessionCostOf(mid().tools, { count: o200kTokens, toolList: 'fixed' }).defer).toBe(true);
    expect(sessionCostOf(mid().tools, { count: o200kTokens, toolList: 'growing' }).defer).toBe(false);
    const byDefault = new ToolsearchGateway({ catalog: mid(), upstream, mode: 'auto' });
    expect(byDefault.toolList).toBe('fixed');
    expect(byDefault.deferred().size).toBe(120);
    const growing = new ToolsearchGateway({ catalog: mid(), upstream, mode: 'auto', toolList: 'growing' });
    expect(growing.deferred().size).toBe(0);
    await byDefault.close();
    await growing.close();
  });

  it('without a prompt cache the crossover moves: deferral pays sooner', () => {
    const cached = sessionCostOf(catalog().tools, { count: o200kTokens, assumptions: { promptCache: true } });
    const uncached = sessionCostOf(catalog().tools, { count: o200kTokens, assumptions: { promptCache: false } });
    expect(uncached.ratio).toBeLessThan(cached.ratio);
  });
});
