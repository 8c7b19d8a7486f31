/**
 * C14 — a request's leading verb that tool texts use as a noun. "File a ticket", "file an issue":
 * an imperative's first word followed by an article is a verb, and "file" as a verb means submit
 * (create) — not the file tools. Only words whose verb and noun senses name different tools are
 * listed; the rule needs the article, so "file contents" and "file info" keep the noun.
 */
import { STOP_WORDS, stem } from '../vocabulary.js';

/** Leading verb → the stems it stands for. */
const VERB_SENSES: ReadonlyMap<string, readonly string[]> = new Map([
  ['file', ['create', 'submit']],
  ['log', ['create', 'record']],
  ['raise', ['create']],
  ['lodge', ['create', 'submit']],
  ['book', ['create', 'schedule']],
]);

const ARTICLES = new Set(['a', 'an', 'the', 'new']);

/**
 * Leading verbs that mean "put a new one there" only before "a" or "an": "leave a comment", "drop a
 * note in #ops", "put an out-of-office on my calendar", "stick a :tada: on it". Before "the" they
 * keep their own sense ("drop the table" deletes it).
 */
const ADDING_VERBS: ReadonlyMap<string, readonly string[]> = new Map(
  ['leave', 'drop', 'put', 'stick'].map((verb) => [verb, ['create', 'add']] as const),
);
const INDEFINITE_ARTICLES = new Set(['a', 'an']);

/**
 * When the request opens with such a verb and an article, the verb's stem and the stems it
 * stands for; else undefined. `raw` is the request's lowercase words.
 */
export function leadingVerbSense(raw: readonly string[]): { verb: string; senses: string[] } | undefined {
  if (raw.length < 3) return undefined;
  const senses = ARTICLES.has(raw[1]!) ? VERB_SENSES.get(raw[0]!) : undefined;
  const adding = INDEFINITE_ARTICLES.has(raw[1]!) ? ADDING_VERBS.get(raw[0]!) : undefined;
  const found = senses ?? adding;
  return found ? { verb: stem(raw[0]!), senses: found.map(stem) } : undefined;
}

/** Question words that, followed by a plural noun, ask for a list ("which bugs are open"). */
const LISTING_QUESTIONS = new Set(['what', 'which']);

/**
 * C14 — the action a plain question asks for: "what files are in …", "which bugs are still open"
 * ask to list files and bugs, and so does "show me the open pull requests". Only a question word
 * directly followed by a plural noun (a word whose stem drops a final s), or "show" whose object
 * (after me/the/all/my) has one within its first three words — "what are the coordinates of …",
 * "what's 17 plus 25" and "show me the commit history" ask for one thing, not a list. Returns the
 * stems it implies, or undefined.
 */
export function questionSense(raw: readonly string[]): string[] | undefined {
  if (raw.length >= 3 && LISTING_QUESTIONS.has(raw[0]!) && isPlural(raw[1]!)) return [stem('list')];
  if (raw.length >= 2 && raw[0] === 'show') {
    // "show me the open pull requests": the object phrase ends in a plural noun.
    let i = 1;
    while (i < raw.length && SHOW_FILLERS.has(raw[i]!)) i++;
    for (let j = i; j < Math.min(raw.length, i + 3); j++) {
      if (isPlural(raw[j]!)) return [stem('list')];
      if (STOP_WORDS.has(raw[j]!)) break;
    }
  }
  return undefined;
}

/** Words between "show" and its object. */
const SHOW_FILLERS = new Set(['me', 'us', 'the', 'all', 'my', 'our', 'every']);

/** A plural noun, roughly: a content word of 4+ letters whose stem drops a final s (not "-ss"). */
function isPlural(word: string): boolean {
  return word.length >= 4 && word.endsWith('s') && !word.endsWith('ss') && !STOP_WORDS.has(word) && stem(word) !== word;
}

/** Words that introduce a name the request gives ("a folder called reports", "a file named todo.txt"). */
const NAMING_WORDS = new Set(['called', 'named', 'titled', 'entitled']);

/**
 * C14 — a request's words without the ones that introduce a given name: after a noun, "called"
 * means "whose name is", not the verb call (which would reach run/execute tools through its
 * synonyms). A leading one ("called …") is left alone.
 */
export function withoutNamingWords(raw: readonly string[]): readonly string[] {
  return raw.some((w, i) => i > 0 && NAMING_WORDS.has(w)) ? raw.filter((w, i) => i === 0 || !NAMING_WORDS.has(w)) : raw;
}

/**
 * C14 — a `#name` in a request is a chat channel ("post in #general", "read #random"): the
 * notation chat tools share, whose texts say "channel". Returns the first one, or undefined.
 */
export function channelMention(text: string): string | undefined {
  return /(?:^|[\s(])(#[a-z][\w-]*)/i.exec(text)?.[1];
}

/**
 * What people say when they mean the assistant's own memory: "what you know about Alice", "what do
 * I know about Bob" (what the user has told it to keep), "keep
 * in mind that …", "for future reference", "note that …", "the people I've told you about". The
 * phrases address the assistant as the one who keeps the facts, which tools say as memory and
 * knowledge (a knowledge graph, stored memories).
 */
const ASSISTANT_MEMORY =
  /\b(?:what\s+(?:do|did)\s+(?:i|we)\s+(?:already\s+)?know\s+(?:about|of|on)\b|you\s+(?:already\s+|still\s+)?(?:know|remember|recall|stored|saved|noted|recorded|have\s+(?:on|about|stored|saved))|you(?:'ve|\s+have)\s+(?:got\s+)?(?:on|about|stored|saved|learned)|told\s+you|keep\s+in\s+mind|for\s+future\s+reference|(?:^|[.;:!]\s*)note(?::|\s+that)|make\s+a\s+note|(?:don'?t|never)\s+forget|^\s*forget)\b/i;

/** C14: the stems a request about the assistant's own memory implies, or undefined. */
export function assistantMemorySense(text: string): string[] | undefined {
  return ASSISTANT_MEMORY.test(text.slice(0, 2_000)) ? [stem('memory'), stem('knowledge')] : undefined;
}

/**
 * Arithmetic: "add 2 and 3", "what's 17 plus 25", "multiply 6 by 7". With two numbers in the
 * request, an operation word means the calculation, which tools name by its result (sum, product,
 * difference, quotient), not "add" as in "add a comment".
 */
const ARITHMETIC_SENSES: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ...['add', 'sum', 'plus', 'total'].map((word) => [word, ['sum', 'number', 'calculate']] as const),
  ...['subtract', 'minus'].map((word) => [word, ['subtract', 'difference', 'number', 'calculate']] as const),
  ...['multiply', 'times'].map((word) => [word, ['multiply', 'product', 'number', 'calculate']] as const),
  ...['divide'].map((word) => [word, ['divide', 'quotient', 'number', 'calculate']] as const),
]);
const OPERATION = '(add|sum|plus|total|subtract|minus|multiply|times|divide)';
const OPERAND = String.raw`-?\d+(?:\.\d+)?`;
/** "add 2 and 3", "multiply 6 by 7", "subtract 3 from 10": the operation, then two bare numbers. */
const OPERATION_FIRST = new RegExp(
  String.raw`\b${OPERATION}\s+(?:up\s+)?${OPERAND}(?:\s*,\s*|\s+(?:and|to|by|from|with)\s+|\s+)${OPERAND}(?![\w:.])`,
  'i',
);
/** "17 plus 25", "6 times 7". */
const OPERATION_BETWEEN = new RegExp(String.raw`(?<![\w:.])${OPERAND}\s+${OPERATION}\s+${OPERAND}(?![\w:.])`, 'i');

/**
 * C14: the stems a calculation on two numbers implies, or undefined. Only bare numbers next to the
 * operation count: "sum(total) … LIMIT 10" in an SQL statement and "add '1:1 with Ravi' fri 10:00"
 * are not sums.
 */
export function arithmeticSense(text: string): string[] | undefined {
  const head = text.slice(0, 2_000);
  const operation = OPERATION_FIRST.exec(head)?.[1] ?? OPERATION_BETWEEN.exec(head)?.[1];
  return operation === undefined ? undefined : ARITHMETIC_SENSES.get(operation.toLowerCase())?.map(stem);
}

/** Verbs that, with a time or a day in the request, move something in time. */
const MOVING_VERBS = new Set([
  'push',
  'pushed',
  'move',
  'moved',
  'shift',
  'shifted',
  'bump',
  'bumped',
  'postpone',
  'delay',
]);

/**
 * C14 — "push the standup to 10:30", "move my Thursday 1:1 to 4pm": a moving verb in a request that
 * names a time or a day reschedules something, not a git push or a file move. Returns the verb's
 * stem and the stems it stands for, or undefined. `hasTime`: the request holds a clock time or a
 * weekday (value-shapes.ts).
 */
export function movedInTime(raw: readonly string[], hasTime: boolean): { verb: string; senses: string[] } | undefined {
  if (!hasTime) return undefined;
  const verb = raw.find((w) => MOVING_VERBS.has(w));
  return verb ? { verb: stem(verb), senses: ['update', 'event', 'time'].map(stem) } : undefined;
}

/**
 * C15 — "let the team know …", "let Maria know": telling someone is sending them a message, though
 * both words are stop words. "let" followed within four words by "know" (not a question: "let me
 * know" asks the assistant to answer, not to send). Returns the stems it stands for, or undefined.
 */
export function tellingSense(raw: readonly string[]): string[] | undefined {
  for (let i = 0; i + 1 < raw.length; i++) {
    if (raw[i] !== 'let' || raw[i + 1] === 'me' || raw[i + 1] === 'us') continue;
    for (let j = i + 2; j < Math.min(raw.length, i + 6); j++)
      if (raw[j] === 'know') return ['send', 'post', 'message', 'notify'].map(stem);
  }
  return undefined;
}
