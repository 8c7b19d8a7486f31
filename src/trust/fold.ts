/**
 * G10 — text as the scanner reads it: what a model would read as the same words. Invisible
 * characters (format characters, variation selectors) are dropped, each character is taken in its
 * NFKC form (fullwidth `ｉｇｎｏｒｅ`, mathematical letters) and Latin look-alikes of other scripts
 * become the Latin letter (`іgnоrе`, core/confusables-table.ts). Each folded character remembers
 * where it came from, so a match in the folded text marks a span of the original (result-marks.ts).
 */
import { LATIN_LOOKALIKES } from '../core/confusables-table.js';

/** Format characters (zero-width, bidi, tags, soft hyphen) and variation selectors. */
const DROPPED = /^(?:\p{Cf}|[\u{FE00}-\u{FE0F}]|[\u{E0100}-\u{E01EF}])$/u;

export interface FoldedText {
  readonly text: string;
  /** For each UTF-16 unit of `text`, the index in the original where its character started. */
  readonly origin: readonly number[];
}

const ASCII = /^[\x00-\x7f]*$/;

export function foldWithOrigins(original: string): FoldedText {
  if (ASCII.test(original)) return { text: original, origin: Array.from({ length: original.length }, (_, i) => i) };
  let text = '';
  const origin: number[] = [];
  let index = 0;
  for (const c of original) {
    if (!DROPPED.test(c)) {
      const folded = foldCharacter(c);
      text += folded;
      for (let k = 0; k < folded.length; k++) origin.push(index);
    }
    index += c.length;
  }
  return { text, origin };
}

/** The folded text alone (ASCII text is its own folding). */
export function foldText(original: string): string {
  if (ASCII.test(original)) return original;
  let text = '';
  for (const c of original) if (!DROPPED.test(c)) text += foldCharacter(c);
  return text;
}

function foldCharacter(c: string): string {
  const normal = c.normalize('NFKC');
  return normal.length === 1
    ? (LATIN_LOOKALIKES.get(normal) ?? normal)
    : [...normal].map((n) => LATIN_LOOKALIKES.get(n) ?? n).join('');
}

/** The original span `[start, end)` a match `[from, to)` of the folded text came from. */
export function originalSpan(folded: FoldedText, from: number, to: number, original: string): [number, number] {
  const start = folded.origin[from] ?? original.length;
  const lastStart = folded.origin[Math.max(from, to - 1)] ?? start;
  const last = original.codePointAt(lastStart);
  return [start, lastStart + (last !== undefined && last > 0xffff ? 2 : 1)];
}
