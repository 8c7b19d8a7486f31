/** C11 — what one query's scoring kept, stage by stage, when it is explained. */
import type { Agreement } from './action-agreement.js';

/** Per-stage scores of one query, kept only when explaining (C11). */
export interface ScoreTrace {
  lexical?: Float64Array;
  withServer?: Float64Array;
  serverScores?: Float64Array;
  /** Per tool: index of the clause that gave its best normalized clause score, or -1. */
  bestClause?: Int32Array;
  clauses?: string[];
  /** Per tool: what a plain question's lift of answering tools added (C15). */
  answering?: Float64Array;
  /** Per tool: what its server's own text (title, instructions) added (C15). */
  serverText?: Float64Array;
  /** Per tool: what the literal name match added (C14). */
  nameBonus?: Float64Array;
  /** Per tool: what naming its server in the request added (C14). */
  mentionLift?: Float64Array;
  /** Per tool: 1 when the request asks to see and the tool's name is a change, so its score was lowered (C14). */
  lowered?: Uint8Array;
  /** Why the request asks to see: a question, or a short request naming no action. */
  loweredBecause?: 'question' | 'no action';
  /** C15: the request's actions (bits) and, per tool, how its action stood to them when it lowered the score. */
  requestActions?: number;
  disagreed?: (Exclude<Agreement, 'agrees' | 'neutral'> | undefined)[];
}
