import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DISCOVERY_TOOL_NAME as TANSTACK_DISCOVERY_TOOL_NAME,
  renderLazyCatalogEntry,
  type Tool as TanStackTool,
} from '@tanstack/ai';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import {
  DISCOVERY_TOOL_NAME,
  LazyToolDiscovery,
  lazyToolsFromPool,
  undiscoveredLazyToolError,
  type DiscoveryMessage,
  type LazyTool,
} from '../../src/providers/tanstack/index.js';
import { isInfrastructureCall } from '../../src/providers/shared/calls.js';

/** TanStack's own manager, loaded by file (it is not a public export) to compare wire output. */
interface TanStackManager {
  getActiveTools(): { name: string; description: string }[];
  getUndiscoveredToolError(name: string): string;
  isUndiscoveredLazyTool(name: string): boolean;
}
async function tanstackManager(tools: LazyTool[], messages: unknown[], include?: string): Promise<TanStackManager> {
  const file = join(process.cwd(), 'node_modules/@tanstack/ai/dist/esm/activities/chat/tools/lazy-tool-manager.js');
  const mod = (await import(pathToFileURL(file).href)) as {
    LazyToolManager: new (t: unknown, m: unknown, c?: unknown) => TanStackManager;
  };
  return new mod.LazyToolManager(tools, messages, include ? { includeDescription: include } : {});
}

const tools: LazyTool[] = [
  {
    name: 'getProducts',
    description: 'Get all products.',
    inputSchema: { type: 'object', properties: {} },
    execute: () => ['p1'],
  },
  {
    name: 'compareProducts',
    description: 'Compare products side by side. Needs two ids.',
    inputSchema: { type: 'object', properties: { ids: { type: 'array' } } },
    lazy: true,
    execute: () => 'compared',
  },
  {
    name: 'calculateFinancing',
    description: 'Monthly payment plans',
    inputSchema: { type: 'object', properties: {} },
    lazy: true,
    execute: () => 'financed',
  },
];

function discoveryHistory(names: string[]): DiscoveryMessage[] {
  return [
    { role: 'user', content: 'compare' },
    { role: 'assistant', content: null, toolCalls: [{ id: 'd1', function: { name: DISCOVERY_TOOL_NAME } }] },
    {
      role: 'tool',
      toolCallId: 'd1',
      content: JSON.stringify({ tools: names.map((name) => ({ name, description: '' })) }),
    },
  ];
}

describe('F6 TanStack-compatible lazy discovery', () => {
  it('F6: the discovery tool name equals @tanstack/ai DISCOVERY_TOOL_NAME', () => {
    expect(DISCOVERY_TOOL_NAME).toBe(TANSTACK_DISCOVERY_TOOL_NAME);
  });

  it('F6: description, active set and self-correction text match TanStack word for word', async () => {
    for (const include of ['none', 'first-sentence', 'full'] as const) {
      const ours = new LazyToolDiscovery(tools, [], { includeDescription: include });
      const theirs = await tanstackManager(tools, [], include);
      const a = ours.activeTools();
      const b = theirs.getActiveTools();
      expect(a.map((t) => t.name)).toEqual(b.map((t) => t.name));
      expect(a.at(-1)!.description).toBe(b.at(-1)!.description);
      expect(a.at(-1)!.description).toContain(
        renderLazyCatalogEntry('compareProducts', tools[1]!.description, include),
      );
    }
    const theirs = await tanstackManager(tools, []);
    expect(undiscoveredLazyToolError('compareProducts')).toBe(theirs.getUndiscoveredToolError('compareProducts'));
  });

  it('F6: discovery returns descriptions and schemas, errors for unknown names; re-derived from history', async () => {
    const d = new LazyToolDiscovery(tools);
    const result = await d.execute(DISCOVERY_TOOL_NAME, { toolNames: ['compareProducts', 'nope'] });
    expect(result).toEqual({
      tools: [{ name: 'compareProducts', description: tools[1]!.description, inputSchema: tools[1]!.inputSchema }],
      errors: ["Unknown tool: 'nope'. Available tools: [calculateFinancing]"],
    });
    expect(d.hasNewDiscoveries).toBe(true);

    // Next request: a fresh instance finds the discovery in the history, like TanStack does.
    const history = discoveryHistory(['compareProducts']);
    const next = new LazyToolDiscovery(tools, history);
    const theirs = await tanstackManager(tools, history);
    // The same set as TanStack's; in an order that keeps the previous list as its prefix (E5).
    expect(new Set(next.activeTools().map((t) => t.name))).toEqual(new Set(theirs.getActiveTools().map((t) => t.name)));
    expect(next.activeTools().map((t) => t.name)).toEqual(['getProducts', DISCOVERY_TOOL_NAME, 'compareProducts']);
    // OpenAI-shaped history works too (tool_calls / tool_call_id).
    const openaiShaped = new LazyToolDiscovery(tools, [
      { role: 'assistant', tool_calls: [{ id: 'x', function: { name: DISCOVERY_TOOL_NAME } }] },
      { role: 'tool', tool_call_id: 'x', content: '{"tools":[{"name":"calculateFinancing"}]}' },
    ]);
    expect(openaiShaped.isUndiscovered('calculateFinancing')).toBe(false);
  });

  it('F6: calling an undiscovered lazy tool throws the self-correction error', async () => {
    const d = new LazyToolDiscovery(tools);
    await expect(d.execute('calculateFinancing', {})).rejects.toThrow(undiscoveredLazyToolError('calculateFinancing'));
    expect(await d.execute('getProducts', {})).toEqual(['p1']);
  });

  it('F6: all discovered → discovery tool dropped from the advertised set but still executable', async () => {
    const d = new LazyToolDiscovery(tools, discoveryHistory(['compareProducts', 'calculateFinancing']));
    const active = d.activeTools();
    expect(active.map((t) => t.name)).toEqual(['getProducts', 'compareProducts', 'calculateFinancing']);
    expect(d.executableTools(active, [DISCOVERY_TOOL_NAME]).map((t) => t.name)).toContain(DISCOVERY_TOOL_NAME);
    expect(await d.execute(DISCOVERY_TOOL_NAME, { toolNames: ['compareProducts'] })).toMatchObject({
      tools: [{ name: 'compareProducts' }],
    });
  });

  it('E5: growing, each discovery appends: every advertised list keeps the previous one as its prefix', () => {
    const before = new LazyToolDiscovery(tools).activeTools().map((t) => t.name);
    const after = new LazyToolDiscovery(tools, discoveryHistory(['compareProducts'])).activeTools().map((t) => t.name);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toEqual(['getProducts', DISCOVERY_TOOL_NAME, 'compareProducts']);
  });

  it('E5: fixed list: the advertised tools never change; call_tool runs discovered tools, not undiscovered ones', async () => {
    const names = (d: LazyToolDiscovery) => d.activeTools().map((t) => t.name);
    const start = new LazyToolDiscovery(tools, [], { toolList: 'fixed' });
    expect(names(start)).toEqual(['getProducts', DISCOVERY_TOOL_NAME, 'call_tool']);
    await expect(start.execute('call_tool', { name: 'calculateFinancing', arguments: {} })).rejects.toThrow(
      undiscoveredLazyToolError('calculateFinancing'),
    );
    expect(await start.execute(DISCOVERY_TOOL_NAME, { toolNames: ['calculateFinancing'] })).toMatchObject({
      tools: [{ name: 'calculateFinancing', inputSchema: tools[2]!.inputSchema }],
    });
    expect(start.hasNewDiscoveries).toBe(false);
    expect(names(start)).toEqual(['getProducts', DISCOVERY_TOOL_NAME, 'call_tool']);
    expect(await start.execute('call_tool', { name: 'calculateFinancing', arguments: {} })).toBe('financed');
    // Next request, everything discovered: the list is still the one it started with.
    const all = new LazyToolDiscovery(tools, discoveryHistory(['compareProducts', 'calculateFinancing']), {
      toolList: 'fixed',
    });
    expect(names(all)).toEqual(['getProducts', DISCOVERY_TOOL_NAME, 'call_tool']);
    expect(await all.execute('call_tool', { name: 'compareProducts', arguments: { ids: [] } })).toBe('compared');
    await expect(all.execute('call_tool', {})).rejects.toThrow(/needs the name of a discovered tool/);
  });

  it('F6: zero overhead without lazy tools', () => {
    const d = new LazyToolDiscovery(tools.filter((t) => !t.lazy));
    expect(d.discoveryTool).toBeNull();
    expect(d.activeTools().map((t) => t.name)).toEqual(['getProducts']);
  });

  it('F6/F8: a pool becomes TanStack tools with deferred tools lazy; discovery calls are infrastructure', async () => {
    const catalog = new Catalog([{ name: 'get_time', description: 'Current time', handler: () => '12:00' }]);
    catalog.setServerTools('github', [{ name: 'create_issue', description: 'Create an issue' }]);
    const pool = lazyToolsFromPool(catalog, { executor: ({ name }) => `ran ${name}` });
    const asTanStack: TanStackTool[] = pool; // structurally a TanStack Tool
    expect(asTanStack.map((t) => [t.name, t.lazy])).toEqual([
      ['get_time', false],
      ['mcp__github__create_issue', true],
    ]);
    expect(await pool[1]!.execute({})).toBe('ran mcp__github__create_issue');
    expect(isInfrastructureCall(DISCOVERY_TOOL_NAME)).toBe(true);
    expect(isInfrastructureCall('get_time')).toBe(false);
  });
});
