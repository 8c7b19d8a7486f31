/**
 * C15 — a request's action and a tool's action agree. Since a search shows its first hit in full and
 * the model acts on it, a tool that does the opposite of what the request asks must not lead:
 * "remember that my dog is called Rex" is answered by adding a fact, never by `delete_observations`,
 * and "open a github issue" by `create_issue`, not `update_issue`. Keyword evidence alone cannot
 * tell them apart (both tools hold the request's object), so the ranker reads the action twice:
 * the tool's from the verbs of its name, the request's from the verbs the request uses as verbs.
 *
 * A request's verb is read from its surface form in a verb's place, not from its stem: "notes",
 * "updates" and "logs" are things (a plural noun is never an imperative), and "the list", "a
 * note" and "for updates" follow a determiner or a preposition. Porter merges a noun with a verb
 * in many such words; reading the stem would make "show my notes" a request to write one.
 *
 * The actions are English verbs as tool names and requests use them, grouped by what they do to
 * the thing: chosen from what the verbs mean, not from any request set.
 */
import { words } from '../text.js';
import { stem } from '../vocabulary.js';
import { MAX_VALUE_SHAPE_CHARS, valueSpans } from './value-shapes.js';
import { phrasalSenses } from './phrasal-verbs.js';
import { leadingVerbSense, tellingSense, withoutNamingWords } from './verb-senses.js';

/** What a tool does to its object, or what a request asks to do. */
export type Action = 'create' | 'update' | 'delete' | 'read' | 'send' | 'run' | 'stop';

export const ACTION_BITS: Readonly<Record<Action, number>> = {
  create: 1,
  update: 2,
  delete: 4,
  read: 8,
  send: 16,
  run: 32,
  stop: 64,
};

/** Actions that destroy or end something: a tool of these is never first unless the request asks for one. */
export const DESTRUCTIVE = ACTION_BITS.delete | ACTION_BITS.stop;

/**
 * Pairs of actions that serve each other's requests: posting a message creates one, deleting a
 * process stops it. Any other pair disagrees (reading and running were a pair too: "run npm test"
 * then found list_sessions before start_process; apart, pooled dev R@1 +0.003).
 */
const COMPATIBLE: readonly (readonly [Action, Action])[] = [
  ['create', 'send'],
  ['delete', 'stop'],
];

/** The verbs of tool names, by action (Porter stems of name parts). */
const TOOL_VERBS: Readonly<Record<Action, string>> = {
  create: 'create add new make insert build generate write',
  update: 'update edit modify change patch set rename replace move assign mark toggle enable disable resolve reopen',
  delete: 'delete remove erase destroy clear purge trash unlink uninstall wipe',
  read: 'get read fetch retrieve show view load open describe inspect info list search find query lookup browse look check status count diff log history explore',
  send: 'send post publish notify reply respond',
  run: 'run execute exec launch start invoke call evaluate trigger',
  stop: 'stop kill terminate cancel end halt close quit exit',
};

/** The verbs of requests, by action (base forms; their -ed and -ing forms are derived). */
const REQUEST_VERBS: Readonly<Record<Action, string>> = {
  create:
    'create add make build generate insert write compose draft remember memorize memorise note save store record jot schedule register',
  update:
    'update edit modify change patch set rename replace fix correct tweak adjust bump reschedule reassign assign mark label rewrite overwrite append move',
  delete: 'delete remove erase destroy clear purge wipe trash discard forget unlink uninstall cancel',
  read: 'get fetch read retrieve show view display see check look find search list browse inspect describe lookup count',
  send: 'send post publish notify message email mail reply respond comment announce ping',
  run: 'run execute exec launch start invoke call evaluate eval trigger',
  stop: 'stop kill terminate end halt quit exit close shut',
};

/** Request verbs that also ask for another action: closing an issue updates its state. */
const ALSO: Readonly<Record<string, Action>> = { close: 'update' };

/** Irregular verb forms of the verbs above (past tense and participle). */
const IRREGULAR: Readonly<Record<string, string>> = {
  made: 'make',
  built: 'build',
  wrote: 'write',
  written: 'write',
  got: 'get',
  gotten: 'get',
  shown: 'show',
  seen: 'see',
  saw: 'see',
  found: 'find',
  ran: 'run',
  sent: 'send',
  forgot: 'forget',
  forgotten: 'forget',
  looked: 'look',
};

/** Words after which a verb's form is a noun or an adjective: "the list", "a note", "for updates". */
const NOUN_MARKERS = new Set(
  (
    'a an the my your our their his her its this that these those each every some any no all both whose ' +
    'of for in on with about from by at into onto to-do todo'
  ).split(' '),
);

/** Words after which an -ed or -ing form is a verb: "who deleted …", "is running". */
const SUBJECTS = new Set(
  'who what which that i we you they he she it someone anyone somebody anybody was were is are am be been has have had'.split(
    ' ',
  ),
);

type FormKind = 'base' | 'past' | 'ing';

/** Request word → (action bits, form kind), built once from the base forms. */
const REQUEST_FORMS: ReadonlyMap<string, { bits: number; kind: FormKind }> = (() => {
  const out = new Map<string, { bits: number; kind: FormKind }>();
  const add = (form: string, bits: number, kind: FormKind) => {
    const known = out.get(form);
    out.set(form, { bits: (known?.bits ?? 0) | bits, kind: known?.kind ?? kind });
  };
  for (const action of Object.keys(REQUEST_VERBS) as Action[]) {
    for (const verb of REQUEST_VERBS[action].split(' ')) {
      const also = ALSO[verb];
      const bits = ACTION_BITS[action] | (also ? ACTION_BITS[also] : 0);
      add(verb, bits, 'base');
      for (const form of pastForms(verb)) add(form, bits, 'past');
      add(ingForm(verb), bits, 'ing');
    }
  }
  for (const [form, verb] of Object.entries(IRREGULAR)) {
    const base = out.get(verb);
    if (base) add(form, base.bits, 'past');
  }
  return out;
})();

function pastForms(verb: string): string[] {
  if (verb.endsWith('e')) return [`${verb}d`];
  if (/[^aeiou]y$/.test(verb)) return [`${verb.slice(0, -1)}ied`];
  const doubled = /[^aeiou][aeiou][bdgmnprt]$/.test(verb) ? [`${verb}${verb.at(-1)}ed`] : [];
  return [`${verb}ed`, ...doubled];
}

function ingForm(verb: string): string {
  if (verb.endsWith('ee')) return `${verb}ing`;
  if (verb.endsWith('e')) return `${verb.slice(0, -1)}ing`;
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(verb)) return `${verb}${verb.at(-1)}ing`;
  return `${verb}ing`;
}

/** Words that negate the verb after them ("don't forget", "never delete"); "don't" splits into "don", "t". */
const NEGATIONS = new Set(['not', 'never', 't', 'dont', 'no']);

/** What a plain request says of actions: the ones it asks for, and its incidental verbs' stems. */
export interface RequestReading {
  readonly actions: number;
  readonly incidental: ReadonlySet<string>;
}

/**
 * Reads a request once for both rules (one parse of its words, values left out): its actions
 * (`requestActions`) and its incidental verbs (`incidentalVerbs`).
 */
export function readRequest(text: string, question = false): RequestReading {
  // "a dog called Rex" names the dog: "called" is no call.
  const values = withoutValues(text);
  const raw = withoutNamingWords(words(values.rest));
  const phrasal = phrasalSenses(raw);
  const skip = new Set<number>();
  for (const sense of phrasal) for (const at of sense.at) skip.add(at);
  const incidental = incidentalOf(raw, skip, question);
  // A question asks to know: its verbs are what it asks about ("who deleted the branch?", "which
  // monitors did I set up?"), not an action it asks for.
  if (question) return { actions: 0, incidental };
  let bits = 0;
  for (const sense of phrasal) bits |= senseActions(sense.senses);
  const leading = leadingVerbSense(raw);
  if (leading) {
    bits |= senseActions(leading.senses);
    skip.add(0);
  }
  if (STORING.test(text.slice(0, 2_000))) bits |= ACTION_BITS.create;
  if (tellingSense(raw)) bits |= ACTION_BITS.send;
  // Running an SQL statement is querying: "run SELECT …" asks for the tool that queries as much as
  // for one that executes.
  if (values.sql) bits |= ACTION_BITS.read | ACTION_BITS.run;
  return { actions: bits | verbActions(raw, skip), incidental };
}

/**
 * The actions a request (its text) asks for, as bits. A phrasal verb counts as what it means
 * ("get rid of" deletes, "set up" creates) and its words as nothing else; so does a leading verb
 * with an article ("file a ticket", "leave a comment"). Addressing the assistant's memory ("keep in
 * mind that …", "note that …", "don't forget …") asks to store a fact, and "let … know" to send.
 */
export function requestActions(text: string, question = false): number {
  return readRequest(text, question).actions;
}

/**
 * The request without its values (quoted phrases, web addresses, SQL, paths): "…/contents/build/Dockerfile"
 * builds nothing. `sql`: whether it holds an SQL statement.
 */
function withoutValues(text: string): { rest: string; sql: boolean } {
  const spans = valueSpans(text.slice(0, MAX_VALUE_SHAPE_CHARS));
  return { rest: spans.rest.replace(/\S*[/\\]\S*/g, ' '), sql: spans.sql };
}

/** Phrases that ask the assistant to keep a fact (verb-senses.ts reads the same ones as its memory). */
const STORING =
  /\b(?:keep\s+in\s+mind|for\s+future\s+reference|(?:^|[.;:!]\s*)note(?::|\s+that)|make\s+a\s+note|(?:don'?t|never)\s+forget)\b/i;

/**
 * The actions of a request's words in a verb's form and a verb's place: a base form not after a
 * determiner or preposition ("list my notes", "memory add entity …"); a past or -ing form after a
 * subject or an auxiliary ("who deleted the branch", "is running"); none after a negation. "new"
 * at the start or after "a" asks to create ("new notion page", "a new folder"), and so does "open a …".
 */
export function verbActions(raw: readonly string[], skip: ReadonlySet<number> = new Set()): number {
  let bits = 0;
  for (let i = 0; i < raw.length; i++) {
    if (skip.has(i)) continue;
    const word = raw[i]!;
    const previous = i > 0 ? raw[i - 1]! : undefined;
    if (previous !== undefined && NEGATIONS.has(previous)) continue;
    if (word === 'new') {
      if (previous === undefined || previous === 'a' || previous === 'an') bits |= ACTION_BITS.create;
      continue;
    }
    // "Open a ticket", "open a PR", "open a new tab": opening one that did not exist creates it.
    if (word === 'open' && (raw[i + 1] === 'a' || raw[i + 1] === 'an') && !NOUN_MARKERS.has(previous ?? '')) {
      bits |= ACTION_BITS.create;
      continue;
    }
    const form = REQUEST_FORMS.get(word);
    if (!form) continue;
    const inPlace =
      form.kind === 'base' ? previous === undefined || !NOUN_MARKERS.has(previous) : SUBJECTS.has(previous ?? '');
    if (inPlace) bits |= form.bits;
  }
  return bits;
}

/** Stem → action bits, for tool names and for the senses the query side adds (phrasal verbs, verb senses). */
const STEM_ACTIONS: ReadonlyMap<string, number> = (() => {
  const out = new Map<string, number>();
  for (const action of Object.keys(TOOL_VERBS) as Action[])
    for (const verb of TOOL_VERBS[action].split(' ')) {
      const s = stem(verb);
      out.set(s, (out.get(s) ?? 0) | ACTION_BITS[action]);
    }
  return out;
})();

/** The actions of sense stems (a phrasal verb's "show read get", a leading verb's "create"). */
export function senseActions(senses: Iterable<string>): number {
  let bits = 0;
  for (const s of senses) bits |= STEM_ACTIONS.get(s) ?? 0;
  return bits;
}

/**
 * Per tool, the actions its name's verbs name (bits): `names` are each tool's name term ids (all
 * parts: a prefix is a server's name, never a verb of it), `termOf` the index's term → id map.
 */
export function toolActions(names: readonly (readonly number[])[], termOf: ReadonlyMap<string, number>): Uint8Array {
  const byId = new Map<number, number>();
  for (const [s, bits] of STEM_ACTIONS) {
    const id = termOf.get(s);
    if (id !== undefined) byId.set(id, bits);
  }
  return Uint8Array.from(names, (ids) => {
    let bits = 0;
    for (const id of ids) bits |= byId.get(id) ?? 0;
    return bits;
  });
}

/** Bits of every action a request for `bits` also accepts (itself and its compatible actions). */
function accepted(bits: number): number {
  let out = bits;
  for (const [a, b] of COMPATIBLE) {
    if (bits & ACTION_BITS[a]) out |= ACTION_BITS[b];
    if (bits & ACTION_BITS[b]) out |= ACTION_BITS[a];
  }
  return out;
}

/** How a tool's action stands to the request's: it agrees, says nothing, disagrees, or destroys unasked. */
export type Agreement = 'agrees' | 'neutral' | 'disagrees' | 'destroys';

export function agreement(request: number, tool: number): Agreement {
  if (tool === 0) return 'neutral';
  if (tool & DESTRUCTIVE && !(request & DESTRUCTIVE) && !(tool & accepted(request) & ~DESTRUCTIVE)) return 'destroys';
  if (request === 0) return 'neutral';
  return tool & accepted(request) ? 'agrees' : 'disagrees';
}

/**
 * Per tool-action bits (0–127), what a request for `request` multiplies such a tool's score by:
 * `disagree` for a disagreeing tool, `destroy` for a destructive one unasked, else 1. One table
 * per request, so the pass over the touched tools is a lookup.
 */
export function agreementFactors(request: number, disagree: number, destroy: number): Float64Array {
  const out = new Float64Array(128);
  for (let tool = 0; tool < 128; tool++) {
    const verdict = agreement(request, tool);
    out[tool] = verdict === 'disagrees' ? disagree : verdict === 'destroys' ? destroy : 1;
  }
  return out;
}

/** The names of the actions in `bits`, for explain ("delete", "create or update"). */
export function actionNames(bits: number): string {
  const names = (Object.keys(ACTION_BITS) as Action[]).filter((a) => bits & ACTION_BITS[a]);
  return names.join(' or ');
}

/** Action-group words that are nouns themselves: their synonyms are meant for the noun ("details" → get). */
const NOUN_MEMBERS = new Set(['info', 'detail', 'details', 'lookup']);

/**
 * C15: whether the request's word at `i` is used as a noun although its stem is a verb's: a
 * plural ("notes", "updates", "messages": no request verb is in its -s form) or a word after a
 * determiner or preposition ("the list", "for update").
 */
export function nounUse(raw: readonly string[], i: number): boolean {
  const word = raw[i]!;
  if (NOUN_MEMBERS.has(word)) return false;
  if (i > 0 && NOUN_MARKERS.has(raw[i - 1]!)) return true;
  return (
    word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !REQUEST_FORMS.has(word) && stem(word) !== word
  );
}

/** Tool verbs that are nouns too, as names use them (`git_log`, `get_pull_request_status`): never incidental. */
const NOUN_VERBS = new Set(['info', 'status', 'log', 'history', 'diff', 'count', 'new', 'list'].map(stem));

/** Words that join a second verb to the first ("find and delete", "clone then open", "go to open"). */
const VERB_JOINERS = new Set(['and', 'then', 'to', 'please', 'also', 'or', 'just']);

/**
 * C15 — the stems of a request's words that are verbs of tool names but not the request's action:
 * "how many open issues are there" does not ask to open anything, and "list open issues" lists.
 * The action is the first such word in a verb's place and any joined to it ("find and delete");
 * the others describe the object. A question has no action: all of them describe. The name match
 * lets none of them name a tool (`open_nodes` for "open issues").
 */
export function incidentalVerbs(text: string, question: boolean): ReadonlySet<string> {
  return readRequest(text, question).incidental;
}

function incidentalOf(raw: readonly string[], skip: ReadonlySet<number>, question: boolean): Set<string> {
  const out = new Set<string>();
  const verbs = new Set<string>();
  let main = false;
  for (let i = 0; i < raw.length; i++) {
    if (skip.has(i)) continue;
    const s = stem(raw[i]!);
    if (!STEM_ACTIONS.has(s)) continue;
    const previous = i > 0 ? raw[i - 1]! : undefined;
    const first: boolean = !main && !question && (previous === undefined || !NOUN_MARKERS.has(previous));
    const joined = main && previous !== undefined && VERB_JOINERS.has(previous);
    // "list" may be the action ("list open issues") but, a noun too, never describes.
    if (NOUN_VERBS.has(s)) main ||= first;
    else if (first || joined) {
      main = true;
      verbs.add(s);
    } else out.add(s);
  }
  for (const s of verbs) out.delete(s);
  return out;
}
