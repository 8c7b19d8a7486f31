/**
 * C13 — the learned field inside the ranker's own pass (`ScoreBoost`): weight × the field's score of
 * the query is added to each tool's lexical score before the ranker's cut. The field's postings are
 * re-keyed once to the ranker's tool positions, so a query walks them straight into the ranker's
 * score buffer (warm from its own pass): no buffer of the field's, no second pass, no merge. This is
 * what keeps a search with a learned log within a tenth of one without (bench:learning's cost).
 */
import type { ScoreBoost } from '../ranker.js';
import type { LearnedField } from './field.js';
import { rankerPositions } from './lexical.js';

/** One field's postings by ranker position (sorted), for one ranker's `names`. */
interface Positioned {
  readonly names: readonly string[];
  /** Per field tool: its ranker position (-1: not in the ranker's pool). */
  readonly at: Int32Array;
  readonly tools: Int32Array[];
  readonly scores: Float64Array[];
}

const positionedCache = new WeakMap<LearnedField, Positioned>();

function positioned(field: LearnedField, names: readonly string[]): Positioned {
  const cached = positionedCache.get(field);
  if (cached?.names === names) return cached;
  const at = rankerPositions(field, names);
  const tools: Int32Array[] = [];
  const scores: Float64Array[] = [];
  for (let t = 0; t < field.terms; t++) {
    const postings = field.postings(t);
    const order = Array.from(postings.tools, (_, k) => k).filter((k) => at[postings.tools[k]!]! >= 0);
    order.sort((a, b) => at[postings.tools[a]!]! - at[postings.tools[b]!]!);
    tools.push(Int32Array.from(order, (k) => at[postings.tools[k]!]!));
    scores.push(Float64Array.from(order, (k) => postings.scores[k]!));
  }
  const built = { names, at, tools, scores };
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

  add(terms: readonly string[], names: readonly string[], scores: Float64Array, touch: { add(p: number): void }): void {
    this.ids = this.field.termIdsOf(terms);
    if (this.ids.length === 0) return;
    const postings = (this.postings = positioned(this.field, names));
    const w = this.weight;
    for (const t of this.ids) {
      const tools = postings.tools[t]!;
      const add = postings.scores[t]!;
      for (let k = 0; k < tools.length; k++) {
        const p = tools[k]!;
        touch.add(p);
        scores[p]! += w * add[k]!;
      }
    }
  }

  /** What the field added to the tool at ranker position `p` (0: nothing): a search over each term. */
  liftAt(p: number): number {
    const postings = this.postings;
    if (!postings) return 0;
    let lift = 0;
    for (const t of this.ids) {
      const tools = postings.tools[t]!;
      let lo = 0;
      let hi = tools.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (tools[mid]! < p) lo = mid + 1;
        else hi = mid;
      }
      if (lo < tools.length && tools[lo] === p) lift += postings.scores[t]![lo]!;
    }
    return this.weight * lift;
  }

  /** As `liftAt`, by tool name. */
  liftOf(name: string): number {
    const d = this.field.toolId(name);
    return d === undefined || !this.postings ? 0 : this.liftAt(this.postings.at[d]!);
  }
}
