import { describe, expect, it } from 'vitest';
import { deferredDelta, fullAnnouncement } from '../../src/core/announce.js';
import { eventsFromText, type HistoryEvent } from '../../src/core/history.js';
import { defineTool, type ToolSpec } from '../../src/core/tool.js';

const tool = (server: string, name: string): ToolSpec =>
  defineTool({ name: `mcp__${server}__${name}`, origin: { kind: 'mcp', server } });

describe('E1 list announcement', () => {
  it('E1: an <available-deferred-tools> block of names that reads back as the same units', () => {
    const a = fullAnnouncement([tool('github', 'create_issue'), tool('slack', 'send')]);
    expect(a.form).toBe('list');
    expect(a.text).toContain(
      '<available-deferred-tools>\nmcp__github__create_issue\nmcp__slack__send\n</available-deferred-tools>',
    );
    expect(eventsFromText(a.text)).toEqual([
      { type: 'announcement', form: 'list', units: ['mcp__github__create_issue', 'mcp__slack__send'] },
    ]);
  });
});

describe('E2 deltas', () => {
  const a = tool('s', 'a');
  const b = tool('s', 'b');
  const c = tool('t', 'c');
  const said = (text: string): HistoryEvent[] => eventsFromText(text);

  it('E2: first turn announces the full state; nothing changed → null', () => {
    const first = deferredDelta([a, b], [a, b], []);
    expect(first?.kind).toBe('full');
    expect(deferredDelta([a, b], [a, b], said(first!.text))).toBeNull();
  });
  it('E2: added and removed are computed against earlier announcements in the history', () => {
    const history = said(fullAnnouncement([a, b]).text);
    const delta = deferredDelta([a, c], [a, c], history);
    expect(delta).toMatchObject({ kind: 'delta', added: ['mcp__t__c'], removed: ['mcp__s__b'] });
    expect(delta!.text).toContain('Now available:');
    // The delta itself is read back: the next turn has nothing new to say.
    expect(deferredDelta([a, c], [a, c], [...history, ...said(delta!.text)])).toBeNull();
  });
  it('E2: a tool that became loaded (still in the pool, no longer deferred) is not "removed"', () => {
    const history = said(fullAnnouncement([a, b]).text);
    expect(deferredDelta([a], [a, b], history)).toBeNull();
  });
  it('E2: after compaction the full state is announced again', () => {
    const history: HistoryEvent[] = [...said(fullAnnouncement([a, b]).text), { type: 'compaction', discovered: [] }];
    expect(deferredDelta([a, b], [a, b], history)?.kind).toBe('full');
  });
});

describe('E3 grouped announcement', () => {
  it('E3: past the token budget the catalog is announced by server with counts and a search hint', () => {
    const tools = Array.from({ length: 300 }, (_, i) => tool(i % 2 ? 'github' : 'slack', `tool_number_${i}`));
    const a = fullAnnouncement(tools, { tokenBudget: 500 });
    expect(a.form).toBe('grouped');
    expect(a.text).toContain('mcp__github: 150 tools');
    expect(a.text).toContain('mcp__slack: 150 tools');
    expect(a.text.length).toBeLessThan(600);
    expect(eventsFromText(a.text)).toEqual([
      { type: 'announcement', form: 'grouped', units: ['mcp__github', 'mcp__slack'] },
    ]);
  });
  it('E3: cost grows with servers, not tools', () => {
    const mk = (n: number) => Array.from({ length: n }, (_, i) => tool(`srv${i % 3}`, `t${i}`));
    const small = fullAnnouncement(mk(300), { tokenBudget: 100 }).text.length;
    const big = fullAnnouncement(mk(3000), { tokenBudget: 100 }).text.length;
    expect(big - small).toBeLessThan(20);
  });
  it('E3/E2: grouped deltas report servers appearing and disappearing', () => {
    // 40 tools per server: too many names for the budget, but three server lines fit.
    const many = (server: string) => Array.from({ length: 40 }, (_, i) => tool(server, `operation_${i}`));
    const [a, b, c] = [many('a'), many('b'), many('c')];
    const history = eventsFromText(fullAnnouncement([...a, ...b], { tokenBudget: 150 }).text);
    const delta = deferredDelta([...a, ...c], [...a, ...c], history, { tokenBudget: 150 });
    expect(delta).toMatchObject({ kind: 'delta', form: 'grouped', added: ['mcp__c'], removed: ['mcp__b'] });
  });
});
