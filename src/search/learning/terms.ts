/**
 * C13 — what the learned channel keeps of a query: its index terms (stop words dropped, Porter
 * stems), deduplicated and sorted. Enough to rank with; the raw text is not needed (and not kept).
 */
import type { ToolSpec } from '../../core/tool.js';
import { words } from '../text.js';
import { indexTerms } from '../rank-default/tokenizer.js';

/** A learned query is cut to this many terms: longer task texts add noise, not evidence. */
export const MAX_LEARNED_TERMS = 64;

export function learnedTerms(query: string): string[] {
  const out = [...new Set(indexTerms(words(query.slice(0, 4_096))))];
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
