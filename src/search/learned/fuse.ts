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
  /** What the learned field added to the tool's score (the ranker's units) when the words of earlier searches moved it. */
  readonly words?: number;
}

/**
 * The learned strength of a match: the similarity-weighted count of the past searches past the
 * gate, capped, so intents that recur (many similar searches led here) lift more than one look-alike.
 */
export function learnedStrength(match: LearnedMatch, cap: number): number {
  return Math.min(cap, match.evidence);
}

export function fuseLearned(
  lexical: readonly RankedTool[],
  matches: readonly LearnedMatch[],
  limit: number,
  options: LearnedFusionOptions = DEFAULT_LEARNED_FUSION,
  accept?: (name: string) => boolean,
): LearnedHit[] {
  const top = lexical[0]?.score ?? 0;
  const unit = top > 0 ? top : 1;
  const byTool = matches.length > 0 ? new Map(matches.map((m) => [m.tool, m])) : undefined;
  const lift = (m: LearnedMatch) => options.weight * learnedStrength(m, options.cap);
  const scored = new Map<string, LearnedHit>();
  for (let i = 0; i < lexical.length; i++) {
    const name = lexical[i]!.name;
    const learned = byTool?.get(name);
    scored.set(name, hitOf(name, lexical[i]!.score / unit, i + 1, learned, lift));
  }
  for (const m of matches) {
    if (scored.has(m.tool) || m.similarity < options.entry || (accept && !accept(m.tool))) continue;
    scored.set(m.tool, hitOf(m.tool, 0, undefined, m, lift));
  }
  return [...scored.values()]
    .sort((a, b) => b.score - a.score || (a.lexicalRank ?? 1e9) - (b.lexicalRank ?? 1e9))
    .slice(0, limit);
}

/** One fused hit: its lexical part plus the learned lift that moved it (only the keys that apply). */
function hitOf(
  name: string,
  base: number,
  lexicalRank: number | undefined,
  learned: LearnedMatch | undefined,
  lift: (m: LearnedMatch) => number,
): LearnedHit {
  const hit: { -readonly [K in keyof LearnedHit]: LearnedHit[K] } = { name, score: base };
  if (lexicalRank !== undefined) hit.lexicalRank = lexicalRank;
  if (learned) {
    hit.score += lift(learned);
    hit.learned = learned;
  }
  return hit;
}

/**
 * The kNN channel fused over the field's list (`fielded`, `depth` deep): each hit keeps what the
 * field added and its lexical rank, for explanations.
 */
export function stackLearned(
  fielded: readonly LearnedHit[],
  matches: readonly LearnedMatch[],
  limit: number,
  options: LearnedFusionOptions = DEFAULT_LEARNED_FUSION,
  accept?: (name: string) => boolean,
): LearnedHit[] {
  if (matches.length === 0) return fielded.slice(0, limit);
  const byName = new Map(fielded.map((hit) => [hit.name, hit]));
  return fuseLearned(fielded, matches, limit, options, accept).map(({ lexicalRank: _ofField, ...hit }) => {
    const own = byName.get(hit.name);
    return {
      ...hit,
      ...(own?.lexicalRank !== undefined && { lexicalRank: own.lexicalRank }),
      ...(own?.words !== undefined && { words: own.words }),
    };
  });
}

/** The searcher's keyword path with a learned channel: a deeper lexical cut, re-scored and cut to `limit`. */
export function rankWithLearning(
  lexicalSearch: (depth: number) => readonly RankedTool[],
  matches: readonly LearnedMatch[],
  limit: number,
  options: LearnedFusionOptions = DEFAULT_LEARNED_FUSION,
  accept?: (name: string) => boolean,
): LearnedHit[] {
  if (matches.length === 0)
    return lexicalSearch(limit).map((r, i) => ({ name: r.name, score: r.score, lexicalRank: i + 1 }));
  return fuseLearned(lexicalSearch(Math.max(limit, options.depth)), matches, limit, options, accept);
}
