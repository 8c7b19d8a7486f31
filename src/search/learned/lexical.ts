/**
 * C13 — what the learned ranking needs of the lexical ranker: the query's ranking, the same ranker
 * for any text (the log's replay), and, where the ranker keeps them, every tool's score from its
 * last search, so the learned field is fused with each tool's own score rather than only with a
 * cut of the lexical list (a tool the words placed 40th and the log knows well is found either way).
 */
import type { LexicalScores, RankedTool, ScoreBoost } from '../ranker.js';
import type { LearnedField } from './field.js';

/** Search text → the lexical ranking (the searcher's own ranker), `depth` deep. */
export type LexicalFor = (text: string, depth: number) => readonly RankedTool[];

export interface LexicalSource {
  /** The query's lexical ranking, `depth` deep. */
  readonly search: (depth: number) => readonly RankedTool[];
  /** The same ranker for any text: without it the log cannot be replayed, so the field stays off. */
  readonly searchText?: LexicalFor;
  /** Every tool's score from the last search (either of the two above), when the ranker keeps them. */
  readonly lastScores?: () => LexicalScores | undefined;
  /** The query's ranking with `boost` added before the cut, when the ranker takes one. */
  readonly searchBoosted?: (depth: number, boost: ScoreBoost) => readonly RankedTool[];
}

/** What a ranking with learned evidence returns: how many, which tools may be in it, and whether it is explained. */
export interface LearnedCut {
  readonly limit: number;
  /** Only tools it accepts (C4's `+required` terms). */
  readonly accept?: (name: string) => boolean;
  /** The caller explains the hits (C11): each hit's learned lift is worked out only then. */
  readonly explain?: boolean;
}

const positions = new WeakMap<LearnedField, { names: readonly string[]; at: Int32Array }>();

/** Per field tool: its position in the ranker's `names` (-1: not there). Built once per field and ranker. */
export function rankerPositions(field: LearnedField, names: readonly string[]): Int32Array {
  const cached = positions.get(field);
  if (cached?.names === names) return cached.at;
  const index = new Map<string, number>();
  for (let i = 0; i < names.length; i++) index.set(names[i]!, i);
  const at = Int32Array.from(field.toolNames, (name) => index.get(name) ?? -1);
  positions.set(field, { names, at });
  return at;
}
