/**
 * C10/C14 — fusing a user's embeddings with the lexical ranking: a static-dominant reciprocal rank
 * fusion. Each tool scores 1/(k + its lexical rank) + weight/(k + its embedding rank), a missing
 * rank adding nothing. RRF needs no calibration between the two channels' scores; a small k and a
 * weight below 1 make it lexical-first, so the embedding channel re-orders within and slightly
 * beyond the lexical candidates but cannot sink what the lexical ranker had right. Equal weights
 * with k = 60 let a weaker sentence encoder (USE-lite) take the hidden holdout's R@5 from 0.900 to
 * 0.838 (issue 31); the constants below were chosen on the training splits (bench/embeddings.ts
 * --tune), never on an evaluated set.
 *
 * The guarantee (`worstFusedRank`, tested as a property): a tool at lexical rank r ends at fused rank
 * ≤ worstFusedRank(r) whatever the vectors say. With the defaults the lexical top hit stays in the top
 * 3, and a tool the lexical ranker did not list can never pass its top 4.
 */
import type { ToolSpec } from '../core/tool.js';
import type { RankedTool } from './ranker.js';
import type { LearnedMatch } from './learned/channel.js';
import { sourceName } from './text.js';

export interface FusionOptions {
  /** The RRF constant: small = the first ranks weigh much more than the rest. */
  readonly k: number;
  /** The embedding channel's weight against the lexical one's 1. */
  readonly weight: number;
  /** Only this many of the embedding ranking take part, so a tool far down both lists never wins. */
  readonly depth: number;
}

/** Chosen on the metatool and toollens training splits with USE-lite (bench/results/embeddings.md). */
export const DEFAULT_FUSION: FusionOptions = { k: 2, weight: 0.5, depth: 50 };
/** Kept for callers of the earlier API: the default fusion's k. */
export const RRF_K = DEFAULT_FUSION.k;
/** Scores this close are a tie, decided by the lexical order (float sums must not flip a tie). */
const TIE = 1e-12;

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

/** One tool's fused score from its 1-based ranks (undefined: not in that list). */
export function fusedScore(lexicalRank: number | undefined, embeddingRank: number | undefined, o = DEFAULT_FUSION) {
  const lexical = lexicalRank === undefined ? 0 : 1 / (o.k + lexicalRank);
  const embedding = embeddingRank === undefined ? 0 : o.weight / (o.k + embeddingRank);
  return lexical + embedding;
}

/**
 * The lowest fused rank a tool at lexical rank `r` can end at, whatever the embedding ranking: r plus
 * the most tools that can pass it. A tool passes it only by a higher score than its own floor
 * 1/(k + r), and each passer needs an embedding rank of its own worth more than the least gap
 * 1/(k + r) − 1/(k + r + 1); passers come from below it in the lexical list (those whose best
 * score beats its floor), or from outside the list when one embedding vote alone beats it.
 */
export function worstFusedRank(r: number, o: FusionOptions = DEFAULT_FUSION): number {
  const floor = 1 / (o.k + r);
  const bestVote = o.weight / (o.k + 1);
  const gap = floor - 1 / (o.k + r + 1);
  let votes = 0;
  while (votes < o.depth && o.weight / (o.k + votes + 1) > gap + TIE) votes++;
  if (bestVote > floor + TIE) return r + votes;
  let below = 0;
  // Past `votes` passers the bound is `votes` anyway (and the count may not end where bestVote ties floor).
  while (below < votes && 1 / (o.k + r + below + 1) + bestVote > floor + TIE) below++;
  return r + Math.min(below, votes);
}

export function fuseRanked(
  lexical: readonly (RankedTool & { readonly learned?: LearnedMatch })[],
  tools: readonly ToolSpec[],
  vectors: readonly (readonly number[] | undefined)[],
  queryVector: readonly number[],
  limit: number,
  accept?: (name: string) => boolean,
  options: FusionOptions = DEFAULT_FUSION,
): FusedHit[] {
  const semantic = embeddingRanking(tools, vectors, queryVector, options.depth, accept);
  const lexicalOrder = new Map(lexical.map((r, i) => [r.name, i]));
  const semanticOrder = new Map(semantic.map((name, i) => [name, i]));
  const fused = new Map<string, number>();
  for (const name of [...lexicalOrder.keys(), ...semanticOrder.keys()])
    if (!fused.has(name)) fused.set(name, fusedScore(rankOf(lexicalOrder, name), rankOf(semanticOrder, name), options));
  const learned = new Map(lexical.flatMap((r) => (r.learned ? [[r.name, r.learned] as const] : [])));
  const order = (name: string) => lexicalOrder.get(name) ?? 1e9 + semanticOrder.get(name)!;
  return [...fused.entries()]
    .sort((a, b) => (Math.abs(b[1] - a[1]) > TIE ? b[1] - a[1] : order(a[0]) - order(b[0])))
    .slice(0, limit)
    .map(([name]) => {
      const l = rankOf(lexicalOrder, name);
      const e = rankOf(semanticOrder, name);
      return {
        name,
        fused: true,
        ...(l !== undefined && { lexicalRank: l }),
        ...(e !== undefined && { embeddingRank: e }),
        ...(learned.has(name) && { learned: learned.get(name)! }),
      };
    });
}

/** The accepted tools by cosine similarity to the query, best first (positive similarity only). */
function embeddingRanking(
  tools: readonly ToolSpec[],
  vectors: readonly (readonly number[] | undefined)[],
  queryVector: readonly number[],
  depth: number,
  accept?: (name: string) => boolean,
): string[] {
  return tools
    .map((tool, i) => ({ name: tool.name, i, sim: vectors[i] ? cosine(vectors[i]!, queryVector) : 0 }))
    .filter((s) => s.sim > 0 && (!accept || accept(s.name)))
    .sort((a, b) => b.sim - a.sim || a.i - b.i)
    .slice(0, depth)
    .map((s) => s.name);
}

function rankOf(order: ReadonlyMap<string, number>, name: string): number | undefined {
  const i = order.get(name);
  return i === undefined ? undefined : i + 1;
}
