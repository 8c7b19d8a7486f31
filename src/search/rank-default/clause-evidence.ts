/**
 * C6 — clause evidence for tasks of several steps ("find X, then do Y and save Z"): each step needs
 * its own tool, but the whole-query score favours tools matching the most words overall.
 */
import { splitClauses } from './clauses.js';
import type { ClauseBuffers, Postings, TouchedSet } from './postings.js';
import type { ScoreTrace } from './score-trace.js';

/** What the clause pass reads of the index. */
export interface ClauseIndex {
  readonly postings: Postings;
  readonly touched: TouchedSet;
  /** The index's reused clause buffers (allocated on first use). */
  buffers(): ClauseBuffers;
  /** A clause's weighted terms. */
  termsOf(clause: string): Map<string, number>;
}

/**
 * Each clause is scored on its own; a tool's best clause score (normalized per clause) times
 * `weight ×` the best whole-request score is added, so the best tool of every step can reach the top.
 */
export function addClauseEvidence(
  index: ClauseIndex,
  text: string,
  scores: Float64Array,
  weight: number,
  trace?: ScoreTrace,
): void {
  const clauses = splitClauses(text);
  if (clauses.length < 2) return;
  const { touched, postings } = index;
  let max = 0;
  for (let a = 0; a < touched.count; a++) {
    const v = scores[touched.list[a]!]!;
    if (v > max) max = v;
  }
  if (max <= 0) return;
  if (trace) {
    trace.clauses = clauses;
    trace.bestClause = new Int32Array(scores.length).fill(-1);
  }
  // Only tools in some clause term's postings are visited, with reused typed buffers: the extra
  // work is about one more pass over the query's postings, not a pass over the catalog per clause.
  const { clauseScores, best, inClause, inAny } = index.buffers();
  const { list, mark } = inClause;
  for (let c = 0; c < clauses.length; c++) {
    const terms = index.termsOf(clauses[c]!);
    let cmax = 0;
    if (postings.nonNegative) cmax = inClause.accumulateMax(postings, terms, clauseScores);
    else {
      inClause.accumulate(postings, terms, clauseScores);
      for (let a = 0; a < inClause.count; a++) {
        const v = clauseScores[list[a]!]!;
        if (v > cmax) cmax = v;
      }
    }
    // One pass reads each tool's normalized clause score and empties the clause's buffers.
    for (let a = 0; a < inClause.count; a++) {
      const d = list[a]!;
      const v = cmax > 0 ? clauseScores[d]! / cmax : 0;
      if (v > best[d]!) {
        if (best[d] === 0) inAny.add(d);
        best[d] = v;
        if (trace) trace.bestClause![d] = c;
      }
      clauseScores[d] = 0;
      mark[d] = 0;
    }
    inClause.count = 0;
  }
  const w = weight * max;
  for (let a = 0; a < inAny.count; a++) {
    const d = inAny.list[a]!;
    touched.add(d);
    scores[d]! += w * best[d]!;
    best[d] = 0;
  }
  inAny.clear();
}
