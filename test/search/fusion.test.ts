/**
 * C14 — the embedding fusion can lift but never sink: whatever the vectors say and whichever way the
 * gate opens, a tool at lexical rank r ends at fused rank ≤ worstFusedRank(r); with the defaults the
 * lexical top hit stays first and no tool the lexical ranker did not list passes its top 5; an
 * embedding ranking that disagrees with a confident lexical ranking changes nothing. Deterministic
 * fake vectors, fast-check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FUSION,
  fuseRanked,
  fuseRankings,
  fusionGate,
  worstFusedRank,
  type FusionOptions,
} from '../../src/search/fusion.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import type { Embedder } from '../../src/search/ranker.js';
import { mcp, poolOf } from './helpers.js';

const TOOLS = Array.from({ length: 40 }, (_, i) => mcp('s', `tool_${i}`, `tool number ${i}`));
const NAMES = TOOLS.map((t) => t.name);
const vector = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 });
const lexicalOrder = fc.shuffledSubarray(
  TOOLS.map((_, i) => i),
  { minLength: 0, maxLength: 30 },
);
const asLexical = (order: readonly number[]) => order.map((i, rank) => ({ name: NAMES[i]!, score: 100 - rank }));

describe('C14: fusion that can lift but never sink', () => {
  it('C14: the bound with the default constants: the lexical top hit stays first, rank 2 ends no lower than 4', () => {
    expect(worstFusedRank(1)).toBe(1);
    expect([2, 3].map((r) => worstFusedRank(r))).toEqual([4, 10]);
    // With the agreement weight alone (the common case) the top two never move.
    const agreeOnly = { ...DEFAULT_FUSION, weakWeight: 0 };
    expect([1, 2, 3].map((r) => worstFusedRank(r, agreeOnly))).toEqual([1, 2, 4]);
  });

  it('C14: a lexical hit never ends below worstFusedRank of its lexical rank, whatever the vectors and the gate', () => {
    fc.assert(
      fc.property(
        lexicalOrder,
        fc.array(vector, { minLength: TOOLS.length, maxLength: TOOLS.length }),
        vector,
        fc.boolean(),
        (order, vectors, query, lexicalWeak) => {
          const lexical = asLexical(order);
          const fused = fuseRanked(lexical, TOOLS, vectors, query, TOOLS.length, undefined, { lexicalWeak });
          const names = fused.map((h) => h.name);
          for (const [i, hit] of lexical.entries()) {
            const at = names.indexOf(hit.name) + 1;
            expect(at).toBeGreaterThan(0);
            expect(at).toBeLessThanOrEqual(worstFusedRank(i + 1));
          }
          if (lexical.length > 0) expect(names[0]).toBe(lexical[0]!.name);
          const listed = new Set(lexical.map((h) => h.name));
          const firstOutsider = names.findIndex((n) => !listed.has(n));
          if (firstOutsider >= 0) expect(firstOutsider).toBeGreaterThanOrEqual(Math.min(5, lexical.length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('C14: the bound is a proof, not a fit: it holds for any constants and any embedding ranking', () => {
    const options = fc.record({
      k: fc.integer({ min: 1, max: 10 }),
      embeddingK: fc.integer({ min: 1, max: 20 }),
      weight: fc.double({ min: 0, max: 3, noNaN: true }),
      weakWeight: fc.double({ min: 0, max: 3, noNaN: true }),
      depth: fc.integer({ min: 1, max: 40 }),
      agreeTop: fc.integer({ min: 1, max: 5 }),
      agreeWithin: fc.integer({ min: 1, max: 20 }),
    });
    fc.assert(
      fc.property(
        lexicalOrder,
        fc.shuffledSubarray(NAMES, { minLength: 0, maxLength: 40 }),
        fc.boolean(),
        options,
        (order, embedding, lexicalWeak, o: FusionOptions) => {
          const lexical = asLexical(order);
          const names = fuseRankings(lexical, embedding, TOOLS.length, { lexicalWeak, options: o }).map((h) => h.name);
          for (const [i, hit] of lexical.entries())
            expect(names.indexOf(hit.name) + 1).toBeLessThanOrEqual(worstFusedRank(i + 1, o));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('C14: an embedding ranking that disagrees with a confident lexical ranking changes nothing', () => {
    fc.assert(
      fc.property(lexicalOrder, fc.shuffledSubarray(NAMES, { minLength: 0, maxLength: 40 }), (order, embedding) => {
        const lexical = asLexical(order);
        const top = new Set(lexical.slice(0, DEFAULT_FUSION.agreeWithin).map((h) => h.name));
        fc.pre(lexical.length > 0 && !embedding.slice(0, DEFAULT_FUSION.agreeTop).some((n) => top.has(n)));
        const fused = fuseRankings(lexical, embedding, TOOLS.length);
        expect(fused.map((h) => h.name)).toEqual(lexical.map((h) => h.name));
        expect(fused[0]).toMatchObject({ gate: 'disagree', embeddingWeight: 0 });
      }),
      { numRuns: 300 },
    );
  });

  it('C14: the gate — weak lexical ranking (or none) → weakWeight, agreement → weight, else 0', () => {
    const lexical = NAMES.slice(0, 12);
    expect(fusionGate(lexical, [NAMES[20]!, NAMES[9]!], false)).toEqual({
      gate: 'agree',
      weight: DEFAULT_FUSION.weight,
    });
    expect(fusionGate(lexical, [NAMES[20]!, NAMES[10]!], false)).toEqual({ gate: 'disagree', weight: 0 });
    expect(fusionGate(lexical, [NAMES[20]!], true)).toEqual({
      gate: 'weak-lexical',
      weight: DEFAULT_FUSION.weakWeight,
    });
    expect(fusionGate([], [NAMES[20]!], false)).toEqual({ gate: 'weak-lexical', weight: DEFAULT_FUSION.weakWeight });
  });

  it('C14: when the channels agree the embedding lifts a lower lexical hit; with no lexical hit it answers alone', () => {
    const lexical = TOOLS.slice(0, 10).map((t, i) => ({ name: t.name, score: 10 - i }));
    const query = [1, 0, 0, 0];
    const vectors = TOOLS.map((_, i) => (i === 6 ? [1, 0, 0, 0] : i === 20 ? [0.9, 0.1, 0, 0] : [0, 1, 0, 0]));
    const fused = fuseRanked(lexical, TOOLS, vectors, query, 10);
    expect(fused[0]!.name).toBe('mcp__s__tool_0');
    expect(fused.findIndex((h) => h.name === 'mcp__s__tool_6')).toBeLessThan(6);
    expect(fused[0]).toMatchObject({ fused: true, gate: 'agree', embeddingWeight: DEFAULT_FUSION.weight });

    const alone = fuseRanked([], TOOLS, vectors, query, 3);
    expect(alone.map((h) => h.name)).toEqual(['mcp__s__tool_6', 'mcp__s__tool_20']);
    expect(alone[1]).toMatchObject({ gate: 'weak-lexical', embeddingRank: 2 });
    expect(alone[1]!.lexicalRank).toBeUndefined();
  });

  it('C14: through the searcher, an encoder that always points elsewhere cannot move a confident keyword hit', () => {
    const tools = [
      mcp('fs', 'read_text_file', 'Read the complete contents of a file as text'),
      mcp('fs', 'write_file', 'Create a new file or overwrite an existing file'),
      mcp('kg', 'create_entities', 'Create multiple new entities in the knowledge graph'),
      mcp('web', 'fetch_url', 'Fetch a web page'),
    ];
    // Every text lands on the same point as the knowledge-graph tool: the encoder is sure and wrong.
    const wrong: Embedder = { embed: (texts) => texts.map((t) => (t.includes('knowledge') ? [1, 0] : [1, 0.01])) };
    const pool = poolOf(tools);
    const lexical = new ToolSearcher().search(pool, 'read file contents', { explain: true });
    const fused = new ToolSearcher({ embedder: wrong }).search(pool, 'read file contents', { explain: true });
    expect(fused.matches[0]).toBe(lexical.matches[0]);
    expect(fused.matches[0]).toBe('mcp__fs__read_text_file');
    expect(fused.explanations?.[0]?.embedding).toMatchObject({ lexicalRank: 1 });
  });
});
