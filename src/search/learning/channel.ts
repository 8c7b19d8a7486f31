/**
 * C13 — the learned channel: which tools earlier searches like this one led to. Kept apart from
 * the tools' own text, with its own statistics: each distinct past search is a small document of
 * terms, IDF is computed over the log (so words every search uses weigh nothing), and a new query
 * matches a past one by IDF-weighted cosine. Terms the log has never seen keep the highest IDF, so
 * a query whose rare words are new cannot match on its generic ones (the gate below).
 */
import type { LearnedLog } from './log.js';
import { learnedTerms } from './terms.js';

export interface LearnedChannelOptions {
  /** Minimum cosine between the query and a past search for that search to count (the gate). */
  readonly gate: number;
  /** Half-life of evidence in days (older searches count less); 0 = no decay. */
  readonly halfLifeDays: number;
  /** Terms in more than this share of the log's searches are not used to find candidates. */
  readonly maxDfShare: number;
}

export const DEFAULT_LEARNED_CHANNEL: LearnedChannelOptions = { gate: 0.4, halfLifeDays: 90, maxDfShare: 0.1 };

/** Evidence decayed below this (about a year at the default half-life) no longer counts. */
const MIN_EVIDENCE = 0.1;

/** What the channel knows of one tool for one query. */
export interface LearnedMatch {
  readonly tool: string;
  /** Best similarity of a past search that led here, 0–1 (already past the gate). */
  readonly similarity: number;
  /** Earlier searches (counted, decayed weight rounded) past the gate that led here. */
  readonly searches: number;
  /** Sum of similarity × decayed count over those searches: the evidence the fusion weighs. */
  readonly evidence: number;
}

interface Doc {
  readonly tool: number;
  readonly terms: readonly number[];
  readonly weight: number;
  readonly count: number;
  norm: number;
}

/** An immutable snapshot of a log, indexed for matching. Rebuilt when the log changes. */
export class LearnedChannel {
  private readonly toolNames: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly docs: Doc[] = [];
  private idf: Float64Array = new Float64Array(0);
  private postings: number[][] = [];
  private unseenIdf = 0;

  constructor(
    log: LearnedLog,
    readonly options: LearnedChannelOptions = DEFAULT_LEARNED_CHANNEL,
    now = Date.now(),
    /** Only tools for which this returns true take part (those in the current pool). */
    present?: (tool: string) => boolean,
  ) {
    const decayMs = options.halfLifeDays > 0 ? options.halfLifeDays * 86_400_000 : 0;
    for (const [name, evidence] of log.entries()) {
      if (present && !present(name)) continue;
      const tool = this.toolNames.push(name) - 1;
      for (const entry of evidence.entries.values()) {
        const age = Math.max(0, now - entry.last);
        const decay = decayMs > 0 ? 0.5 ** (age / decayMs) : 1;
        const terms = entry.terms.map((t) => this.intern(t));
        this.docs.push({ tool, terms, weight: entry.count * decay, count: entry.count, norm: 0 });
      }
    }
    this.computeStatistics();
  }

  get size(): number {
    return this.docs.length;
  }

  private intern(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) this.termIds.set(term, (id = this.termIds.size));
    return id;
  }

  private computeStatistics(): void {
    const n = this.docs.length;
    const df = new Uint32Array(this.termIds.size);
    for (const doc of this.docs) for (const t of doc.terms) df[t]!++;
    this.idf = new Float64Array(df.length);
    for (let t = 0; t < df.length; t++) this.idf[t] = Math.log(1 + (n - df[t]! + 0.5) / (df[t]! + 0.5));
    this.unseenIdf = Math.log(1 + (n + 0.5) / 0.5);
    const maxDf = Math.max(1, this.options.maxDfShare * n);
    this.postings = Array.from({ length: df.length }, () => []);
    for (const [i, doc] of this.docs.entries()) {
      let sq = 0;
      for (const t of doc.terms) {
        sq += this.idf[t]! ** 2;
        if (df[t]! <= maxDf) this.postings[t]!.push(i);
      }
      doc.norm = Math.sqrt(sq);
    }
  }

  /** Tools earlier searches like `query` led to, best first; empty when none passes the gate. */
  match(query: string): LearnedMatch[] {
    if (this.docs.length === 0) return [];
    const terms = learnedTerms(query);
    if (terms.length === 0) return [];
    const weights = new Map<number, number>();
    let sq = 0;
    for (const term of terms) {
      const id = this.termIds.get(term);
      const idf = id === undefined ? this.unseenIdf : this.idf[id]!;
      sq += idf * idf;
      if (id !== undefined) weights.set(id, idf * idf);
    }
    const queryNorm = Math.sqrt(sq);
    const dots = new Map<number, number>();
    for (const id of weights.keys()) for (const d of this.postings[id]!) dots.set(d, 0);
    const best = new Map<number, { similarity: number; searches: number; evidence: number }>();
    for (const d of dots.keys()) {
      const doc = this.docs[d]!;
      let dot = 0;
      for (const t of doc.terms) dot += weights.get(t) ?? 0;
      const similarity = doc.norm > 0 ? dot / (doc.norm * queryNorm) : 0;
      if (similarity < this.options.gate) continue;
      const seen = best.get(doc.tool);
      if (!seen) best.set(doc.tool, { similarity, searches: doc.weight, evidence: similarity * doc.weight });
      else {
        seen.similarity = Math.max(seen.similarity, similarity);
        seen.searches += doc.weight;
        seen.evidence += similarity * doc.weight;
      }
    }
    return [...best]
      .filter(([, m]) => m.evidence >= MIN_EVIDENCE)
      .map(([tool, m]) => ({
        tool: this.toolNames[tool]!,
        similarity: m.similarity,
        searches: Math.max(1, Math.round(m.searches)),
        evidence: m.evidence,
      }))
      .sort((a, b) => b.similarity - a.similarity || b.searches - a.searches);
  }
}
