import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { deferredDelta, fullAnnouncement } from '../../src/core/announce.js';
import {
  boundedJsonTextTokens,
  boundedTextTokens,
  DEFAULT_DEFERRED_TOKEN_BUDGET,
  rankGroups,
} from '../../src/core/announce-budget.js';
import { eventsFromText } from '../../src/core/history.js';
import { plan } from '../../src/core/plan.js';
import { toolDefinitionJson, defineTool, type ToolSpec } from '../../src/core/tool.js';

const tool = (server: string, name: string): ToolSpec =>
  defineTool({ name: `mcp__${server}__${name}`, origin: { kind: 'mcp', server } });

/** `servers` servers; server i holds `size(i)` tools. */
function catalog(servers: number, size: (i: number) => number): ToolSpec[] {
  return Array.from({ length: servers }, (_, i) =>
    Array.from({ length: size(i) }, (_, t) => tool(`server-${String(i).padStart(3, '0')}`, `do_thing_${t}`)),
  ).flat();
}

const unitsOf = (text: string) => {
  const [event] = eventsFromText(text);
  return event?.type === 'announcement' ? event.units : [];
};

describe('E4 the announcement degrades within its budget', () => {
  // 30 servers, server i with 30 - i tools: sizes differ, so the ranking is visible.
  const tools = catalog(30, (i) => 30 - i);

  it('E4: names while they fit → every server with counts → the biggest servers plus one line for the rest', () => {
    const list = fullAnnouncement(tools, { tokenBudget: 100_000 });
    expect(list.form).toBe('list');
    expect(list.added).toHaveLength(tools.length);

    const grouped = fullAnnouncement(tools, { tokenBudget: 600 });
    expect(grouped.form).toBe('grouped');
    expect(grouped.added).toHaveLength(30);
    expect(grouped.text).not.toContain('more servers');

    const top = fullAnnouncement(tools, { tokenBudget: 150 });
    expect(top.form).toBe('grouped');
    expect(top.added.length).toBeGreaterThan(0);
    expect(top.added.length).toBeLessThan(30);
    // The biggest servers, in rank order, and one line standing for the others.
    expect(top.added).toEqual(
      Array.from({ length: top.added.length }, (_, i) => `mcp__server-${String(i).padStart(3, '0')}`),
    );
    expect(top.text).toContain(
      `… and ${30 - top.added.length} more servers: search by what the tool does, or list a server with "mcp__<server>".`,
    );
    expect(boundedTextTokens(top.text)).toBeLessThanOrEqual(150);
    // The block reads back as the named servers only.
    expect(unitsOf(top.text)).toEqual(top.added);
  });

  it('E4: the cost stops growing with the catalog: 1,000 servers and 10,000 tools fit the same budget', () => {
    const small = fullAnnouncement(
      catalog(100, () => 10),
      { tokenBudget: 1_000 },
    );
    const big = fullAnnouncement(
      catalog(1_000, () => 10),
      { tokenBudget: 1_000 },
    );
    expect(boundedTextTokens(small.text)).toBeLessThanOrEqual(1_000);
    expect(boundedTextTokens(big.text)).toBeLessThanOrEqual(1_000);
    expect(big.text).toContain('… and ');
  });

  it('E4: recently used servers are named first; a priority hook (learned evidence) orders the rest', () => {
    const groups = [
      { key: 'mcp__big', tools: 50 },
      { key: 'mcp__mid', tools: 20 },
      { key: 'mcp__small', tools: 2 },
    ];
    expect(rankGroups(groups).map((g) => g.key)).toEqual(['mcp__big', 'mcp__mid', 'mcp__small']);
    expect(rankGroups(groups, { recentServers: ['small'] }).map((g) => g.key)).toEqual([
      'mcp__small',
      'mcp__big',
      'mcp__mid',
    ]);
    const learned = (g: { key: string }) => (g.key === 'mcp__mid' ? 1 : 0);
    expect(rankGroups(groups, { priority: learned })[0]!.key).toBe('mcp__mid');
    const top = fullAnnouncement(tools, { tokenBudget: 150, recentServers: ['server-029'] });
    expect(top.added[0]).toBe('mcp__server-029');
  });

  it('E4/E2: deltas stay within the budget; an unchanged catalog says nothing', () => {
    const options = { tokenBudget: 150 };
    const history = eventsFromText(fullAnnouncement(tools, options).text);
    expect(deferredDelta(tools, tools, history, options)).toBeNull();
    // A small server joining does not make the cut: still nothing to say (it is found by name).
    const withSmall = [...tools, tool('tiny', 'x')];
    expect(deferredDelta(withSmall, withSmall, history, options)).toBeNull();
    // A big one does, and is announced as added.
    const withBig = [...tools, ...Array.from({ length: 100 }, (_, i) => tool('huge', `op_${i}`))];
    const delta = deferredDelta(withBig, withBig, history, options);
    expect(delta?.kind).toBe('delta');
    expect(delta?.added).toContain('mcp__huge');
    expect(boundedTextTokens(delta!.text)).toBeLessThanOrEqual(150);
  });

  it('E4: plan() keeps search tool + announcement within the default budget at 10,000 tools', () => {
    const p = plan({ tools: catalog(700, (i) => 5 + (i % 20)), option: 'always' });
    expect(p.announcement?.form).toBe('grouped');
    // The library sends the announcement as its own text (a system block), beside the search tool.
    const searchTool = toolDefinitionJson(p.searchTool!);
    const announcement = p.announcement!.text;
    expect(boundedTextTokens(searchTool) + boundedTextTokens(announcement)).toBeLessThanOrEqual(
      DEFAULT_DEFERRED_TOKEN_BUDGET,
    );
    expect(encode(searchTool).length + encode(announcement).length).toBeLessThanOrEqual(DEFAULT_DEFERRED_TOKEN_BUDGET);
  });

  it('E4: the bounded estimate errs high against o200k on awkward names (scoped, CJK, digits)', () => {
    const odd = [
      ...Array.from({ length: 40 }, (_, i) => tool(`@owner-${i}/repo-name-mcp-server`, `get_${i}`)),
      ...Array.from({ length: 20 }, (_, i) => tool(`天气服务${i}`, `查询_${i}`)),
      ...Array.from({ length: 20 }, (_, i) => tool(`s${i * 12345}`, `v2_${i}_2024`)),
    ];
    for (const budget of [100_000, 0]) {
      const text = fullAnnouncement(odd, { tokenBudget: budget }).text;
      expect(boundedTextTokens(text)).toBeGreaterThanOrEqual(encode(text).length);
      expect(boundedJsonTextTokens(text)).toBeGreaterThanOrEqual(encode(JSON.stringify(text)).length);
    }
  });
});
