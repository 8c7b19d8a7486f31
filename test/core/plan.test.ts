import { describe, expect, it } from 'vitest';
import { readAnthropicHistory } from '../../src/core/anthropic-history.js';
import { Catalog } from '../../src/core/catalog.js';
import { ModelSupport } from '../../src/core/model-support.js';
import { plan } from '../../src/core/plan.js';

function pool() {
  const catalog = new Catalog([{ name: 'read_file', description: 'Read a file' }]);
  catalog.setServerTools('github', [
    { name: 'create_issue', description: 'Create an issue' },
    { name: 'list_issues', description: 'List issues' },
  ]);
  return catalog;
}

describe('plan()', () => {
  it('D3/E1: first request: loaded tools + search tool visible, MCP tools hidden and announced', () => {
    const p = plan({ tools: pool().tools });
    expect(p.useToolSearch).toBe(true);
    expect(p.visibleTools.map((t) => t.name)).toEqual(['read_file', 'tool_search']);
    expect(p.hiddenTools.map((t) => t.name)).toEqual(['mcp__github__create_issue', 'mcp__github__list_issues']);
    expect(p.announcement?.text).toContain('mcp__github__: create_issue, list_issues');
    expect(p.gates.definitive.enabled).toBe(true);
  });
  it('C4/D1: a discovered tool is visible on the next request', () => {
    const history = readAnthropicHistory([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: '1',
            content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }],
          },
        ],
      },
    ]);
    const p = plan({ tools: pool().tools, history });
    expect(p.visibleTools.map((t) => t.name)).toEqual(['read_file', 'tool_search', 'mcp__github__create_issue']);
    expect(p.discovered).toEqual(['mcp__github__create_issue']);
  });
  it('B7: mode never loads everything and sends no search tool', () => {
    const p = plan({ tools: pool().tools, option: 'never' });
    expect(p.useToolSearch).toBe(false);
    expect(p.visibleTools).toHaveLength(3);
    expect(p.searchTool).toBeUndefined();
    expect(p.gates.optimistic.reason).toBe('mode is never');
  });
  it('B3: auto mode below the threshold loads everything; a tiny context window defers', () => {
    expect(plan({ tools: pool().tools, option: 'auto' }).useToolSearch).toBe(false);
    const small = plan({ tools: pool().tools, option: 'auto:50', contextWindow: 100 });
    expect(small.useToolSearch).toBe(true);
    expect(small.threshold?.limit).toBe(50);
  });
  it('B4: unsupported model on the native path loads everything, or expands client-side when chosen', () => {
    const support = new ModelSupport();
    const native = plan({ tools: pool().tools, model: 'claude-haiku-4', expansion: 'native', modelSupport: support });
    expect(native.useToolSearch).toBe(false);
    const client = plan({
      tools: pool().tools,
      model: 'claude-haiku-4',
      expansion: 'native',
      unsupportedModelFallback: 'client',
      modelSupport: support,
    });
    expect(client).toMatchObject({ useToolSearch: true, expansion: 'client' });
  });
  it('B5: a proxy base URL on the native path loads everything unless the mode is explicit', () => {
    expect(plan({ tools: pool().tools, expansion: 'native', baseUrl: 'http://proxy:4000' }).useToolSearch).toBe(false);
    expect(
      plan({ tools: pool().tools, expansion: 'native', baseUrl: 'http://proxy:4000', option: 'always' }).useToolSearch,
    ).toBe(true);
  });
  it('B6: pending servers keep the search tool when nothing is deferred yet', () => {
    const catalog = new Catalog([{ name: 'read_file' }]);
    catalog.markPending('github');
    expect(plan({ tools: catalog.tools, pendingServers: catalog.pendingServers }).useToolSearch).toBe(true);
    expect(plan({ tools: catalog.tools }).useToolSearch).toBe(false);
  });
  it('E2: delta announcing says nothing when the history already announced the pool', () => {
    const first = plan({ tools: pool().tools, announce: 'delta' });
    const history = readAnthropicHistory([{ role: 'user', content: first.announcement!.text }]);
    expect(plan({ tools: pool().tools, announce: 'delta', history }).announcement).toBeUndefined();
  });
});
