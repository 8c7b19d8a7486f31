/**
 * C1–C4 — reading the model's query. Pure parsing; what the parts mean is decided in searcher.ts.
 */
import { ownCopy } from './text.js';

/** Queries longer than this are cut before parsing: enough for any real task text, bounded work. */
export const MAX_QUERY_CHARS = 8_192;
/** At most this many distinct keyword terms are scored. */
export const MAX_QUERY_TERMS = 256;
/** At most this many names are looked up by one `select:`. */
export const MAX_SELECT_NAMES = 1_000;
/** A keyword longer than this is cut: no tool word is this long, and it bounds regex work. */
export const MAX_TERM_CHARS = 100;

export const SELECT_PREFIX = 'select:';

/** A keyword query after parsing: what every ranker receives. */
export interface ParsedQuery {
  /** The query text, trimmed and cut to MAX_QUERY_CHARS, `+` markers kept (regex/BM25 modes read it raw). */
  readonly text: string;
  /** Lowercased whitespace-separated terms, `+` stripped, in order, deduplicated. */
  readonly terms: readonly string[];
  /** The subset of `terms` marked `+term`: every result must match each of them (C4). */
  readonly required: readonly string[];
}

/** Drop control characters (they carry no meaning in a query and break word matching). */
function stripControl(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
}

export function cleanQuery(query: unknown): string {
  const text = typeof query === 'string' ? query : '';
  if (text.length <= MAX_QUERY_CHARS) return stripControl(text).trim();
  // G5: the cut is copied, so nothing kept from this query (memo keys, logs) holds the whole request alive.
  return stripControl(ownCopy(text.slice(0, MAX_QUERY_CHARS))).trim();
}

/** C4: split keywords, marking `+term` as required. A bare `+` is ignored. */
export function parseKeywordQuery(text: string): ParsedQuery {
  const terms: string[] = [];
  const required: string[] = [];
  const seen = new Set<string>();
  for (const token of text.toLowerCase().split(/\s+/)) {
    const isRequired = token.startsWith('+');
    const term = token.replace(/^\++/, '').slice(0, MAX_TERM_CHARS);
    if (term === '') continue;
    if (isRequired && !required.includes(term)) required.push(term);
    if (seen.has(term) || terms.length >= MAX_QUERY_TERMS) continue;
    seen.add(term);
    terms.push(term);
  }
  return { text, terms, required };
}

/** C1: `select:a, b ,c` → ['a','b','c'] (trimmed, empty entries and repeats dropped); else undefined. */
export function parseSelect(text: string): string[] | undefined {
  if (!text.toLowerCase().startsWith(SELECT_PREFIX)) return undefined;
  const names: string[] = [];
  for (const raw of text.slice(SELECT_PREFIX.length).split(',')) {
    const name = raw.trim();
    if (name !== '' && !names.includes(name)) names.push(name);
    if (names.length >= MAX_SELECT_NAMES) break;
  }
  return names;
}
