/**
 * C13 — fusing the learned channel with the lexical ranking. The lexical list (a deeper cut than
 * the result) is re-scored as its score over the best lexical score plus `weight` times the
 * learned strength; a tool the channel matches strongly (`entry`) enters even when the lexical
 * list missed it (the strong-match path: a stricter bar than lifting a tool the words already
 * found). A tool the channel does not match keeps its lexical score, so with no similar past
 * search the order is exactly the lexical one.
 */
import type { RankedTool } from '../ranker.js';
import type { LearnedMatch } from './channel.js';

export interface LearnedFusionOptions {
  /** Weight of the learned strength against the normalized lexical score (1 = the top hit's). */
  readonly weight: number;
  /** How many lexical hits are re-scored (at least the result's limit). */
  readonly depth: number;
  /** Upper bound of a tool's learned strength (in units of the top lexical score). */
  readonly cap: number;
  /** A tool the lexical list missed enters only when a past search is at least this similar. */
  readonly entry: number;
}

export const DEFAULT_LEARNED_FUSION: LearnedFusionOptions = { weight: 1, depth: 30, cap: 2, entry: 0.4 };

export interface LearnedHit {
  readonly name: string;
  readonly score: number;
  /** Present when learned evidence moved or brought this tool. */
  readonly learned?: LearnedMatch;
  /** 1-based lexical rank; absent when only the learned channel found it. */
  readonly lexicalRank?: number;
  /** The learned field's lift (over the top lexical score) when the words of earlier searches moved it. */
  readonly words?: number;
}

/**
 * The learned strength of a match: the similarity-weighted count of the past searches past the
 * gate, capped, so intents that recur (many similar searches led here) lift more than one look-alike.
 */
export function learnedStrength(match: LearnedMatch, cap: number): number {
  return Math.min(cap, match.evidence);
}

/** The learned field's part of a query's fusion: its weight, each tool's raw score, its best tools. */
export interface FieldLift {
  readonly weight: number;
  scoreOf(name: string): number;
  /** The field's best tools for the query (those that may enter without a lexical match). */
  readonly candidates: readonly string[];
}

export function fuseLearned(
  lexical: readonly RankedTool[],
  matches: readonly LearnedMatch[],
  limit: number,
  options: LearnedFusionOptions = DEFAULT_LEARNED_FUSION,
  accept?: (name: string) => boolean,
  field?: FieldLift,
): LearnedHit[] {
  const top = lexical[0]?.score ?? 0;
  // The field's scores are in the lexical score's units (both BM25-like): over the top lexical score.
  const unit = top > 0 ? top : 1;
  const byTool = new Map(matches.map((m) => [m.tool, m]));
  const lifts = new Map(matches.map((m) => [m.tool, options.weight * learnedStrength(m, options.cap)]));
  const fieldLift = (name: string) => (field ? (field.weight * field.scoreOf(name)) / unit : 0);
  const scored = new Map<string, LearnedHit>();
  for (const [i, hit] of lexical.entries()) {
    const learned = byTool.get(hit.name);
    const words = fieldLift(hit.name);
    const score = hit.score / unit + (learned ? lifts.get(hit.name)! : 0) + words;
    scored.set(hit.name, {
      name: hit.name,
      score,
      lexicalRank: i + 1,
      ...(learned && { learned }),
      ...(words > 0 && { words }),
    });
  }
  for (const m of matches) {
    if (scored.has(m.tool) || m.similarity < options.entry || (accept && !accept(m.tool))) continue;
    const words = fieldLift(m.tool);
    scored.set(m.tool, { name: m.tool, score: lifts.get(m.tool)! + words, learned: m, ...(words > 0 && { words }) });
  }
  if (field)
    for (const name of field.candidates) {
      if (scored.has(name) || (accept && !accept(name))) continue;
      const words = fieldLift(name);
      if (words > 0) scored.set(name, { name, score: words, words });
    }
  return [...scored.values()]
    .sort((a, b) => b.score - a.score || (a.lexicalRank ?? 1e9) - (b.lexicalRank ?? 1e9))
    .slice(0, limit);
}

/** The searcher's keyword path with a learned channel: a deeper lexical cut, re-scored and cut to `limit`. */
export function rankWithLearning(
  lexicalSearch: (depth: number) => readonly RankedTool[],
  matches: readonly LearnedMatch[],
  limit: number,
  options: LearnedFusionOptions = DEFAULT_LEARNED_FUSION,
  accept?: (name: string) => boolean,
  field?: FieldLift,
): LearnedHit[] {
  if (matches.length === 0 && (field === undefined || field.candidates.length === 0))
    return lexicalSearch(limit).map((r, i) => ({ name: r.name, score: r.score, lexicalRank: i + 1 }));
  return fuseLearned(lexicalSearch(Math.max(limit, options.depth)), matches, limit, options, accept, field);
}
