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

export const DEFAULT_LEARNED_CHANNEL: LearnedChannelOptions = { gate: 0.35, halfLifeDays: 90, maxDfShare: 0.02 };

/** Evidence decayed below this (about a year at the default half-life) no longer counts. */
const MIN_EVIDENCE = 0.1;

/** At most this many tools per query: the fusion re-ranks a short list, not the catalog. */
const MAX_MATCHES = 20;

/** A term in up to this many past searches always finds candidates, however small the log. */
const MIN_POSTINGS_CAP = 50;

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
  /** The keys (whole terms joined) of the log entries it stands for: how a replay holds one search out. */
  readonly keys: Set<string>;
  readonly terms: readonly number[];
  weight: number;
  count: number;
  norm: number;
}

/** An immutable snapshot of a log, indexed for matching. Rebuilt when the log changes. */
export class LearnedChannel {
  private readonly toolNames: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly docs: Doc[] = [];
  private idf: Float64Array = new Float64Array(0);
  private postings: number[][] = [];
  private postingNorms: Float64Array[] = [];
  private unseenIdf = 0;
  /** Per term: its weight in the query being matched (0 otherwise); reset after each match. */
  private queryWeight: Float64Array = new Float64Array(0);
  /** Per past search: the stamp of the last match that visited it (dedupes candidates). */
  private seen: Uint32Array = new Uint32Array(0);
  private stamp = 0;

  constructor(
    log: LearnedLog,
    readonly options: LearnedChannelOptions = DEFAULT_LEARNED_CHANNEL,
    now = Date.now(),
    /** Only tools for which this returns true take part (those in the current pool). */
    present?: (tool: string) => boolean,
  ) {
    const decayMs = options.halfLifeDays > 0 ? options.halfLifeDays * 86_400_000 : 0;
    for (const [name, evidence] of log.lifting()) {
      if (present && !present(name)) continue;
      const tool = this.toolNames.push(name) - 1;
      // C14: entries cut to their confirmed words often share their cut: one document each.
      const byTerms = new Map<string, Doc>();
      for (const [key, entry] of evidence.entries) {
        const age = Math.max(0, now - entry.last);
        const weight = entry.count * (decayMs > 0 ? 0.5 ** (age / decayMs) : 1);
        const cut = entry.terms.join(' ');
        const same = byTerms.get(cut);
        if (same) {
          same.weight += weight;
          same.count += entry.count;
          same.keys.add(key);
          continue;
        }
        const terms = entry.terms.map((t) => this.intern(t));
        const doc = { tool, keys: new Set([key]), terms, weight, count: entry.count, norm: 0 };
        byTerms.set(cut, doc);
        this.docs.push(doc);
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
    this.queryWeight = new Float64Array(df.length);
    this.seen = new Uint32Array(n);
    const maxDf = Math.max(MIN_POSTINGS_CAP, this.options.maxDfShare * n);
    this.postings = Array.from({ length: df.length }, () => []);
    for (const doc of this.docs) {
      let sq = 0;
      for (const t of doc.terms) sq += this.idf[t]! ** 2;
      doc.norm = Math.sqrt(sq);
    }
    // Postings in order of norm, so a match walks only the norms that can pass (a binary search).
    const order = this.docs.map((_, i) => i).sort((a, b) => this.docs[a]!.norm - this.docs[b]!.norm);
    for (const i of order) for (const t of this.docs[i]!.terms) if (df[t]! <= maxDf) this.postings[t]!.push(i);
    this.postingNorms = this.postings.map((list) => Float64Array.from(list, (i) => this.docs[i]!.norm));
  }

  /**
   * Tools earlier searches like `query` led to, best first; empty when none passes the gate.
   *
   * Only past searches that can pass the gate are scored. One passes only if the query terms it
   * shares carry at least gate² of the query's squared IDF mass (cosine ≥ gate, and its own norm
   * is at least the shared part's), so only the postings of the query's rarest terms — those
   * without which the rest falls short of that — are walked (exact, and cheap: rare = short
   * lists); and its norm must lie within [gate·|q|, |q|/gate].
   */
  match(query: string): LearnedMatch[] {
    return this.matchTerms(learnedTerms(query));
  }

  /**
   * `match` for a query's learned terms (`learnedTerms`), when the caller has them already. With
   * `held`, as if one search with that entry key (and decayed weight) had not been logged (a replay).
   */
  matchTerms(terms: readonly string[], held?: { readonly key: string; readonly weight: number }): LearnedMatch[] {
    if (this.docs.length === 0 || terms.length === 0) return [];
    const ids: number[] = [];
    let sq = 0;
    for (const term of terms) {
      const id = this.termIds.get(term);
      const idf = id === undefined ? this.unseenIdf : this.idf[id]!;
      sq += idf * idf;
      if (id !== undefined) {
        ids.push(id);
        this.queryWeight[id] = idf * idf;
      }
    }
    try {
      return this.scoreCandidates(ids, sq, held);
    } finally {
      for (const id of ids) this.queryWeight[id] = 0;
    }
  }

  private scoreCandidates(
    ids: number[],
    querySq: number,
    held: { readonly key: string; readonly weight: number } | undefined,
  ): LearnedMatch[] {
    const gate = this.options.gate;
    const queryNorm = Math.sqrt(querySq);
    const minNorm = gate * queryNorm;
    const maxNorm = queryNorm / gate;
    ids.sort((a, b) => this.queryWeight[b]! - this.queryWeight[a]!);
    let rest = 0;
    for (const id of ids) rest += this.queryWeight[id]!;
    const need = gate * gate * querySq;
    const stamp = ++this.stamp;
    const best = new Map<number, { similarity: number; searches: number; evidence: number }>();
    for (const id of ids) {
      if (rest < need) break;
      rest -= this.queryWeight[id]!;
      const list = this.postings[id]!;
      const norms = this.postingNorms[id]!;
      for (let k = lowerBound(norms, minNorm); k < list.length && norms[k]! <= maxNorm; k++) {
        const d = list[k]!;
        if (this.seen[d] === stamp) continue;
        this.seen[d] = stamp;
        const doc = this.docs[d]!;
        const weight = held !== undefined && doc.keys.has(held.key) ? doc.weight - held.weight : doc.weight;
        if (weight <= 1e-9) continue;
        let dot = 0;
        for (const t of doc.terms) dot += this.queryWeight[t]!;
        const similarity = dot / (doc.norm * queryNorm);
        if (similarity < gate) continue;
        const seen = best.get(doc.tool);
        if (!seen) best.set(doc.tool, { similarity, searches: weight, evidence: similarity * weight });
        else {
          seen.similarity = Math.max(seen.similarity, similarity);
          seen.searches += weight;
          seen.evidence += similarity * weight;
        }
      }
    }
    const out: LearnedMatch[] = [];
    for (const [tool, m] of best)
      if (m.evidence >= MIN_EVIDENCE)
        out.push({
          tool: this.toolNames[tool]!,
          similarity: m.similarity,
          searches: Math.max(1, Math.round(m.searches)),
          evidence: m.evidence,
        });
    out.sort((a, b) => b.similarity - a.similarity || b.searches - a.searches);
    return out.length > MAX_MATCHES ? out.slice(0, MAX_MATCHES) : out;
  }
}

/** First index whose value is ≥ `value` in an ascending array. */
function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
