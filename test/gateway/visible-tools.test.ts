import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { VisibleTools } from '../../src/gateway/tools/visible.js';

function catalog(): Catalog {
  const c = new Catalog([{ name: 'clock', description: 'Current time.', handler: () => 'noon' }]);
  c.setServerTools('a', [
    { name: 'one', description: '1', inputSchema: { type: 'object' } },
    { name: 'two', description: '2', inputSchema: { type: 'object' } },
  ]);
  c.setServerTools('b', [{ name: 'three', description: '3', inputSchema: { type: 'object' } }]);
  return c;
}

const names = (tools: { name: string }[]) => tools.map((t) => t.name);

describe('D3 tools/list from a per-version snapshot', () => {
  it('D3/E5: always-loaded tools plus the discovered ones, in load order, each once', () => {
    const c = catalog();
    const visible = new VisibleTools(c);
    const deferred = new Set(['mcp__a__one', 'mcp__a__two', 'mcp__b__three']);
    expect(names(visible.list(deferred, []))).toEqual(['clock']);
    expect(names(visible.list(deferred, ['mcp__b__three', 'mcp__a__one', 'mcp__a__one']))).toEqual([
      'clock',
      'mcp__b__three',
      'mcp__a__one',
    ]);
  });

  it('D3: a discovered tool that left the catalog drops out; a new version is seen', () => {
    const c = catalog();
    const visible = new VisibleTools(c);
    const deferred = new Set(['mcp__a__one', 'mcp__a__two', 'mcp__b__three']);
    expect(names(visible.list(deferred, ['mcp__b__three']))).toEqual(['clock', 'mcp__b__three']);
    c.setServerTools('b', []);
    const after = new Set(['mcp__a__one', 'mcp__a__two']);
    expect(names(visible.list(after, ['mcp__b__three']))).toEqual(['clock']);
  });
});
