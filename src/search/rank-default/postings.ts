/** C6 — posting lists: every per-(term, tool) contribution computed at build time, so a query is a sum over a few lists. */
import type { Fields } from './tokenizer.js';
import { type DefaultRankerOptions, FIELD_NAMES, type FieldName } from './options.js';

/**
 * BM25F postings in one flat (CSR) layout: the postings of term id t are positions
 * offsets[t]..offsets[t+1] of `doc` (tool index) and `weight` (idf × saturated weighted tf).
 * Two passes over the documents (count, then fill) and no per-term arrays: cheap to build.
 */
export interface Postings {
  ids: ReadonlyMap<string, number>;
  offsets: Int32Array;
  doc: Int32Array;
  weight: Float32Array;
  /**
   * Every weight ≥ 0 (always, unless options give a field a negative weight): then a tool's score
   * only grows while postings are added, and the largest running sum is the largest final score.
   */
  nonNegative: boolean;
  /**
   * C14: per term id, the tools holding it in their own text (every field but `product`). A term
   * with postings and 0 here is a glossary word only product fields hold (products.ts).
   */
  ownDf: Int32Array;
}

export function buildPostings(
  docs: readonly Fields[],
  termIds: ReadonlyMap<string, number>,
  options: DefaultRankerOptions,
): Postings {
  const n = docs.length;
  const avg = {} as Record<FieldName, number>;
  for (const f of FIELD_NAMES) avg[f] = Math.max(1e-9, docs.reduce((s, d) => s + d[f].length, 0) / Math.max(1, n));
  const termCount = termIds.size;
  const lastDoc = new Int32Array(termCount).fill(-1);
  const offsets = new Int32Array(termCount + 1);
  // C14: tools holding the term in their own text. The product field (products.ts) is knowledge
  // added to a tool, not its text: counting it would make "web" or "map" commoner for every tool.
  const ownDf = new Int32Array(termCount);
  const lastOwn = new Int32Array(termCount).fill(-1);
  docs.forEach((fields, i) => {
    for (const f of FIELD_NAMES) {
      for (const t of fields[f]) {
        if (f !== 'product' && lastOwn[t] !== i) {
          lastOwn[t] = i;
          ownDf[t]!++;
        }
        if (lastDoc[t] === i) continue;
        lastDoc[t] = i;
        offsets[t + 1]!++;
      }
    }
  });
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const total = offsets[termCount]!;
  const doc = new Int32Array(total);
  const weight = new Float32Array(total);
  const cursor = offsets.slice(0, termCount);
  lastDoc.fill(-1);
  docs.forEach((fields, i) => {
    for (const f of FIELD_NAMES) {
      const terms = fields[f];
      if (terms.length === 0) continue;
      const w = options.fields[f] / (1 - options.b + (options.b * terms.length) / avg[f]);
      for (const t of terms) {
        if (lastDoc[t] === i) weight[cursor[t]! - 1]! += w;
        else {
          lastDoc[t] = i;
          doc[cursor[t]!] = i;
          weight[cursor[t]!++] = w;
        }
      }
    }
  });
  const k1 = options.k1;
  for (let t = 0; t < termCount; t++) {
    const all = offsets[t + 1]! - offsets[t]!;
    if (all === 0) continue;
    const df = ownDf[t]! > 0 ? ownDf[t]! : all;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let j = offsets[t]!; j < offsets[t + 1]!; j++) {
      const tf = weight[j]!;
      weight[j] = (idf * tf * (k1 + 1)) / (tf + k1);
    }
  }
  let nonNegative = true;
  for (let j = 0; j < total && nonNegative; j++) nonNegative = weight[j]! >= 0;
  return { ids: termIds, offsets, doc, weight, nonNegative, ownDf };
}

/** Add `weight ×` each query term's postings into `scores`. */
export function accumulate(postings: Postings, terms: ReadonlyMap<string, number>, scores: Float64Array): void {
  const { ids, offsets, doc, weight } = postings;
  for (const [term, w] of terms) {
    const t = ids.get(term);
    if (t === undefined) continue;
    const end = offsets[t + 1]!;
    for (let j = offsets[t]!; j < end; j++) scores[doc[j]!]! += w * weight[j]!;
  }
}

/**
 * The tools a query touched, each once, in first-touch order: a typed list and a mark per tool.
 * Every pass after the postings (server evidence, clause maximum, top k, re-zeroing) visits these,
 * not the whole catalog. Marked without a branch on the score (`scores[d] === 0` mispredicts on
 * a third of a long query's postings, which cost more than the additions themselves).
 */
export class TouchedSet {
  readonly list: Int32Array;
  count = 0;
  /** 1 for a listed tool. A caller that empties the list itself (one pass that also reads it) zeroes these and `count`. */
  readonly mark: Uint8Array;

  constructor(size: number) {
    this.list = new Int32Array(size);
    this.mark = new Uint8Array(size);
  }

  /** Forget every touched tool, zeroing its entry in `scores` when given. */
  clear(scores?: Float64Array): void {
    const { list, mark } = this;
    // A long query touches a third of the catalog: zeroing whole arrays in order is cheaper then.
    if (this.count * 8 > mark.length) {
      mark.fill(0);
      scores?.fill(0);
      this.count = 0;
      return;
    }
    for (let a = 0; a < this.count; a++) {
      const d = list[a]!;
      mark[d] = 0;
      if (scores) scores[d] = 0;
    }
    this.count = 0;
  }

  add(d: number): void {
    if (this.mark[d] === 0) {
      this.mark[d] = 1;
      this.list[this.count++] = d;
    }
  }

  /** The touched tools as a view (valid until the next change). */
  view(): Int32Array {
    return this.list.subarray(0, this.count);
  }

  /** `accumulate` that also records each tool its postings reach. */
  accumulate(postings: Postings, terms: ReadonlyMap<string, number>, scores: Float64Array): void {
    const { ids, offsets, doc, weight } = postings;
    const { list, mark } = this;
    let count = this.count;
    for (const [term, w] of terms) {
      const t = ids.get(term);
      if (t === undefined) continue;
      const end = offsets[t + 1]!;
      for (let j = offsets[t]!; j < end; j++) {
        const d = doc[j]!;
        list[count] = d;
        count += mark[d]! ^ 1;
        mark[d] = 1;
        scores[d]! += w * weight[j]!;
      }
    }
    this.count = count;
  }

  /**
   * Adds `factor ×` a run of (tool, weight) postings from outside the index (C13: the learned
   * field's, by tool position) into `scores`, listing each tool once. A branch on the mark, not
   * `accumulate`'s branch-free count: most of these tools are listed already (the words reached
   * them; 91 % in bench:learning's cost run), so the branch predicts well, and the branch-free form
   * would chain every step on the previous step's mark load.
   */
  addWeighted(
    tools: Int32Array,
    weights: Float64Array,
    from: number,
    to: number,
    factor: number,
    scores: Float64Array,
  ): void {
    const { list, mark } = this;
    let count = this.count;
    for (let k = from; k < to; k++) {
      const d = tools[k]!;
      if (mark[d] === 0) {
        mark[d] = 1;
        list[count++] = d;
      }
      scores[d]! += factor * weights[k]!;
    }
    this.count = count;
  }

  /**
   * `accumulate` that returns the largest score in `scores` among the tools it touched — read
   * from the running sums, which only grow when the postings are non-negative (`nonNegative`;
   * callers check), so no second pass over the touched tools is needed. A twin of `accumulate`
   * on purpose: this is the innermost loop of every search, and the main pass, which needs no
   * maximum, should not pay for its compare.
   */
  accumulateMax(postings: Postings, terms: ReadonlyMap<string, number>, scores: Float64Array): number {
    const { ids, offsets, doc, weight } = postings;
    const { list, mark } = this;
    let count = this.count;
    let max = 0;
    for (const [term, w] of terms) {
      const t = ids.get(term);
      if (t === undefined) continue;
      const end = offsets[t + 1]!;
      for (let j = offsets[t]!; j < end; j++) {
        const d = doc[j]!;
        list[count] = d;
        count += mark[d]! ^ 1;
        mark[d] = 1;
        const sum = scores[d]! + w * weight[j]!;
        scores[d] = sum;
        if (sum > max) max = sum;
      }
    }
    this.count = count;
    return max;
  }
}

/** The posting weight of (term, doc), 0 when absent. Postings are in doc order: binary search. */
export function postingWeight(postings: Postings, term: string, docIndex: number): number {
  const t = postings.ids.get(term);
  if (t === undefined) return 0;
  let lo = postings.offsets[t]!;
  let hi = postings.offsets[t + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = postings.doc[mid]!;
    if (d === docIndex) return postings.weight[mid]!;
    if (d < docIndex) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** The clause pass's buffers: per-clause scores, each tool's best normalized clause score, and who is in them. */
export interface ClauseBuffers {
  clauseScores: Float64Array;
  best: Float64Array;
  inClause: TouchedSet;
  inAny: TouchedSet;
}

export function clauseBuffers(n: number): ClauseBuffers {
  return {
    clauseScores: new Float64Array(n),
    best: new Float64Array(n),
    inClause: new TouchedSet(n),
    inAny: new TouchedSet(n),
  };
}
