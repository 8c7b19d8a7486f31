/**
 * C14 — the core of a plain request: its action and object, before the modifiers. "I need a new
 * folder called reports in my workspace" is about a new folder; "called reports in my workspace"
 * names a value and a place. A request's first clause up to its first preposition or
 * subordinate word ("in", "for", "called", "saying", "so", …) is its core; a preposition right
 * after an opening verb belongs to the verb ("reply on issue 17", "log in").
 */
import { words } from '../text.js';
import { STOP_WORDS } from '../vocabulary.js';
import { indexTerms } from './tokenizer.js';

/** Words that open a modifier: prepositions of place, purpose and manner, and subordinators. */
const MODIFIER_OPENERS: ReadonlySet<string> = new Set(
  (
    'in on at for from into onto to with about under inside within via by through across near ' +
    'so because since when while if that which who where whose as before after until using without ' +
    'saying says said called named titled labelled labeled'
  ).split(' '),
);

/**
 * The core's content words (lowercase, stop words dropped), or undefined when the text is not a
 * plain request (more than `maxWords` words: a task, whose point is not one phrase) or has no
 * content word before a modifier.
 */
export function requestCore(text: string, maxWords: number): string[] | undefined {
  const all = words(text);
  if (all.length === 0 || all.length > maxWords) return undefined;
  const first = words(text.split(/[,;!?]|\.(?:\s|$)|\s[-–—]\s/)[0] ?? '');
  const core: string[] = [];
  for (let i = 0; i < first.length; i++) {
    const w = first[i]!;
    if (MODIFIER_OPENERS.has(w) && core.length > 0 && i > 1) break;
    if (!STOP_WORDS.has(w) && !MODIFIER_OPENERS.has(w)) core.push(w);
  }
  return core.length > 0 ? core : undefined;
}

/** The distinct index terms of a core, numbers left out: a value ("issue 88") never names a tool. */
export function coreTermCount(core: readonly string[]): number {
  return new Set(indexTerms(core).filter((t) => !/^\d+$/.test(t))).size;
}
