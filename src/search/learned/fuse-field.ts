/**
 * C13 — the learned field fused with the lexical ranking: a tool's score is its lexical score plus
 * weight × its field score, both over the top lexical score. Two ways to the same sum:
 * - a ranker that takes a `ScoreBoost` (the default) adds the field inside its own pass
 *   (field-boost.ts), so the sum is exact for every tool: one the words placed 40th and the log
 *   knows well is found;
 * - any other ranker gives its list `depth` deep, and a tool past that cut enters on its field part
 *   alone.
 * Runs on every search while the field is on: ids and typed buffers, objects only for the result.
 */
import { type RankedTool, topKOf } from '../ranker.js';
import type { LearnedField } from './field.js';
import { FieldBoost } from './field-boost.js';
import type { LearnedHit } from './fuse.js';
import type { LearnedCut, LexicalSource } from './lexical.js';

/** Reused between searches (a search runs to completion before the next starts). */
const scratch = { fused: new Float64Array(0), chosen: [] as number[] };

export function rankWithField(
  lexical: LexicalSource,
  field: LearnedField,
  query: string,
  weight: number,
  depth: number,
  cut: LearnedCut,
): LearnedHit[] {
  const { limit, accept } = cut;
  if (lexical.searchBoosted) return rankBoosted(lexical.searchBoosted, field, weight, limit, cut.explain === true);
  const ids = field.queryTerms(query);
  const scored = ids.length > 0 ? field.score(ids) : undefined;
  if (!scored || scored.tools.length === 0) return lexicalHits(lexical.search(limit));
  const { tools, scores } = scored;
  const list = lexical.search(Math.max(limit, depth));
  const unit = (list[0]?.score ?? 0) > 0 ? list[0]!.score : 1;
  const lift = weight / unit;
  if (scratch.fused.length < field.size) scratch.fused = new Float64Array(field.size);
  const { fused, chosen } = scratch;
  for (let k = 0; k < tools.length; k++) fused[tools[k]!] = lift * scores[tools[k]!]!;
  for (const hit of list) {
    const d = field.toolId(hit.name);
    if (d !== undefined && scores[d]! > 0) fused[d]! += hit.score / unit;
  }
  topKOf(fused, tools, field.toolNames, limit, accept, chosen);
  return merge(field, chosen, fused, scores, lift, list, unit, limit);
}

/**
 * The field added inside the ranker's pass: its order is the fused order over every tool (the sum
 * in raw units orders as the sum over the top lexical score does).
 */
function rankBoosted(
  searchBoosted: NonNullable<LexicalSource['searchBoosted']>,
  field: LearnedField,
  weight: number,
  limit: number,
  explain: boolean,
): LearnedHit[] {
  const boost = new FieldBoost(field, weight);
  const hits = searchBoosted(limit, boost);
  // Each hit's lift is a search of the field's postings per query term: done only to explain.
  if (!explain) return [...hits];
  // What the field added to the hit's score, in the ranker's units like the other evidence C11 shows.
  return hits.map((hit) => {
    const lift = boost.liftOf(hit.name);
    return lift > 0 ? { name: hit.name, score: hit.score, words: lift } : { name: hit.name, score: hit.score };
  });
}

/**
 * The field's best (fused scores, best first) merged with the lexical hits the field does not
 * score (their lexical score alone), `limit` long; on equal scores the lexical hit goes first.
 */
function merge(
  field: LearnedField,
  chosen: readonly number[],
  fused: Float64Array,
  scores: Float64Array,
  lift: number,
  list: readonly RankedTool[],
  unit: number,
  limit: number,
): LearnedHit[] {
  const out: LearnedHit[] = [];
  let a = 0;
  let b = 0;
  const scoredByField = (hit: RankedTool) => {
    const d = field.toolId(hit.name);
    return d !== undefined && scores[d]! > 0;
  };
  while (out.length < limit) {
    while (b < list.length && scoredByField(list[b]!)) b++;
    const lexicalNext = b < list.length ? list[b]!.score / unit : -1;
    if (a < chosen.length && fused[chosen[a]!]! > lexicalNext) {
      const d = chosen[a++]!;
      const name = field.toolNames[d]!;
      const rank = list.findIndex((h) => h.name === name);
      // What the field added, in the ranker's units (as C11's other evidence), not over the top score.
      const words = lift * unit * scores[d]!;
      out.push({ name, score: fused[d]!, ...(rank >= 0 && { lexicalRank: rank + 1 }), words });
    } else if (b < list.length) {
      out.push({ name: list[b]!.name, score: lexicalNext, lexicalRank: b + 1 });
      b++;
    } else break;
  }
  return out;
}

function lexicalHits(lexical: readonly RankedTool[]): LearnedHit[] {
  return lexical.map((r, i) => ({ name: r.name, score: r.score, lexicalRank: i + 1 }));
}
