/**
 * C13 — the label: a keyword search followed, in the same session, by a call of one of its results
 * (or by a `select:` of one of them) means "this search led to that tool". A search nothing follows
 * records nothing, and neither does a `select:` with no search before it or (C15) of a tool that
 * search did not return: naming any tool after any search would teach the search's words to a tool
 * it never found. Each session's recent searches are kept apart; only the learner's term sets are
 * shared, never a session's raw query.
 *
 * C14/C15 — who taught a lesson is its teacher: the client identity the gateway gives with each
 * search and call (sessions/identity.ts), recorded as a digest. A search and its call are paired by
 * the session (`usageKey`), but a session is not a teacher: anyone opens another. A request with no
 * teacher (an HTTP caller the gateway cannot tell apart from anyone else) teaches nothing. One
 * teacher teaches at most `lessonsPerHour` lessons.
 */
import { createHash } from 'node:crypto';
import type { ToolSearchResult } from '../search/search-types.js';

/** A search older than this no longer explains a call. */
const WINDOW_MS = 10 * 60_000;
/** Searches remembered per session (the most recent first). */
const PER_SESSION = 8;
/** Sessions remembered at once (least recently active dropped first). */
const MAX_SESSIONS = 10_000;

interface RecentSearch {
  readonly query: string;
  readonly matches: ReadonlySet<string>;
  readonly at: number;
  /** Tools this search already taught (each once). */
  readonly taught: Set<string>;
}

/** C14: lessons one client may teach per hour, by default: a busy agent's honest use, not a flood. */
export const DEFAULT_LESSONS_PER_HOUR = 60;
const HOUR_MS = 3_600_000;

/** `source`: a digest of the client's key (C14), the same for all its lessons. */
export type RecordLabel = (query: string, tool: string, source: string) => void;

export interface UsageSignalOptions {
  readonly now?: () => number;
  /** Lessons one client may teach per hour; default `DEFAULT_LESSONS_PER_HOUR`. */
  readonly lessonsPerHour?: number;
  /** Told once per teacher and hour when its lessons start being ignored. */
  readonly capped?: (source: string, lessonsPerHour: number) => void;
}

export class UsageSignal {
  private readonly sessions = new Map<string, RecentSearch[]>();
  /** Per client digest: the times of its lessons in the last hour (oldest first). */
  private readonly taught = new Map<string, number[]>();
  private readonly now: () => number;
  private readonly lessonsPerHour: number;

  constructor(
    private readonly record: RecordLabel,
    private readonly options: UsageSignalOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.lessonsPerHour = options.lessonsPerHour ?? DEFAULT_LESSONS_PER_HOUR;
  }

  /** After every search of a session; `teacher`: who searched (absent: nobody it can name). */
  searched(
    sessionId: string,
    query: string,
    result: Pick<ToolSearchResult, 'kind' | 'matches'>,
    teacher: string | undefined,
  ): void {
    if (result.kind === 'select') {
      // select: after a keyword search of one of its results: that search was looking for it.
      const last = this.recent(sessionId)[0];
      if (last) for (const tool of result.matches) if (last.matches.has(tool)) this.teach(teacher, last, tool);
      return;
    }
    if (result.kind !== 'keyword' || result.matches.length === 0) return;
    const list = this.recent(sessionId);
    list.unshift({ query, matches: new Set(result.matches), at: this.now(), taught: new Set() });
    if (list.length > PER_SESSION) list.length = PER_SESSION;
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, list);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
  }

  /** After a call of `tool` that reached the tool (its own error, e.g. bad arguments, still counts). */
  called(sessionId: string, tool: string, teacher: string | undefined): void {
    const search = this.recent(sessionId).find((s) => s.matches.has(tool));
    if (search) this.teach(teacher, search, tool);
  }

  ended(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private teach(teacher: string | undefined, search: RecentSearch, tool: string): void {
    if (teacher === undefined || search.taught.has(tool)) return;
    search.taught.add(tool);
    const source = sourceDigest(teacher);
    if (!this.withinCap(source)) return;
    this.record(search.query, tool, source);
  }

  /** C14: counts the lesson against its client's hour; false when the hour's budget is spent. */
  private withinCap(source: string): boolean {
    const now = this.now();
    let times = this.taught.get(source);
    if (!times) this.taught.set(source, (times = []));
    while (times.length > 0 && times[0]! <= now - HOUR_MS) times.shift();
    if (times.length >= this.lessonsPerHour) {
      if (times.length === this.lessonsPerHour) this.options.capped?.(source, this.lessonsPerHour);
      // One marker past the cap, so the warning is given once until the hour moves on.
      if (times.length === this.lessonsPerHour) times.push(now);
      return false;
    }
    times.push(now);
    if (this.taught.size > MAX_SESSIONS) this.taught.delete(this.taught.keys().next().value!);
    return true;
  }

  private recent(sessionId: string): RecentSearch[] {
    const list = this.sessions.get(sessionId);
    if (!list) return [];
    const cutoff = this.now() - WINDOW_MS;
    while (list.length > 0 && list[list.length - 1]!.at < cutoff) list.pop();
    return list;
  }
}

/** C14: a teacher as the learned log names it: short, and not the identity (or any credential) itself. */
export function sourceDigest(key: string): string {
  return createHash('sha256').update(`toolsearch-learning:${key}`).digest('base64url').slice(0, 10);
}
