/**
 * G10 — opt-in (`toolSearch.trust.markResults`): what a tool returns is third-party text too (a web
 * page, an issue, an email), and by default it reaches the model verbatim. With marking on, the
 * spans of a result's text that the scanner's rules would flag in a tool definition are wrapped in
 * a visible marker the model and the user can see, and hidden characters are written out:
 *
 *     ⟦toolsearch flagged: tells the model to set aside its instructions⟧Ignore all previous
 *     instructions⟦/toolsearch flagged⟧
 *
 * Nothing is removed (a marker does not decide for the model; it says where the text turns into
 * orders). Only text content is marked; images, resources and structured content pass unchanged.
 * G5: at most MARKED_CHARS characters of one text are read (base64 decoded within them, payloads.ts)
 * and it gets at most MAX_MARKS marks, so a result grows by a bounded amount.
 */
import { visibleText } from '../util/terminal-text.js';
import { foldWithOrigins, originalSpan } from './fold.js';
import { encodedInstructions, imageLinks } from './payloads.js';
import { INVISIBLE, PHRASES, SMUGGLING_SELECTORS } from './phrases.js';

export const MARK_OPEN = '⟦toolsearch flagged: ';
export const MARK_CLOSE = '⟦/toolsearch flagged⟧';
/** Characters of one text content block that are read for marking (a note marks where reading stopped). */
export const MARKED_CHARS = 1_048_576;
/** Marks in one text content block at most; the last covers the rest of the flagged stretch. */
export const MAX_MARKS = 100;

/** Rules that speak about the model's instructions; a result naming `.env` or another tool is ordinary. */
const RESULT_RULES = new Set([
  'directive-tag',
  'override-instructions',
  'conceal-from-user',
  'role-marker',
  'html-comment',
]);

interface Span {
  readonly start: number;
  readonly end: number;
  readonly why: string;
  /** Hidden characters: shown written out instead of as they are. */
  readonly hidden?: boolean;
}

/** The text with its suspicious spans marked, and how many marks it got. */
export function markSuspicious(text: string): { text: string; marks: number } {
  const read = text.slice(0, MARKED_CHARS);
  const spans = atMost(disjoint([...hiddenSpans(read), ...phraseSpans(read)]), MAX_MARKS);
  const unread = text.length > read.length;
  if (spans.length === 0 && !unread) return { text, marks: 0 };
  let out = '';
  let at = 0;
  for (const span of spans) {
    const inside = read.slice(span.start, span.end);
    out += `${read.slice(at, span.start)}${MARK_OPEN}${span.why}⟧${span.hidden ? visibleText(inside) : inside}${MARK_CLOSE}`;
    at = span.end;
  }
  out += read.slice(at);
  if (unread)
    out += `${MARK_OPEN}not read: the ${text.length - read.length} characters past the first ${MARKED_CHARS}⟧`;
  return { text: out + text.slice(read.length), marks: spans.length + (unread ? 1 : 0) };
}

/** At most `limit` spans: the last one covers every span from there on, so nothing flagged goes unmarked. */
function atMost(spans: Span[], limit: number): Span[] {
  if (spans.length <= limit) return spans;
  const rest = spans.slice(limit - 1);
  const last: Span = {
    start: rest[0]!.start,
    end: rest.at(-1)!.end,
    why: `${rest.length} flagged spans in this stretch`,
    hidden: rest.some((span) => span.hidden),
  };
  return [...spans.slice(0, limit - 1), last];
}

function hiddenSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const pattern of [INVISIBLE, SMUGGLING_SELECTORS])
    for (const match of text.matchAll(new RegExp(`(?:${pattern.source})+`, pattern.flags)))
      spans.push({ start: match.index, end: match.index + match[0].length, why: 'hidden characters', hidden: true });
  return spans;
}

function phraseSpans(text: string): Span[] {
  const folded = foldWithOrigins(text);
  const spans: Span[] = [];
  const add = (from: number, to: number, why: string) => {
    const [start, end] = originalSpan(folded, from, to, text);
    spans.push({ start, end, why });
  };
  for (const phrase of PHRASES) {
    if (!RESULT_RULES.has(phrase.rule)) continue;
    for (const pattern of phrase.patterns)
      for (const match of folded.text.matchAll(globally(pattern)))
        add(match.index, match.index + match[0].length, phrase.why);
  }
  for (const link of imageLinks(folded.text))
    if (link.carriesData) add(link.index, link.index + link.length, 'an image link whose URL carries data out');
  for (const hit of encodedInstructions(folded.text))
    add(hit.index, hit.index + hit.length, `base64 that decodes to what the ${hit.phrase.rule} rule flags`);
  return spans;
}

const globalPatterns = new Map<RegExp, RegExp>();
function globally(pattern: RegExp): RegExp {
  let global = globalPatterns.get(pattern);
  if (!global) globalPatterns.set(pattern, (global = new RegExp(pattern.source, `${pattern.flags}g`)));
  return global;
}

/** Spans in order, overlapping ones merged (the first reason kept). */
function disjoint(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start < last.end)
      out[out.length - 1] = {
        ...last,
        end: Math.max(last.end, span.end),
        hidden: last.hidden === true || span.hidden === true,
      };
    else out.push(span);
  }
  return out;
}
