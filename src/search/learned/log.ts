/**
 * C13 — the usage log as ranking needs it: per tool, the distinct term sets of the searches that
 * led to it, with a count and the time of the last one. Bounded per tool and in total; pure data
 * (the file and Redis stores persist its `toJSON()` form).
 *
 * C14 — corroboration per (word, tool) pair: each entry also keeps which sources (client
 * identities, as short digests) taught it, at most two, and ranking reads only `lifting()`: per
 * tool, each entry cut to its words that at least two distinct sources used, in any searches, on
 * the way to that tool. One identity alone, however many sessions it opens, lifts nothing for
 * anyone; two people who call the same tool after searches sharing a word ("ingredient" for a
 * recipe API) confirm that word for that tool, even when their searches as wholes never repeat.
 *
 * C15 — a trusted source's word lifts alone (`trust`): the one identity of a gateway only one
 * identity can reach (stdio's user, the holder of an HTTP endpoint's only token) learns from its
 * own use at once. Trust is the reader's, never stored: the same file read by a gateway several
 * identities share trusts no one.
 */
import { learnedTerms } from './terms.js';

export interface LearnedEntry {
  /** Sorted index terms of the search (see terms.ts). */
  readonly terms: readonly string[];
  /** How many searches with these terms led to the tool. */
  count: number;
  /** Epoch ms of the last one. */
  last: number;
  /** C14: digests of the sources (sessions) that taught it, at most `SOURCES_KEPT`. */
  readonly sources: string[];
}

export interface ToolEvidence {
  /** Schema fingerprint when the evidence was recorded (absent: unknown, always kept). */
  schema?: string;
  readonly entries: Map<string, LearnedEntry>;
}

export interface LearnedLogLimits {
  /** Distinct term sets kept per tool; the least recent goes first. */
  readonly perTool: number;
  /** Distinct (tool, term set) entries kept in total. */
  readonly total: number;
  /**
   * C14: distinct sources (sessions) a word needs before it lifts a tool; default 2. 1 turns the
   * corroboration off (tests of the ranking itself; a log one trusted user wrote).
   */
  readonly corroboration?: 1 | 2;
}

export const DEFAULT_LEARNED_LIMITS: LearnedLogLimits = { perTool: 200, total: 50_000, corroboration: 2 };

/**
 * C14: sources kept per entry. Two are all corroboration asks; keeping no more bounds the file and
 * says nothing about how many people searched.
 */
export const SOURCES_KEPT = 2;
/** The source of evidence recorded before sources were kept: one unknown session. */
export const UNKNOWN_SOURCE = '-';

/**
 * The persisted form: version 1, tool → [terms joined by spaces, count, last, sources]; and when
 * something was forgotten, when (so a recording made earlier elsewhere does not bring it back).
 * An entry without sources (an older file) counts as taught by one unknown session.
 */
export interface LearnedLogJson {
  readonly version: 1;
  readonly tools: Record<string, { schema?: string; entries: [string, number, number, string[]?][] }>;
  readonly forgotten?: Record<string, number>;
  readonly clearedAt?: number;
}

/** Forget marks kept (the most recent): enough to outlast any store's sync delay. */
const MAX_FORGET_MARKS = 1_000;

export interface LearnedRecord {
  readonly query: string;
  readonly tool: string;
  /** Epoch ms; defaults to now. */
  readonly at?: number;
  readonly schema?: string;
  /** C14: who taught it (a session's digest); absent: a source of its own, never seen again. */
  readonly source?: string;
}

let anonymousSources = 0;

export class LearnedLog {
  private readonly tools = new Map<string, ToolEvidence>();
  private size = 0;
  /** Per tool, when it was last forgotten; evidence from no later than that is not taken. */
  private readonly forgotten = new Map<string, number>();
  /** When everything was last forgotten. */
  private clearedAt = -Infinity;
  /** Bumped on every change, so a derived index knows when to rebuild. */
  version = 0;
  /** The corroborated view, built once per version. */
  private view: { version: number; tools: Map<string, ToolEvidence> } | undefined;
  /** C15: sources whose word lifts without a second (see `trust`). */
  private trusted: ReadonlySet<string> = new Set();

  constructor(readonly limits: LearnedLogLimits = DEFAULT_LEARNED_LIMITS) {}

  get entryCount(): number {
    return this.size;
  }

  /** Record that a search for `query` led to `tool`. Returns false when the query has no terms. */
  record(record: LearnedRecord): boolean {
    const terms = learnedTerms(record.query);
    if (terms.length === 0 || record.tool === '') return false;
    const source = record.source ?? `record-${++anonymousSources}`;
    this.add(record.tool, terms, 1, record.at ?? Date.now(), record.schema, [source]);
    return true;
  }

  /** Add counted evidence (a merge from another store, or a load); `sources`: who taught it (C14). */
  add(
    tool: string,
    terms: readonly string[],
    count: number,
    last: number,
    schema?: string,
    sources: readonly string[] = [UNKNOWN_SOURCE],
  ): void {
    if (last <= this.clearedAt || last <= (this.forgotten.get(tool) ?? -Infinity)) return;
    let evidence = this.tools.get(tool);
    if (evidence && schema !== undefined && evidence.schema !== undefined && evidence.schema !== schema) {
      // The schema changed: what the old tool learned does not carry over.
      this.size -= evidence.entries.size;
      evidence = undefined;
    }
    if (!evidence) this.tools.set(tool, (evidence = { entries: new Map() }));
    if (schema !== undefined) evidence.schema = schema;
    const key = terms.join(' ');
    const entry = evidence.entries.get(key);
    if (entry) {
      entry.count += count;
      entry.last = Math.max(entry.last, last);
      for (const source of sources)
        if (entry.sources.length < SOURCES_KEPT && !entry.sources.includes(source)) entry.sources.push(source);
    } else {
      evidence.entries.set(key, {
        terms: [...terms],
        count,
        last,
        sources: [...new Set(sources)].slice(0, SOURCES_KEPT),
      });
      this.size++;
      if (evidence.entries.size > this.limits.perTool) this.dropOldest(evidence);
      if (this.size > this.limits.total * 1.05) this.prune();
    }
    this.version++;
  }

  evidence(tool: string): ToolEvidence | undefined {
    return this.tools.get(tool);
  }

  toolNames(): string[] {
    return [...this.tools.keys()];
  }

  /** Everything recorded, corroborated or not (summaries, persistence). */
  *entries(): IterableIterator<[string, ToolEvidence]> {
    yield* this.tools;
  }

  /**
   * C14: what ranking may use: per tool, each entry cut to its corroborated words (see
   * `corroboratedTerms`); entries left with none are dropped. Entries keep their keys (the whole
   * search's terms), so the log's replay (calibrate.ts) can hold out the search as it was made.
   */
  *lifting(): IterableIterator<[string, ToolEvidence]> {
    if (this.view?.version !== this.version) this.view = { version: this.version, tools: this.corroborated() };
    yield* this.view.tools;
  }

  /**
   * C15: the sources (digests, as recorded) whose lessons lift on their own word: the sole identity
   * of a gateway only it can reach. Replaces the set; none by default.
   */
  trust(sources: readonly string[]): void {
    const next = new Set(sources);
    if (next.size === this.trusted.size && [...next].every((s) => this.trusted.has(s))) return;
    this.trusted = next;
    this.version++;
  }

  /** C15: whether `source`'s word lifts alone. */
  trusts(source: string): boolean {
    return this.needed <= 1 || this.trusted.has(source);
  }

  private get needed(): number {
    return this.limits.corroboration ?? SOURCES_KEPT;
  }

  private corroborated(): Map<string, ToolEvidence> {
    if (this.needed <= 1) return this.tools;
    const out = new Map<string, ToolEvidence>();
    for (const [tool, evidence] of this.tools) {
      const confirmed = corroboratedTerms(evidence.entries.values(), this.needed, this.trusted);
      const entries = new Map<string, LearnedEntry>();
      for (const [key, entry] of evidence.entries) {
        const terms = entry.terms.filter((t) => confirmed.has(t));
        if (terms.length > 0) entries.set(key, { ...entry, terms });
      }
      if (entries.size > 0)
        out.set(tool, { ...(evidence.schema !== undefined && { schema: evidence.schema }), entries });
    }
    return out;
  }

  /**
   * C14, for the log's replay (leave-one-out): the words of `tool`'s entry `key` that lift only
   * because of one search of it — held out, fewer than two sources would be left for them. Without
   * this the replay would see a held-out search still helped by the words it confirmed itself and
   * choose too high a weight for the learned field. The lessons left in the entry after one is held
   * out are counted as its other source (or, from one source, that source), never the held one's.
   */
  unconfirmedWithout(tool: string, key: string): string[] {
    const evidence = this.tools.get(tool);
    const held = evidence?.entries.get(key);
    if (!evidence || !held || this.needed <= 1) return [];
    const others = [...evidence.entries].filter(([k]) => k !== key).map(([, entry]) => entry);
    const left = held.count > 1 ? (held.sources.length > 1 ? held.sources.slice(1) : held.sources) : [];
    if (left.length > 0) others.push({ ...held, sources: left });
    const confirmed = corroboratedTerms(others, this.needed, this.trusted, new Set(held.terms));
    return held.terms.filter((t) => !confirmed.has(t));
  }

  /** Forget one tool's evidence; true when there was some. */
  forget(tool: string): boolean {
    const evidence = this.tools.get(tool);
    if (!evidence) return false;
    this.size -= evidence.entries.size;
    this.tools.delete(tool);
    this.version++;
    return true;
  }

  clear(): void {
    this.tools.clear();
    this.size = 0;
    this.version++;
  }

  /**
   * Forget `tool` (absent: every tool) as of `at`, and remember when: evidence recorded no later
   * than `at` that arrives afterwards (from another process's store) is not taken either. Entries
   * last used after `at` stay (they arrived first).
   */
  forgetAt(tool: string | undefined, at: number): void {
    if (tool === undefined) this.clearedAt = Math.max(this.clearedAt, at);
    else {
      const mark = Math.max(at, this.forgotten.get(tool) ?? -Infinity);
      // Re-inserted so the map's order is by recency (the oldest mark goes first past the cap).
      this.forgotten.delete(tool);
      this.forgotten.set(tool, mark);
      if (this.forgotten.size > MAX_FORGET_MARKS) this.forgotten.delete(this.forgotten.keys().next().value!);
    }
    for (const [name, evidence] of this.tools) {
      if (tool !== undefined && name !== tool) continue;
      for (const [key, entry] of evidence.entries)
        if (entry.last <= at) {
          evidence.entries.delete(key);
          this.size--;
        }
      if (evidence.entries.size === 0) this.tools.delete(name);
    }
    this.version++;
  }

  /** Take `other`'s content (a store's newer copy) in place, so what holds this log sees it. */
  replaceWith(other: LearnedLog): void {
    this.tools.clear();
    for (const [name, evidence] of other.tools) this.tools.set(name, evidence);
    this.size = other.size;
    this.forgotten.clear();
    for (const [name, at] of other.forgotten) this.forgotten.set(name, at);
    this.clearedAt = other.clearedAt;
    this.version++;
  }

  /** Whether `tool` has evidence learned under another input schema than `schema`. */
  schemaChanged(tool: string, schema: string): boolean {
    const learnedUnder = this.tools.get(tool)?.schema;
    return learnedUnder !== undefined && learnedUnder !== schema;
  }

  /** Drop a tool's evidence when its schema is no longer the one it was learned under. */
  checkSchema(tool: string, schema: string): void {
    if (this.schemaChanged(tool, schema)) this.forget(tool);
  }

  toJSON(): LearnedLogJson {
    const tools: LearnedLogJson['tools'] = {};
    for (const [name, evidence] of this.tools) {
      tools[name] = {
        ...(evidence.schema !== undefined && { schema: evidence.schema }),
        entries: [...evidence.entries.values()].map((e) => [e.terms.join(' '), e.count, e.last, [...e.sources]]),
      };
    }
    return {
      version: 1,
      tools,
      ...(this.forgotten.size > 0 && { forgotten: Object.fromEntries(this.forgotten) }),
      ...(Number.isFinite(this.clearedAt) && { clearedAt: this.clearedAt }),
    };
  }

  /** Merge a persisted form in. Throws a TypeError when `json` is not one. */
  load(json: unknown): void {
    const checked = checkJson(json);
    if (checked.clearedAt !== undefined) this.forgetAt(undefined, checked.clearedAt);
    for (const [tool, at] of Object.entries(checked.forgotten ?? {})) this.forgetAt(tool, at);
    for (const [tool, value] of Object.entries(checked.tools)) {
      for (const [terms, count, last, sources] of value.entries)
        this.add(
          tool,
          terms.split(' ').filter(Boolean),
          count,
          last,
          value.schema,
          sources?.length ? sources : undefined,
        );
    }
  }

  static fromJSON(json: unknown, limits?: LearnedLogLimits): LearnedLog {
    const log = new LearnedLog(limits);
    log.load(json);
    return log;
  }

  private dropOldest(evidence: ToolEvidence): void {
    let oldestKey: string | undefined;
    let oldest = Infinity;
    for (const [key, entry] of evidence.entries)
      if (entry.last < oldest) {
        oldest = entry.last;
        oldestKey = key;
      }
    if (oldestKey !== undefined && evidence.entries.delete(oldestKey)) this.size--;
  }

  /** Over the total cap: keep the most recent `limits.total` entries. */
  private prune(): void {
    const all: { tool: string; key: string; last: number }[] = [];
    for (const [tool, evidence] of this.tools)
      for (const [key, entry] of evidence.entries) all.push({ tool, key, last: entry.last });
    all.sort((a, b) => b.last - a.last);
    for (const drop of all.slice(this.limits.total)) {
      const evidence = this.tools.get(drop.tool)!;
      evidence.entries.delete(drop.key);
      if (evidence.entries.size === 0) this.tools.delete(drop.tool);
    }
    this.size = Math.min(this.size, this.limits.total);
  }
}

/**
 * C14: the terms (of `only`, when given) that entries from at least `needed` distinct sources
 * contain, or (C15) an entry of a `trusted` source. An entry keeps at most `SOURCES_KEPT` sources,
 * and `needed` is at most that, so the union over entries answers "at least `needed`" exactly; an
 * entry whose trusted source was not kept already had two others.
 */
function corroboratedTerms(
  entries: Iterable<LearnedEntry>,
  needed: number,
  trusted: ReadonlySet<string>,
  only?: ReadonlySet<string>,
): Set<string> {
  const sourcesOf = new Map<string, Set<string>>();
  const confirmed = new Set<string>();
  for (const entry of entries) {
    const byTrusted = trusted.size > 0 && entry.sources.some((source) => trusted.has(source));
    for (const term of entry.terms) {
      if (confirmed.has(term) || (only && !only.has(term))) continue;
      let sources = sourcesOf.get(term);
      if (!sources) sourcesOf.set(term, (sources = new Set()));
      for (const source of entry.sources) sources.add(source);
      if (byTrusted || sources.size >= needed) confirmed.add(term);
    }
  }
  return confirmed;
}

function checkJson(json: unknown): LearnedLogJson {
  const j = json as LearnedLogJson;
  if (typeof j !== 'object' || j === null || j.version !== 1 || typeof j.tools !== 'object' || j.tools === null)
    throw new TypeError('not a learned-search file (version 1)');
  const marksOk =
    (j.clearedAt === undefined || Number.isFinite(j.clearedAt)) &&
    (j.forgotten === undefined ||
      (typeof j.forgotten === 'object' && j.forgotten !== null && Object.values(j.forgotten).every(Number.isFinite)));
  if (!marksOk) throw new TypeError('learned-search file has malformed forget marks');
  for (const value of Object.values(j.tools)) {
    const ok =
      typeof value === 'object' &&
      value !== null &&
      Array.isArray(value.entries) &&
      (value.schema === undefined || typeof value.schema === 'string') &&
      value.entries.every(
        (e) =>
          Array.isArray(e) &&
          typeof e[0] === 'string' &&
          Number.isFinite(e[1]) &&
          e[1] > 0 &&
          Number.isFinite(e[2]) &&
          (e[3] === undefined || (Array.isArray(e[3]) && e[3].every((x) => typeof x === 'string'))),
      );
    if (!ok) throw new TypeError('learned-search file has a malformed tool entry');
  }
  return j;
}
