/**
 * C14 — a question asks to know, not to change. "What did commit a1b2c3d change?", "Where does
 * this repo push to?", "Did anyone answer Maria in that thread?" share words with tools that
 * change things (git_commit, git_push, reply_to_thread), and keyword evidence alone cannot tell
 * the asking from the doing. A request phrased as a question is answered by a tool that reads, so
 * tools whose name is a change (create, delete, push, reply …) and names no reading verb are
 * ranked lower for it. A polite request ("can you create …?", "could you open both?") is a
 * request, not a question, and is left alone.
 *
 * Both lists are English verbs as tool names use them, chosen from what the verbs mean, not from
 * any request set.
 */
import { SYNONYMS, stem } from '../vocabulary.js';
import { indexTerms } from './tokenizer.js';
import type { TouchedSet } from './postings.js';

/** Words that open a question asking for information. */
const QUESTION_OPENERS = new Set([
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'why',
  'is',
  'are',
  'was',
  'were',
  'does',
  'did',
  'has',
  'have',
  'had',
  'any',
]);

/** "can you", "could you", "would you", "will you": a request phrased as a question. */
const POLITE_MODALS = new Set(['can', 'could', 'would', 'will']);
const POLITE_SUBJECTS = new Set(['you', 'u', 'we']);

/** "how do I …", "how can we …": asks for a way to do something, so it is a request too. */
const HOW_TO_MODALS = new Set(['do', 'can', 'should', 'would', 'could', 'to']);

/**
 * Whether a request (its lowercase words, and whether its text ends in "?") asks for information:
 * it opens with a question word, or ends in a question mark without being a polite request.
 */
export function asksToKnow(raw: readonly string[], endsWithQuestionMark: boolean): boolean {
  if (raw.length < 2) return false;
  if (isPoliteRequest(raw)) return false;
  if (raw[0] === 'how') return !HOW_TO_MODALS.has(raw[1]!);
  return QUESTION_OPENERS.has(raw[0]!) || endsWithQuestionMark;
}

/** "can you …", "could you please …", or "please" anywhere. */
function isPoliteRequest(raw: readonly string[]): boolean {
  for (let i = 0; i + 1 < raw.length; i++)
    if (POLITE_MODALS.has(raw[i]!) && POLITE_SUBJECTS.has(raw[i + 1]!)) return true;
  return raw.includes('please');
}

/** Verbs of tool names that change state. */
const CHANGE_VERBS = new Set(
  (
    'create add delete remove update edit set write push merge move rename post send reply close commit reset ' +
    'drop insert upload fork assign archive cancel kill clear clean apply approve publish submit revert restore ' +
    'modify replace patch invite toggle enable disable install deploy lock unlock subscribe unsubscribe stash ' +
    'pull checkout rebase cherry tag star unstar pin unpin react dismiss unresolve'
  )
    .split(' ')
    .map(stem),
);

/** Verbs of tool names that read: a name holding one of these reads, whatever else it holds. */
const READ_VERBS = new Set(
  (
    'get list search find read show fetch query lookup look view describe check inspect status info count ' +
    'retrieve download browse explore diff log history'
  )
    .split(' ')
    .map(stem),
);

/**
 * C14 — a short request that names no action asks to see: "project milestones due dates", "page
 * content as markdown", "dump memory" name a thing, and the tool that shows it serves them, not
 * the one that creates or rewrites it. Only requests of at most SHORT_REQUEST_WORDS words: a
 * longer sentence's action can hide in any phrasing ("tack the numbers onto results.txt").
 */
export const SHORT_REQUEST_WORDS = 6;

/**
 * Words of requests that ask for a change without being a change verb of tool names: storing,
 * scheduling, linking, labelling, answering. With CHANGE_VERBS and their synonyms, a short
 * request holding none of them names no action.
 */
const REQUEST_ACTIONS = new Set(
  (
    'store save remember memorize memorise note record log schedule reschedule book file raise open make mark ' +
    'bump relate link connect attach label assign hand transfer share rsvp respond accept decline answer comment ' +
    'forget rename resolve reopen mute unmute block unblock squash tack append fill'
  )
    .split(' ')
    .map(stem),
);

/** Whether a short request (its lowercase words) names no action at all; false for longer ones. */
export function namesNoAction(raw: readonly string[]): boolean {
  if (raw.length > SHORT_REQUEST_WORDS) return false;
  const stems = indexTerms(raw);
  if (stems.length === 0) return false;
  for (const s of stems) {
    if (CHANGE_VERBS.has(s) || REQUEST_ACTIONS.has(s)) return false;
    for (const synonym of SYNONYMS.get(s) ?? []) if (CHANGE_VERBS.has(synonym)) return false;
  }
  return true;
}

/**
 * Why a request asks to see rather than to change, or undefined when it may ask for a change:
 * it is a question, or a short request that names no action.
 */
export function asksToSee(raw: readonly string[], endsWithQuestionMark: boolean): 'question' | 'no action' | undefined {
  if (asksToKnow(raw, endsWithQuestionMark)) return 'question';
  if (namesNoAction(raw)) return 'no action';
  return undefined;
}

/** Whether a tool's name parts (stems) name a change and no reading. */
export function namesAChange(nameStems: Iterable<string>): boolean {
  return changeWithoutReading(nameStems, READ_VERBS, CHANGE_VERBS);
}

/** The rule for either spelling of a name (stems, or an index's term ids): a reading verb wins. */
function changeWithoutReading<T>(parts: Iterable<T>, read: ReadonlySet<T>, change: ReadonlySet<T>): boolean {
  let changes = false;
  for (const p of parts) {
    if (read.has(p)) return false;
    if (change.has(p)) changes = true;
  }
  return changes;
}

/**
 * Per tool of an index, whether its name names a change: `names` are each tool's name term ids,
 * `termOf` the index's term → id map (only the verbs' ids are looked up, not the whole map inverted).
 */
export function changeTools(names: readonly (readonly number[])[], termOf: ReadonlyMap<string, number>): Uint8Array {
  const idsOf = (verbs: ReadonlySet<string>) =>
    new Set([...verbs].map((v) => termOf.get(v)).filter((id): id is number => id !== undefined));
  const read = idsOf(READ_VERBS);
  const change = idsOf(CHANGE_VERBS);
  return Uint8Array.from(names, (ids) => (changeWithoutReading(ids, read, change) ? 1 : 0));
}

/**
 * Multiply the scores of the touched tools whose name is a change (`changes[i]` 1) by `factor`.
 * With `record` (explain), returns which were lowered, per tool; a search allocates nothing.
 */
export function lowerChangeTools(
  scores: Float64Array,
  touched: TouchedSet,
  changes: Uint8Array,
  factor: number,
  record = false,
): Uint8Array | undefined {
  const lowered = record ? new Uint8Array(scores.length) : undefined;
  for (let a = 0; a < touched.count; a++) {
    const i = touched.list[a]!;
    if (changes[i] !== 1) continue;
    scores[i]! *= factor;
    if (lowered) lowered[i] = 1;
  }
  return lowered;
}
