import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Catalog } from '../../src/core/catalog.js';
import { DuplicateToolError, InvalidToolError, UnknownToolError } from '../../src/core/errors.js';
import { isProviderSafeName } from '../../src/core/names.js';
import { defineTool } from '../../src/core/tool.js';

describe('A1 tool spec', () => {
  it('A1: a Zod input schema is converted to a JSON object schema without $schema', () => {
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather for a city',
      inputSchema: z.object({ city: z.string(), units: z.enum(['c', 'f']).default('c') }),
    });
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.inputSchema.$schema).toBeUndefined();
    expect(tool.inputSchema.required).toEqual(['city']);
    expect(tool.origin).toEqual({ kind: 'local' });
  });
  it('A1: an object schema already in shape is kept as given (50,000 tools, no 50,000 copies); one with $schema is copied without it', () => {
    const schema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };
    expect(defineTool({ name: 'a', description: '', inputSchema: schema }).inputSchema).toBe(schema);
    const withDialect = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema };
    const spec = defineTool({ name: 'b', description: '', inputSchema: withDialect });
    expect(spec.inputSchema).not.toBe(withDialect);
    expect(spec.inputSchema).toEqual(schema);
  });

  it('A1: $schema is stripped from JSON Schema input and a missing schema becomes an empty object schema', () => {
    const a = defineTool({
      name: 'a',
      inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} },
    });
    expect(a.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(defineTool({ name: 'b' }).inputSchema).toEqual({ type: 'object', properties: {} });
  });
  it('A1: malformed schemas get a clear InvalidToolError', () => {
    expect(() => defineTool({ name: 'x', inputSchema: { type: 'string' } })).toThrow(InvalidToolError);
    expect(() => defineTool({ name: 'x', inputSchema: [] as never })).toThrow(/JSON object schema/);
    expect(() => defineTool({ name: '' })).toThrow(InvalidToolError);
  });
  it('A1: MCP _meta["anthropic/alwaysLoad"] sets alwaysLoad', () => {
    const t = defineTool({ name: 'q', meta: { 'anthropic/alwaysLoad': true } });
    expect(t.alwaysLoad).toBe(true);
  });
});

describe('A3 names in the catalog', () => {
  it('A3: MCP tools are qualified and provider-safe; the original name is kept for routing', () => {
    const catalog = new Catalog();
    catalog.setServerTools('@owner/repo', [{ name: 'do.thing', description: 'x' }]);
    const [tool] = catalog.tools;
    expect(tool && isProviderSafeName(tool.name)).toBe(true);
    expect(tool?.originalName).toBe('do.thing');
    expect(tool?.origin).toEqual({ kind: 'mcp', server: '@owner/repo' });
    catalog.setServerTools('github', [{ name: 'create_issue' }]);
    expect(catalog.has('mcp__github__create_issue')).toBe(true);
  });
  it('A3: two tools with one name is an error naming both origins, and nothing is overwritten', () => {
    const catalog = new Catalog([{ name: 'search', description: 'local search' }]);
    expect(() => catalog.add([{ name: 'search', description: 'again' }])).toThrow(DuplicateToolError);
    expect(catalog.get('search')?.description).toBe('local search');
    catalog.setServerTools('a', [{ name: 't' }]);
    expect(() => catalog.setServerTools('a', [{ name: 'u' }, { name: 'u' }])).toThrow(/MCP server "a".*MCP server "a"/);
    expect(catalog.has('mcp__a__t')).toBe(true);
  });
  it('A3: unknown tool references get a clear error', () => {
    expect(() => new Catalog().require('nope')).toThrow(UnknownToolError);
  });
  it('A3: re-adding admitted specs does not qualify names twice', () => {
    const a = new Catalog();
    a.setServerTools('s', [{ name: 't' }]);
    const b = new Catalog(a.tools);
    expect(b.tools.map((t) => t.name)).toEqual(['mcp__s__t']);
  });
});

describe('A4 dynamic pool', () => {
  it('A4: servers connect late, leave and return; deltas report added and removed tools', () => {
    const catalog = new Catalog();
    const deltas: unknown[] = [];
    catalog.onChange((d) => deltas.push(d));
    catalog.markPending('github');
    expect(catalog.pendingServers).toEqual(['github']);
    const d1 = catalog.setServerTools('github', [{ name: 'a' }, { name: 'b' }]);
    expect(d1).toEqual({ added: ['mcp__github__a', 'mcp__github__b'], removed: [] });
    expect(catalog.pendingServers).toEqual([]);
    const d2 = catalog.setServerTools('github', [{ name: 'b' }, { name: 'c' }]);
    expect(d2).toEqual({ added: ['mcp__github__c'], removed: ['mcp__github__a'] });
    const d3 = catalog.removeServer('github', { pending: true });
    expect(d3.removed.sort()).toEqual(['mcp__github__b', 'mcp__github__c']);
    expect(catalog.pendingServers).toEqual(['github']);
    expect(deltas.length).toBeGreaterThanOrEqual(4);
  });
  it('A4: the version changes with the pool (a cache key)', () => {
    const catalog = new Catalog();
    const v = catalog.version;
    catalog.setServerTools('s', [{ name: 'x' }]);
    expect(catalog.version).toBeGreaterThan(v);
  });
  it('A4/G2: a re-listed tool with a new definition under the same name is a change (version, delta)', () => {
    const catalog = new Catalog();
    catalog.setServerTools('s', [
      { name: 'x', description: 'old' },
      { name: 'y', description: 'same' },
    ]);
    const v = catalog.version;
    const same = catalog.setServerTools('s', [
      { name: 'x', description: 'old' },
      { name: 'y', description: 'same' },
    ]);
    expect(same).toEqual({ added: [], removed: [] });
    expect(catalog.version).toBe(v);
    const edited = catalog.setServerTools('s', [
      { name: 'x', description: 'new' },
      { name: 'y', description: 'same' },
    ]);
    expect(edited).toEqual({ added: [], removed: [], changed: ['mcp__s__x'] });
    expect(catalog.version).toBeGreaterThan(v);
    expect(catalog.get('mcp__s__x')?.description).toBe('new');
  });
});

describe('A3 admission is idempotent', () => {
  it('A3: a renamed MCP tool (duplicate given a suffix) is not qualified twice by add()', () => {
    const catalog = new Catalog();
    catalog.add([{ name: 'mcp__s__send_2', originalName: 'send', origin: { kind: 'mcp', server: 's' } }]);
    expect(catalog.tools.map((t) => t.name)).toEqual(['mcp__s__send_2']);
    expect(catalog.get('mcp__s__send_2')?.originalName).toBe('send');
  });
});
