/**
 * C13 — the learned field fused with the lexical ranking: each lexical hit's score over the top
 * lexical score, plus weight × its field score over the same; the field's best tools that the
 * lexical list missed enter on their field part alone. Runs on every search while the field is on,
 * so it works on the field's ids and parallel arrays and builds objects only for the result.
 */
import type { RankedTool } from '../ranker.js';
import type { LearnedField } from './field.js';
import type { LearnedHit } from './fuse.js';

/** The field's best tools that may enter a result without a lexical match (at least the result's limit). */
export const FIELD_CANDIDATES = 10;

export function rankWithField(
  lexicalSearch: (depth: number) => readonly RankedTool[],
  field: LearnedField,
  query: string,
  weight: number,
  limit: number,
  depth: number,
  accept?: (name: string) => boolean,
): LearnedHit[] {
  const ids = field.queryTerms(query);
  const scored = ids.length > 0 ? field.score(ids) : undefined;
  if (!scored || scored.tools.length === 0) return lexicalHits(lexicalSearch(limit));
  const { tools, scores } = scored;
  const candidates = topK(tools, scores, Math.max(limit, FIELD_CANDIDATES));
  const lexical = lexicalSearch(Math.max(limit, depth));
  const top = lexical[0]?.score ?? 0;
  const unit = top > 0 ? top : 1;
  const names: string[] = [];
  const total: number[] = [];
  const words: number[] = [];
  const inLexical = new Set<number>();
  for (const hit of lexical) {
    const id = field.toolId(hit.name);
    const lift = id === undefined ? 0 : (weight * scores[id]!) / unit;
    if (id !== undefined) inLexical.add(id);
    names.push(hit.name);
    total.push(hit.score / unit + lift);
    words.push(lift);
  }
  const lexicalCount = names.length;
  for (const d of candidates) {
    const name = field.toolNames[d]!;
    if (inLexical.has(d) || (accept && !accept(name))) continue;
    const lift = (weight * scores[d]!) / unit;
    names.push(name);
    total.push(lift);
    words.push(lift);
  }
  // Best first; ties keep the lexical order, then the field's (the order they were pushed).
  const all = new Int32Array(total.length);
  for (let i = 0; i < all.length; i++) all[i] = i;
  return topK(all, total, limit).map((i) => {
    const hit: { -readonly [K in keyof LearnedHit]: LearnedHit[K] } = { name: names[i]!, score: total[i]! };
    if (i < lexicalCount) hit.lexicalRank = i + 1;
    if (words[i]! > 0) hit.words = words[i]!;
    return hit;
  });
}

function lexicalHits(lexical: readonly RankedTool[]): LearnedHit[] {
  return lexical.map((r, i) => ({ name: r.name, score: r.score, lexicalRank: i + 1 }));
}

/** The `k` best of `ids` by `scores`, best first, the earlier on ties (an insertion into a short sorted list). */
function topK(ids: Int32Array, scores: ArrayLike<number>, k: number): number[] {
  const top: number[] = [];
  for (let j = 0; j < ids.length; j++) {
    const d = ids[j]!;
    const s = scores[d]!;
    if (top.length === k && s <= scores[top[k - 1]!]!) continue;
    let i = Math.min(top.length, k - 1);
    while (i > 0 && scores[top[i - 1]!]! < s) i--;
    top.splice(i, 0, d);
    if (top.length > k) top.pop();
  }
  return top;
}
