/**
 * C6/C15 — evidence from a tool's server: what its tools say together (server documents), and what
 * the server says about itself (title, instructions).
 */
import { accumulate, type Postings, type TouchedSet } from './postings.js';
import type { ScoreTrace } from './score-trace.js';

/** C15: postings of what each server says about itself, each server's tools, and a reused buffer. */
export interface ServerText {
  readonly postings: Postings;
  readonly tools: readonly Int32Array[];
  readonly scratch: Float64Array;
}

/**
 * Tools of a server whose tools, taken together, match the query get `weight ×` that score;
 * `serverScores` (zeroed, one per server) receives the servers' scores.
 */
export function addServerEvidence(
  serverPostings: Postings,
  serverOf: Int32Array,
  terms: Map<string, number>,
  scores: Float64Array,
  touched: TouchedSet,
  weight: number,
  serverScores: Float64Array,
): void {
  accumulate(serverPostings, terms, serverScores);
  const list = touched.list;
  for (let a = 0; a < touched.count; a++) {
    const i = list[a]!;
    const s = serverOf[i]!;
    if (s >= 0 && scores[i]! > 0) scores[i]! += weight * serverScores[s]!;
  }
}

/**
 * C15: a tool whose own words match nothing, of a server whose own text (title, instructions)
 * matches the request, gets `weight ×` that match: a catch-all tool ("ask anything") is found
 * through what its server says it is for.
 */
export function addServerText(
  serverText: ServerText,
  terms: Map<string, number>,
  scores: Float64Array,
  touched: TouchedSet,
  weight: number,
  trace?: ScoreTrace,
): void {
  const { postings, tools, scratch } = serverText;
  scratch.fill(0);
  accumulate(postings, terms, scratch);
  for (let s = 0; s < scratch.length; s++) {
    const lift = weight * scratch[s]!;
    if (!(lift > 0)) continue;
    if (trace) trace.serverText ??= new Float64Array(scores.length);
    for (const i of tools[s]!) {
      // A tool its own words reached is ranked by them (and the server evidence above): lifting
      // every tool of a server with long instructions cost the holdouts up to 0.009 at R@1.
      if (scores[i]! > 0) continue;
      touched.add(i);
      scores[i]! += lift;
      if (trace) trace.serverText![i] = lift;
    }
  }
}
