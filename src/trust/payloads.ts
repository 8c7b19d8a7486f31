/**
 * G10 — payloads that hide inside ordinary-looking text, for the scanner (scanner.ts) and the
 * opt-in result marking (result-marks.ts):
 * - a markdown or HTML image: a client that renders it fetches its URL at once, and a URL with
 *   query parameters or placeholders (`?d={conversation}`) carries data out with it;
 * - base64 that decodes to the phrases the scanner holds a tool for (`SWdub3Jl…` is "Ignore…").
 *
 * G5: every run is decoded at each of its four alignments (a run glued to a word would otherwise
 * decode shifted into noise), the readable stretches of what it decodes to are matched, and
 * nothing more: the cost is linear in the text, which its caller already bounds (the scanner's
 * SCAN_CHARS, result marking's MARKED_CHARS).
 */
import { foldText } from './fold.js';
import { type PhraseRule, PHRASES, phraseMatches } from './phrases.js';

/** A markdown or HTML image and its URL (group 1 markdown, group 2 HTML). */
export const IMAGE_LINK =
  /!\[[^\]\n]{0,200}\]\(\s*<?((?:https?:)?\/\/[^\s)>]{1,2048})|<img\b[^>]{0,400}?\bsrc\s*=\s*["']?((?:https?:)?\/\/[^\s"'>]{1,2048})/gi;

/** A URL that carries data: query parameters, or placeholders a model fills in. */
const CARRIES_DATA = /[?#&][^=\s]*=|[{}$<>]|%s/;

export interface ImageLink {
  readonly index: number;
  readonly length: number;
  readonly url: string;
  readonly carriesData: boolean;
}

export function* imageLinks(text: string): Generator<ImageLink> {
  for (const match of text.matchAll(IMAGE_LINK)) {
    const url = match[1] ?? match[2] ?? '';
    yield { index: match.index, length: match[0].length, url, carriesData: CARRIES_DATA.test(url) };
  }
}

/** Runs that may be base64 (standard or URL-safe alphabet), long enough to hold a sentence. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
/**
 * Base64 of text has both cases; identifiers (`snake_case_names`) and hex digests do not. Two
 * separate tests: one pattern `[a-z].*[A-Z]` backtracks over the whole run from every letter, which
 * made a megabyte of lowercase letters take minutes.
 */
function hasBothCases(run: string): boolean {
  return /[a-z]/.test(run) && /[A-Z]/.test(run);
}
/** Stretches of decoded text a model could read as words (no controls, no broken UTF-8). */
const READABLE = /[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]{12,}/g;

export interface EncodedInstructions {
  readonly index: number;
  readonly length: number;
  /** The high-severity phrase rule the decoded text matches. */
  readonly phrase: PhraseRule;
}

/** Every base64 run of `text` that decodes to a phrase the scanner holds a tool for. */
export function* encodedInstructions(text: string): Generator<EncodedInstructions> {
  for (const match of text.matchAll(BASE64_RUN)) {
    if (!hasBothCases(match[0])) continue;
    const phrase = decodedPhrase(match[0]);
    if (phrase) yield { index: match.index, length: match[0].length, phrase };
  }
}

/** The high-severity phrase rule that `run`, decoded at any of its four alignments, matches. */
export function decodedPhrase(run: string): PhraseRule | undefined {
  const body = run.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
  for (let shift = 0; shift < 4 && body.length - shift >= 16; shift++) {
    const readable = Buffer.from(body.slice(shift), 'base64').toString('utf8').match(READABLE);
    if (!readable) continue;
    const folded = foldText(readable.join('\n'));
    const phrase = PHRASES.find((rule) => rule.severity === 'high' && phraseMatches(rule, folded));
    if (phrase) return phrase;
  }
  return undefined;
}
