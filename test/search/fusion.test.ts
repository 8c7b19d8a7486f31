/**
 * C14 — the embedding fusion can lift but never sink: whatever the vectors say, a tool at lexical
 * rank r ends at fused rank ≤ worstFusedRank(r); the lexical top hit stays in the top 3 and no tool
 * the lexical ranker did not list passes its top 4. Deterministic fake vectors, fast-check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FUSION, fuseRanked, worstFusedRank } from '../../src/search/fusion.js';
import { mcp } from './helpers.js';

const TOOLS = Array.from({ length: 40 }, (_, i) => mcp('s', `tool_${i}`, `tool number ${i}`));

describe('C14: fusion that can lift but never sink', () => {
  it('C14: the rule’s bound with the default constants (k = 2, weight = 0.5)', () => {
    expect(worstFusedRank(1)).toBe(3);
    expect([2, 3, 4].map((r) => worstFusedRank(r))).toEqual([9, 15, 22]);
  });

  it('C14: a lexical hit never ends below worstFusedRank of its lexical rank, whatever the vectors', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          TOOLS.map((_, i) => i),
          { minLength: 1, maxLength: 30 },
        ),
        fc.array(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }), {
          minLength: TOOLS.length,
          maxLength: TOOLS.length,
        }),
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
        (order, vectors, query) => {
          const lexical = order.map((i, rank) => ({ name: TOOLS[i]!.name, score: 100 - rank }));
          const fused = fuseRanked(lexical, TOOLS, vectors, query, TOOLS.length).map((h) => h.name);
          for (const [i, hit] of lexical.entries()) {
            const at = fused.indexOf(hit.name) + 1;
            expect(at).toBeGreaterThan(0);
            expect(at).toBeLessThanOrEqual(worstFusedRank(i + 1));
          }
          // The lexical top hit stays in the top 3; the lexical top 4 are never passed by an outsider.
          expect(fused.slice(0, 3)).toContain(lexical[0]!.name);
          const listed = new Set(lexical.map((h) => h.name));
          const firstOutsider = fused.findIndex((n) => !listed.has(n));
          if (firstOutsider >= 0) expect(firstOutsider).toBeGreaterThanOrEqual(Math.min(4, lexical.length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('C14: the embedding channel lifts what the lexical list had low, and brings in a tool it missed', () => {
    const lexical = TOOLS.slice(0, 10).map((t, i) => ({ name: t.name, score: 10 - i }));
    const query = [1, 0, 0, 0];
    const vectors = TOOLS.map((_, i) => (i === 6 || i === 20 ? [1, 0, 0, 0] : [0, 1, 0, 0]));
    const fused = fuseRanked(lexical, TOOLS, vectors, query, 10);
    expect(fused[0]!.name).toBe('mcp__s__tool_0');
    expect(fused.findIndex((h) => h.name === 'mcp__s__tool_6')).toBeLessThan(6);
    const brought = fused.find((h) => h.name === 'mcp__s__tool_20');
    expect(brought).toMatchObject({ fused: true, embeddingRank: expect.any(Number) });
    expect(brought!.lexicalRank).toBeUndefined();
    expect(DEFAULT_FUSION).toEqual({ k: 2, weight: 0.5, depth: 50 });
  });
});
