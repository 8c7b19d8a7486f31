/**
 * C13 — the learned field: per tool, the words of the searches that led to it, scored like a BM25
 * field of its own (IDF over the tools that have learned words, not over tool text). Where a
 * tool's callers keep using words its description lacks ("ingredient" for a recipe API), this
 * finds it; a query need not resemble any single past search as a whole (the kNN channel's bar),
 * only share its rarer words with what led to a tool. How much it counts is not fixed: the log's
 * own replay decides (calibrate.ts), since on catalogs of look-alike tools the same words lead to
 * different tools and the field would only pull in the wrong twin.
 */
import { words } from '../text.js';
import { STOP_WORDS, stem } from '../vocabulary.js';
import type { LearnedLog } from './log.js';

const K1 = 1.2;
/** An entry decayed below this (about ten months at the default half-life) no longer counts. */
const MIN_WEIGHT = 0.1;
/**
 * Length normalization, lower than text BM25's 0.75: a tool many searches led to has a long learned
 * text, and normalizing it away would punish exactly the tools people use most (their popularity is
 * evidence here, not verbosity). Chosen with `CONCENTRATION` on the MetaTool and ToolLens training
 * splits only, as the best of a grid (bench/README.md, "Learning from use", third round).
 */
const B = 0.35;

/** How the field scored one query: tools with a positive score, unordered. */
export interface FieldScores {
  /** A view of the field's scratch list: valid until its next `score`. */
  readonly tools: Int32Array;
  /** Indexed by tool; valid only at `tools`. */
  readonly scores: Float64Array;
}

/** A search held out of the field (calibration's leave-one-out): its terms and the tools it led to. */
export interface HeldOut {
  readonly terms: readonly number[];
  readonly tools: ReadonlySet<number>;
  /** The decayed weight the search added to each of its tools' term counts. */
  readonly weight: number;
  /**
   * C14: per held tool, the terms that lift it only because this search confirmed them (a second
   * source): held out, they do not count for it at all.
   */
  readonly dropped?: ReadonlyMap<number, ReadonlySet<number>>;
}

/** In the learned words of more than half the tools (and of at least `MIN_GENERIC_DF`). */
function isGeneric(df: number, tools: number): boolean {
  return df >= MIN_GENERIC_DF && df * 2 > tools;
}

const MIN_GENERIC_DF = 3;
/** As `learnedTerms`: longer text is cut. */
const MAX_QUERY_CHARS = 4_096;
const MAX_CACHED_WORDS = 100_000;
/**
 * A term's postings are cut to its strongest tools beyond this many (see `truncate`): the walk over
 * them is the field's cost per search. 256 → 64 changed no training-split result by more than
 * 0.004 (bench/README.md, "Search that learns").
 */
export const MAX_POSTINGS = 64;
/** See `concentration`; chosen with `B` on the training splits. */
const CONCENTRATION = 0.35;

export class LearnedField {
  readonly toolNames: string[] = [];
  private readonly toolIndex = new Map<string, number>();
  private readonly termIds = new Map<string, number>();
  /** Per tool: term → decayed count (read only when holding a search out). */
  private readonly tf: Map<number, number>[] = [];
  private length = new Float64Array(0);
  private avgLength = 1;
  private idf = new Float64Array(0);
  /** Per term: its largest count in any tool's learned words. */
  private maxTf = new Float64Array(0);
  /** Per term: the tools whose learned words contain it, and each one's BM25 term score. */
  private postTools: Int32Array[] = [];
  private postScores: Float64Array[] = [];
  private scratch = new Float64Array(0);
  /** Raw query word → its term id here, or -1 (stop word, or never logged): one lookup per word. */
  private readonly wordIds = new Map<string, number>();
  /** Per term: the stamp of the last query that used it (dedupes a query's terms). */
  private termStamp = new Uint32Array(0);
  private stamp = 0;
  /**
   * The tools the last `score` touched (the first `touchedCount`), so the next one resets only those.
   * A tool is in it exactly when its scratch score is above 0 (every posting's score is).
   */
  private touched = new Int32Array(0);
  private touchedCount = 0;

  /**
   * `inPool` maps a logged tool name to the pool's own name string (undefined: not in the pool, left
   * out); keying by the pool's strings makes the fusion's lookups by the ranker's names cheap.
   */
  constructor(
    log: LearnedLog,
    decay: (last: number) => number,
    inPool: (tool: string) => string | undefined = (t) => t,
  ) {
    const lengths: number[] = [];
    for (const [name, evidence] of log.lifting()) {
      const poolName = inPool(name);
      if (poolName === undefined) continue;
      const counts = new Map<number, number>();
      let length = 0;
      for (const entry of evidence.entries.values()) {
        const w = entry.count * decay(entry.last);
        if (w < MIN_WEIGHT) continue;
        for (const term of entry.terms) {
          const id = this.intern(term);
          counts.set(id, (counts.get(id) ?? 0) + w);
        }
        length += w * entry.terms.length;
      }
      if (counts.size === 0) continue;
      this.toolIndex.set(poolName, this.toolNames.push(poolName) - 1);
      this.tf.push(counts);
      lengths.push(length);
    }
    this.length = Float64Array.from(lengths);
    this.index();
  }

  get size(): number {
    return this.toolNames.length;
  }

  /** The id of a term the field knows, else undefined. */
  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  /**
   * The ids of a query's terms the field knows, once each: the words as `learnedTerms` reads them
   * (stop words dropped, stems), resolved through a per-word cache.
   */
  queryTerms(query: string): number[] {
    const ids: number[] = [];
    const stamp = ++this.stamp;
    for (const word of words(query.slice(0, MAX_QUERY_CHARS))) {
      let id = this.wordIds.get(word);
      if (id === undefined) {
        id = STOP_WORDS.has(word) ? -1 : (this.termIds.get(stem(word)) ?? -1);
        if (this.wordIds.size < MAX_CACHED_WORDS) this.wordIds.set(word, id);
      }
      if (id < 0 || this.termStamp[id] === stamp) continue;
      this.termStamp[id] = stamp;
      ids.push(id);
    }
    return ids;
  }

  /** As `queryTerms`, for a query already read into index terms (stems, stop words dropped). */
  termIdsOf(terms: readonly string[]): number[] {
    const ids: number[] = [];
    const stamp = ++this.stamp;
    for (const term of terms) {
      const id = this.termIds.get(term);
      if (id === undefined || this.termStamp[id] === stamp) continue;
      this.termStamp[id] = stamp;
      ids.push(id);
    }
    return ids;
  }

  /** Term count (ids are 0 … terms − 1). */
  get terms(): number {
    return this.postTools.length;
  }

  /** A term's postings: the tools whose learned words hold it and each one's score (read only). */
  postings(term: number): { readonly tools: Int32Array; readonly scores: Float64Array } {
    return { tools: this.postTools[term]!, scores: this.postScores[term]! };
  }

  toolId(name: string): number | undefined {
    return this.toolIndex.get(name);
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) this.termIds.set(term, (id = this.termIds.size));
    return id;
  }

  private index(): void {
    const n = this.toolNames.length;
    const df = new Uint32Array(this.termIds.size);
    for (const counts of this.tf) for (const t of counts.keys()) df[t]!++;
    this.idf = Float64Array.from(df, (d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    this.avgLength = n > 0 ? this.length.reduce((s, x) => s + x, 0) / n || 1 : 1;
    // A word most tools' callers used says nothing about which tool: it gets no postings.
    for (let t = 0; t < df.length; t++) if (isGeneric(df[t]!, n)) df[t] = 0;
    const fill = new Uint32Array(df.length);
    this.postTools = Array.from(df, (d) => new Int32Array(d));
    this.postScores = Array.from(df, (d) => new Float64Array(d));
    for (let tool = 0; tool < n; tool++)
      for (const [t, tf] of this.tf[tool]!) {
        if (df[t] === 0) continue;
        const k = fill[t]!++;
        this.postTools[t]![k] = tool;
        this.postScores[t]![k] = this.termScore(t, tf, this.length[tool]!);
      }
    this.maxTf = new Float64Array(df.length);
    for (const counts of this.tf) for (const [t, tf] of counts) if (tf > this.maxTf[t]!) this.maxTf[t] = tf;
    for (let t = 0; t < df.length; t++) {
      const tools = this.postTools[t]!;
      const scores = this.postScores[t]!;
      for (let k = 0; k < tools.length; k++)
        scores[k] = scores[k]! * this.concentration(t, this.tf[tools[k]!]!.get(t)!);
    }
    for (let t = 0; t < df.length; t++) if (df[t]! > MAX_POSTINGS) this.truncate(t);
    this.scratch = new Float64Array(n);
    this.termStamp = new Uint32Array(df.length);
    this.touched = new Int32Array(n);
  }

  /**
   * Keep a common term's `MAX_POSTINGS` strongest tools: what the rest would get from it is small
   * (a common word, diluted in a long learned text) and walking it is most of a query's cost.
   */
  private truncate(term: number): void {
    const tools = this.postTools[term]!;
    const scores = this.postScores[term]!;
    const order = Array.from(tools, (_, k) => k)
      .sort((a, b) => scores[b]! - scores[a]!)
      .slice(0, MAX_POSTINGS);
    order.sort((a, b) => a - b);
    this.postTools[term] = Int32Array.from(order, (k) => tools[k]!);
    this.postScores[term] = Float64Array.from(order, (k) => scores[k]!);
  }

  /**
   * How much of a word's use is this tool's: its count over the word's top count, to the power
   * `CONCENTRATION`. A word many searches used for one tool and once each for that search's
   * companions (a task's "markdown" for the file writer and for whatever else the task called)
   * points at the first.
   */
  private concentration(term: number, tf: number): number {
    return CONCENTRATION > 0 ? (tf / this.maxTf[term]!) ** CONCENTRATION : 1;
  }

  private termScore(term: number, tf: number, length: number): number {
    if (tf <= 0) return 0;
    return (this.idf[term]! * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / this.avgLength));
  }

  /**
   * BM25 of `terms` (ids from `termId`) against each tool's learned words. With `held`, as if
   * that search had not been logged (its tools' counts and lengths without it; the IDF is kept,
   * a close approximation that keeps this a lookup).
   */
  score(terms: readonly number[], held?: HeldOut): FieldScores {
    const scores = this.scratch;
    const touched = this.touched;
    for (let k = 0; k < this.touchedCount; k++) scores[touched[k]!] = 0;
    let count = 0;
    for (const t of terms) {
      const tools = this.postTools[t]!;
      const add = this.postScores[t]!;
      for (let k = 0; k < tools.length; k++) {
        const d = tools[k]!;
        const before = scores[d]!;
        // Listed once, without a branch (a branch here mispredicts on a third of the postings).
        touched[count] = d;
        count += before === 0 ? 1 : 0;
        scores[d] = before + add[k]!;
      }
    }
    if (held) for (const tool of held.tools) count = this.rescoreWithout(tool, terms, held, count);
    this.touchedCount = count;
    if (!held) return { tools: touched.subarray(0, count), scores };
    return { tools: touched.slice(0, count).filter((d) => scores[d]! > 0), scores };
  }

  /** Score `tool` as if `held` had not been logged; returns the new touched count. */
  private rescoreWithout(tool: number, terms: readonly number[], held: HeldOut, count: number): number {
    const counts = this.tf[tool]!;
    const heldTerms = new Set(held.terms);
    const dropped = held.dropped?.get(tool);
    const length = Math.max(0, this.length[tool]! - held.weight * held.terms.length);
    let s = 0;
    for (const t of terms) {
      if (dropped?.has(t)) continue;
      const tf = (counts.get(t) ?? 0) - (heldTerms.has(t) ? held.weight : 0);
      if (tf > 1e-9 && this.postTools[t]!.length > 0) s += this.termScore(t, tf, length) * this.concentration(t, tf);
    }
    const scores = this.scratch;
    if (scores[tool] === 0 && s > 0) this.touched[count++] = tool;
    scores[tool] = s;
    return count;
  }
}
