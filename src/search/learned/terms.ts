/**
 * C13 — what the learned channel keeps of a query: its index terms (stop words dropped, Porter
 * stems), deduplicated and sorted. Enough to rank with; the raw text is not needed (and not kept).
 *
 * C14 — and no personal data: a term is kept as written only when it is a word of tools (a stem of
 * the shipped tool-text thesaurus, built from ~10k public tool texts, or of the synonym table);
 * any other term — a name, a date, a record number a user typed about someone — is kept only as a
 * hash (`#` + 11 characters). The same rule runs on every query, so a later search with the same
 * word still matches what was learned (this is why the word is hashed rather than dropped: words
 * no tool uses are what learning adds over the catalog). The rule does not depend on the catalog,
 * so what matched keeps matching when servers come and go. A hash is a pseudonym, not
 * anonymity: whoever guesses a word can check it; `toolsearch learned forget` removes evidence.
 */
import type { ToolSpec } from '../../core/tool.js';
import { words } from '../text.js';
import { indexTerms } from '../rank-default/tokenizer.js';
import { THESAURUS_TABLE } from '../tables/thesaurus-table.js';
import { SYNONYMS } from '../vocabulary.js';

/** A learned query is cut to this many terms: longer task texts add noise, not evidence. */
export const MAX_LEARNED_TERMS = 64;

export function learnedTerms(query: string): string[] {
  const out = [...new Set(indexTerms(words(query.slice(0, 4_096))).map(keptTerm))];
  out.sort();
  return out.length > MAX_LEARNED_TERMS ? out.slice(0, MAX_LEARNED_TERMS) : out;
}

/**
 * A short fingerprint of a tool's input schema (FNV-1a over its JSON): learned evidence survives a
 * new description but not a new schema, since a changed schema may mean a different tool.
 */
export function schemaFingerprint(tool: Pick<ToolSpec, 'inputSchema'>): string {
  const text = JSON.stringify(tool.inputSchema ?? {});
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

let toolWords: Set<string> | undefined;

/** The stems tools use (the thesaurus' entries and the synonym table), built on first use. */
function isToolWord(term: string): boolean {
  if (!toolWords) {
    toolWords = new Set(SYNONYMS.keys());
    for (const line of THESAURUS_TABLE.split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0) toolWords.add(line.slice(0, space));
    }
  }
  return toolWords.has(term);
}

/** C14: a tool word as it is; any other term as a hash of it. */
export function keptTerm(term: string): string {
  return isToolWord(term) ? term : `#${hashTerm(term)}`;
}

/** Two FNV-1a passes with different seeds: 64 bits, enough that two words of one log do not collide. */
function hashTerm(term: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
    b = (b ^ (b >>> 13)) >>> 0;
  }
  return (a.toString(36).padStart(7, '0') + b.toString(36).padStart(7, '0')).slice(0, 11);
}
