import { describe, expect, it } from 'vitest';
import { fullAnnouncement } from '../../src/core/announce.js';
import { formatSearchResult, ToolSearcher } from '../../src/search/searcher.js';
import { mcp, poolOf } from './helpers.js';

/** 60 servers, server i with 61 - i tools: too many to name within a small announcement budget. */
const tools = Array.from({ length: 60 }, (_, i) =>
  Array.from({ length: 61 - i }, (_, t) => mcp(`vendor${i}-tools`, `action_${t}`, `Does action ${t} of vendor ${i}.`)),
).flat();

describe('E4: every server stays findable when the announcement leaves it out', () => {
  const announcement = fullAnnouncement(tools, { tokenBudget: 200 });
  const unnamed = Array.from({ length: 60 }, (_, i) => `vendor${i}-tools`).filter(
    (s) => !announcement.added.includes(`mcp__${s}`),
  );

  it('E4: the budget left servers out (the case under test)', () => {
    expect(announcement.text).toContain('more servers');
    expect(unnamed.length).toBeGreaterThan(30);
  });

  it("E4: a search for an unannounced server's name lists its tools", () => {
    const server = unnamed.at(-1)!;
    const r = new ToolSearcher().search(poolOf(tools), server);
    expect(r.kind).toBe('prefix');
    expect(r.matches.length).toBeGreaterThan(0);
    expect(r.matches.every((name) => name.startsWith(`mcp__${server}__`))).toBe(true);
    // Case does not matter.
    expect(new ToolSearcher().search(poolOf(tools), server.toUpperCase()).matches).toEqual(r.matches);
  });

  it('E4: mcp__ + a prefix lists every server that starts with it', () => {
    const r = new ToolSearcher().search(poolOf(tools), 'mcp__vendor5');
    expect(r.kind).toBe('prefix');
    const servers = r.suggestedServers?.map((s) => s.server) ?? [];
    // vendor5-tools and vendor50…59-tools
    expect(servers).toContain('vendor5-tools');
    expect(servers).toContain('vendor59-tools');
    expect(servers).toHaveLength(11);
    const text = formatSearchResult(r);
    expect(text).toContain('Servers whose names start with mcp__vendor5:');
    expect(text).toContain('- mcp__vendor59-tools — 2 tools: action_0, action_1');
  });

  it('E4: a complete server prefix lists that server alone, as before (C3)', () => {
    const r = new ToolSearcher().search(poolOf(tools), 'mcp__vendor59-tools');
    expect(r.matches).toEqual(['mcp__vendor59-tools__action_0', 'mcp__vendor59-tools__action_1']);
    expect(r.suggestedServers).toBeUndefined();
  });
});
