/**
 * C11 — a hit's explanation: its share of each scoring stage, read from a replay of the scoring
 * with every stage kept (ScoreTrace).
 */
import type { ToolSpec } from '../../core/tool.js';
import type { HitExplanation, TermEvidence } from '../explain.js';
import { actionNames } from './action-agreement.js';
import type { NameMatcher } from './name-match.js';
import { type DefaultRankerOptions, FIELD_NAMES } from './options.js';
import { type Postings, postingWeight } from './postings.js';
import type { RequestTerms } from './request-terms.js';
import type { ScoreTrace } from './score-trace.js';
import { fieldTerms } from './tokenizer.js';

/** What an explanation reads of the index. */
export interface ExplainedIndex {
  readonly tools: readonly ToolSpec[];
  readonly options: DefaultRankerOptions;
  readonly postings: Postings;
  readonly serverOf: Int32Array;
  readonly serverNames: readonly string[];
  readonly serverPostings: Postings | undefined;
  readonly nameMatch: NameMatcher | undefined;
  readonly actions: Uint8Array | undefined;
}

/** One replayed query: its request, where each term came from, the kept stages and the final scores. */
export interface Replay {
  readonly request: RequestTerms;
  readonly sources: ReadonlyMap<string, string>;
  readonly trace: ScoreTrace;
  readonly final: Float64Array;
}

/** C15: what a tool's action verdict multiplied its score by (1: none). */
function actionFactor(options: DefaultRankerOptions, verdict: 'disagrees' | 'destroys' | undefined): number {
  if (verdict === 'disagrees') return options.actionDisagreeFactor;
  if (verdict === 'destroys') return options.unaskedDestructiveFactor;
  return 1;
}

/** The query terms the tool at `i` holds, by their share of its lexical score. */
function termEvidence(index: ExplainedIndex, replay: Replay, i: number): TermEvidence[] {
  const fields = fieldTerms(index.tools[i]!, index.options.maxFieldChars);
  const evidence: TermEvidence[] = [];
  for (const [term, weight] of replay.request.terms) {
    const w = postingWeight(index.postings, term, i);
    if (w === 0) continue;
    const inFields = FIELD_NAMES.filter((f) => fields[f].has(term));
    evidence.push({ term, origin: replay.sources.get(term) ?? 'query', weight, fields: inFields, score: weight * w });
  }
  return evidence.sort((a, b) => b.score - a.score);
}

/** The explanation of the tool at index `i`, ranked `rank` (1-based). */
export function explainHit(
  index: ExplainedIndex,
  replay: Replay,
  name: string,
  rank: number,
  i: number,
): HitExplanation {
  const { options, serverNames } = index;
  const { trace, final } = replay;
  const { terms, plain } = replay.request;
  const lexical = trace.lexical![i]!;
  const withServer = trace.withServer![i]!;
  const mentionLift = trace.mentionLift?.[i] ?? 0;
  const serverText = trace.serverText?.[i] ?? 0;
  // The stages add up before a question's lowering multiplies the sum.
  const factor = actionFactor(options, trace.disagreed?.[i]);
  const beforeQuestion = (trace.lowered?.[i] === 1 ? final[i]! / options.questionChangeFactor : final[i]!) / factor;
  const s = index.serverOf[i]!;
  const serverShare = withServer - mentionLift - serverText - lexical;
  return {
    name,
    rank,
    how: 'keyword ranking',
    score: final[i]!,
    terms: termEvidence(index, replay, i),
    ...(s >= 0 &&
      serverShare > 0 && {
        server: {
          name: serverNames[s]!,
          score: serverShare,
          terms: [...terms.keys()].filter((t) => index.serverPostings && postingWeight(index.serverPostings, t, s) > 0),
        },
      }),
    ...(index.nameMatch && { nameMatch: index.nameMatch.describe(i, terms, trace.nameBonus![i]!, plain) }),
    ...(serverText > 0 && { serverText: { name: serverNames[s]!, score: serverText } }),
    ...(mentionLift > 0 && { serverNamed: { name: serverNames[s]!, score: mentionLift } }),
    ...(trace.lowered?.[i] === 1 && {
      question: { factor: options.questionChangeFactor, because: trace.loweredBecause ?? 'question' },
    }),
    ...(trace.disagreed?.[i] !== undefined && {
      action: {
        tool: actionNames(index.actions![i]!),
        request: actionNames(trace.requestActions ?? 0),
        verdict: trace.disagreed[i]!,
        factor,
      },
    }),
    ...(beforeQuestion - trace.nameBonus![i]! > withServer &&
      trace.bestClause &&
      trace.bestClause[i]! >= 0 && {
        clause: {
          text: trace.clauses![trace.bestClause[i]!]!,
          score: beforeQuestion - trace.nameBonus![i]! - withServer,
        },
      }),
  };
}
