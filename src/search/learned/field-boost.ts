/**
 * C13 — the learned field inside the ranker's own pass (`ScoreBoost`): weight × the field's score of
 * the query is added to each tool's lexical score before the ranker's cut. The field's postings are
 * re-keyed once to the ranker's tool positions, in one flat (CSR) layout, so a query walks them
 * straight into the ranker's score buffer (warm from its own pass): no buffer of the field's, no
 * second pass, no merge. This is what keeps a search with a learned log near the cost of one
 * without (bench:learning's cost table).
 */
import type { BoostTarget, ScoreBoost } from '../ranker.js';
import type { LearnedField } from './field.js';
import { rankerPositions } from './lexical.js';

/**
 * One field's postings by ranker position, for one ranker's `names`: those of term t are entries
 * offsets[t]..offsets[t+1] of `tools` (ranker positions, ascending) and `scores`.
 */
interface Positioned {
  readonly names: readonly string[];
  /** Per field tool: its ranker position (-1: not in the ranker's pool). */
  readonly at: Int32Array;
  readonly offsets: Int32Array;
  readonly tools: Int32Array;
  readonly scores: Float64Array;
}

const positionedCache = new WeakMap<LearnedField, Positioned>();

function positioned(field: LearnedField, names: readonly string[]): Positioned {
  const cached = positionedCache.get(field);
  if (cached?.names === names) return cached;
  const at = rankerPositions(field, names);
  const offsets = new Int32Array(field.terms + 1);
  for (let t = 0; t < field.terms; t++) {
    let kept = 0;
    for (const d of field.postings(t).tools) if (at[d]! >= 0) kept++;
    offsets[t + 1] = offsets[t]! + kept;
  }
  const tools = new Int32Array(offsets[field.terms]!);
  const scores = new Float64Array(tools.length);
  for (let t = 0; t < field.terms; t++) {
    const postings = field.postings(t);
    const order = Array.from(postings.tools, (_, k) => k).filter((k) => at[postings.tools[k]!]! >= 0);
    order.sort((a, b) => at[postings.tools[a]!]! - at[postings.tools[b]!]!);
    let j = offsets[t]!;
    for (const k of order) {
      tools[j] = at[postings.tools[k]!]!;
      scores[j++] = postings.scores[k]!;
    }
  }
  const built = { names, at, offsets, tools, scores };
  positionedCache.set(field, built);
  return built;
}

export class FieldBoost implements ScoreBoost {
  private ids: number[] = [];
  private postings: Positioned | undefined;

  constructor(
    private readonly field: LearnedField,
    private readonly weight: number,
  ) {}

  add(terms: readonly string[], names: readonly string[], into: BoostTarget): void {
    this.ids = this.field.termIdsOf(terms);
    if (this.ids.length === 0) return;
    const { offsets, tools, scores } = (this.postings = positioned(this.field, names));
    for (const t of this.ids) into.addPostings(tools, scores, offsets[t]!, offsets[t + 1]!, this.weight);
  }

  /** What the field added to the tool at ranker position `p` (0: nothing): a search over each term. */
  liftAt(p: number): number {
    const postings = this.postings;
    if (!postings) return 0;
    const { offsets, tools, scores } = postings;
    let lift = 0;
    for (const t of this.ids) {
      let lo = offsets[t]!;
      let hi = offsets[t + 1]!;
      const end = hi;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (tools[mid]! < p) lo = mid + 1;
        else hi = mid;
      }
      if (lo < end && tools[lo] === p) lift += scores[lo]!;
    }
    return this.weight * lift;
  }

  /** As `liftAt`, by tool name. */
  liftOf(name: string): number {
    const d = this.field.toolId(name);
    return d === undefined || !this.postings ? 0 : this.liftAt(this.postings.at[d]!);
  }
}
