/**
 * C15 — catch-all tools. A tool named for asking or answering (`perplexity_ask`, `ask_question`,
 * `answer`) takes any question, and its one-line description ("Engages in a conversation using the
 * Sonar API") holds none of the question's words: "why is the sky blue?" never reached it. A plain
 * question lifts such tools by a share of the best score, so they reach the top hits without
 * beating a tool whose own words match the question.
 */
import { stem } from '../vocabulary.js';
import type { TouchedSet } from './postings.js';
import type { Fields } from './tokenizer.js';

/** Name parts that make a tool a catch-all for questions. */
const ANSWERING = ['ask', 'answer', 'question', 'questions'].map(stem);

/** The tools whose name holds an answering part (their positions), or undefined when none does. */
export function answeringTools(docs: readonly Fields[], termOf: ReadonlyMap<string, number>): Int32Array | undefined {
  const ids = new Set(ANSWERING.map((s) => termOf.get(s)).filter((id) => id !== undefined));
  if (ids.size === 0) return undefined;
  const out: number[] = [];
  docs.forEach((d, i) => {
    if (d.name.some((t) => ids.has(t))) out.push(i);
  });
  return out.length > 0 ? Int32Array.from(out) : undefined;
}

/** Add `share × best score` (at least `share`: a question nothing matches) to each answering tool. */
export function liftAnswering(
  tools: Int32Array,
  scores: Float64Array,
  touched: TouchedSet,
  share: number,
  trace?: { answering?: Float64Array },
): void {
  let best = 0;
  for (let a = 0; a < touched.count; a++) best = Math.max(best, scores[touched.list[a]!]!);
  const lift = share * Math.max(1, best);
  if (trace) trace.answering = new Float64Array(scores.length);
  for (const i of tools) {
    touched.add(i);
    scores[i]! += lift;
    if (trace) trace.answering![i] = lift;
  }
}
