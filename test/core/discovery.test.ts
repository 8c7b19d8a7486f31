import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnthropicHistory } from '../../src/core/anthropic-history.js';
import { compactionBoundary, snapshotForCompaction } from '../../src/core/compaction.js';
import { extractDiscovered, type HistoryEvent } from '../../src/core/history.js';
import { filterTools } from '../../src/core/plan.js';
import { defineTool } from '../../src/core/tool.js';

const refResult = (id: string, names: string[]) => ({
  role: 'user',
  content: [
    {
      type: 'tool_result',
      tool_use_id: id,
      content: names.map((tool_name) => ({ type: 'tool_reference', tool_name })),
    },
  ],
});

describe('D1 discovery from history', () => {
  it('D1: tool_reference blocks in tool_result content accumulate across turns', () => {
    const messages = [
      { role: 'user', content: 'make an issue' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'tool_search', input: { query: 'github issue' } }],
      },
      refResult('t1', ['mcp__github__create_issue']),
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'tool_search', input: { query: 'slack' } }] },
      refResult('t2', ['mcp__slack__send_message', 'mcp__github__create_issue']),
    ];
    expect([...extractDiscovered(readAnthropicHistory(messages))].sort()).toEqual([
      'mcp__github__create_issue',
      'mcp__slack__send_message',
    ]);
  });
  it('D1: server-side tool_search_tool_result blocks count too', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_search_tool_result',
            tool_use_id: 's1',
            content: {
              type: 'tool_search_tool_search_result',
              tool_references: [{ type: 'tool_reference', tool_name: 'mcp__a__b' }],
            },
          },
        ],
      },
    ];
    expect([...extractDiscovered(readAnthropicHistory(messages))]).toEqual(['mcp__a__b']);
  });
  it('D1: property — the discovered set only grows as the conversation grows', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const turn = fc.array(name, { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 12 }), (turns) => {
        const messages = turns.map((names, i) => refResult(`t${i}`, names));
        let previous = new Set<string>();
        for (let i = 0; i <= messages.length; i++) {
          const now = extractDiscovered(readAnthropicHistory(messages.slice(0, i)));
          for (const n of previous) expect(now.has(n)).toBe(true);
          previous = now;
        }
      }),
    );
  });
});

describe('D2 compaction', () => {
  it('D2: the snapshot on the boundary survives summarization and unions with later references', () => {
    const before = [refResult('t1', ['x', 'y'])];
    const summary = compactionBoundary('Summary: we created an issue.', readAnthropicHistory(before));
    const after = [{ role: 'user', content: summary }, refResult('t9', ['z'])];
    expect([...extractDiscovered(readAnthropicHistory(after))].sort()).toEqual(['x', 'y', 'z']);
  });
  it('D2: property — repeated full/partial compactions are idempotent (the union never changes)', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'd');
    fc.assert(
      fc.property(
        fc.array(fc.array(name, { maxLength: 3 }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (turns, times) => {
          const events: HistoryEvent[] = turns.map((names) => ({ type: 'loaded', names }));
          const expected = [...extractDiscovered(events)].sort();
          let history = events;
          for (let i = 0; i < times; i++) {
            // A partial compaction keeps the last event; a full one keeps nothing. Both snapshot everything.
            const keep = i % 2 === 0 ? history.slice(-1) : [];
            history = [{ type: 'compaction', discovered: snapshotForCompaction(history) }, ...keep];
            expect([...extractDiscovered(history)].sort()).toEqual(expected);
          }
        },
      ),
    );
  });
});

describe('D3 filtering', () => {
  const tools = ['read', 'mcp__a__x', 'mcp__a__y', 'tool_search'].map((name) => defineTool({ name }));
  it('D3: non-deferred + search tool + discovered deferred, nothing else', () => {
    const out = filterTools(tools, new Set(['mcp__a__x', 'mcp__a__y']), new Set(['mcp__a__y']));
    expect(out.map((t) => t.name)).toEqual(['read', 'mcp__a__y', 'tool_search']);
  });
  it('D3: property — filtering never drops a non-deferred tool', () => {
    const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(names, fc.array(fc.boolean()), fc.array(fc.boolean()), (ns, deferFlags, discFlags) => {
        const pool = ns.map((name) => defineTool({ name }));
        const deferred = new Set(ns.filter((_, i) => deferFlags[i]));
        const discovered = new Set(ns.filter((_, i) => discFlags[i]));
        const kept = new Set(filterTools(pool, deferred, discovered).map((t) => t.name));
        for (const n of ns) if (!deferred.has(n)) expect(kept.has(n)).toBe(true);
        for (const n of kept) expect(!deferred.has(n) || discovered.has(n) || n === 'tool_search').toBe(true);
      }),
    );
  });
});

describe('D4 isolation', () => {
  it('D4: two conversations derive their own discovered sets; nothing leaks', () => {
    const a = [refResult('1', ['mcp__a__x'])];
    const b = [refResult('1', ['mcp__b__y'])];
    expect([...extractDiscovered(readAnthropicHistory(a))]).toEqual(['mcp__a__x']);
    expect([...extractDiscovered(readAnthropicHistory(b))]).toEqual(['mcp__b__y']);
  });
});
