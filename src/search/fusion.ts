/**
 * C9 — fusing a user's embeddings with the lexical ranking: reciprocal rank fusion (RRF) of the
 * lexical top list and the cosine-similarity ranking over all deferred tools. RRF needs no score
 * calibration between the two, which is why it is used rather than a weighted sum.
 */
import type { ToolSpec } from '../core/tool.js';
import type { RankedTool } from './ranker.js';
import type { LearnedMatch } from './learning/channel.js';
import { sourceName } from './text.js';

/** The RRF constant: 60 is the usual choice; larger values flatten the rank differences. */
export const RRF_K = 60;
/** Only this many of the embedding ranking take part, so a tool far down both lists never wins. */
const SEMANTIC_DEPTH = 50;

/** What an embedder sees for a tool: server, name and description. */
export function toolEmbeddingText(tool: ToolSpec): string {
  const server = tool.origin.kind === 'mcp' ? `${tool.origin.server} ` : '';
  return `${server}${sourceName(tool)}: ${tool.description}`.trim();
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A fused hit with where it stood in each list (1-based; absent = not in that list), for explain (C11). */
export interface FusedHit {
  readonly name: string;
  /** False when the lexical ranking alone decided (no embedder, or vectors not ready). */
  readonly fused: boolean;
  /** The lexical (or learned) score when the lexical list alone decided; absent when fused. */
  readonly score?: number;
  readonly lexicalRank?: number;
  readonly embeddingRank?: number;
  /** C13: learned evidence that lifted or brought this tool. */
  readonly learned?: LearnedMatch;
  /** C13: the learned field's lift (the words of earlier searches that led here), over the top lexical score. */
  readonly words?: number;
}

export function fuseRanked(
  lexical: readonly (RankedTool & { readonly learned?: LearnedMatch })[],
  tools: readonly ToolSpec[],
  vectors: readonly (readonly number[] | undefined)[],
  queryVector: readonly number[],
  limit: number,
  accept?: (name: string) => boolean,
): FusedHit[] {
  const fused = new Map<string, number>();
  for (const [rank, r] of lexical.entries()) fused.set(r.name, 1 / (RRF_K + rank + 1));
  const semantic = tools
    .map((tool, i) => ({ name: tool.name, i, sim: vectors[i] ? cosine(vectors[i]!, queryVector) : 0 }))
    .filter((s) => s.sim > 0 && (!accept || accept(s.name)))
    .sort((a, b) => b.sim - a.sim || a.i - b.i)
    .slice(0, SEMANTIC_DEPTH);
  for (const [rank, s] of semantic.entries()) fused.set(s.name, (fused.get(s.name) ?? 0) + 1 / (RRF_K + rank + 1));
  const lexicalOrder = new Map(lexical.map((r, i) => [r.name, i]));
  const learned = new Map(lexical.flatMap((r) => (r.learned ? [[r.name, r.learned] as const] : [])));
  const semanticOrder = new Map(semantic.map((s, i) => [s.name, i]));
  return [...fused.entries()]
    .sort((a, b) => b[1] - a[1] || (lexicalOrder.get(a[0]) ?? 1e9) - (lexicalOrder.get(b[0]) ?? 1e9))
    .slice(0, limit)
    .map(([name]) => {
      const l = lexicalOrder.get(name);
      const e = semanticOrder.get(name);
      return {
        name,
        fused: true,
        ...(l !== undefined && { lexicalRank: l + 1 }),
        ...(e !== undefined && { embeddingRank: e + 1 }),
        ...(learned.has(name) && { learned: learned.get(name)! }),
      };
    });
}
