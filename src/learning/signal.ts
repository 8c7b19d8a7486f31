/**
 * C13 — the label: a keyword search followed, in the same session, by a call of one of its results
 * (or by a `select:` of a tool) means "this search led to that tool". A search nothing follows
 * records nothing. Each session's recent searches are kept apart; only the learner's term sets
 * are shared, never a session's raw query.
 */
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

export type RecordLabel = (query: string, tool: string) => void;

export class UsageSignal {
  private readonly sessions = new Map<string, RecentSearch[]>();

  constructor(
    private readonly record: RecordLabel,
    private readonly now: () => number = Date.now,
  ) {}

  /** After every search of a session. */
  searched(sessionId: string, query: string, result: Pick<ToolSearchResult, 'kind' | 'matches'>): void {
    if (result.kind === 'select') {
      // select: after a keyword search: that search was looking for these tools.
      const last = this.recent(sessionId)[0];
      if (last) for (const tool of result.matches) this.teach(last, tool);
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
  called(sessionId: string, tool: string): void {
    const search = this.recent(sessionId).find((s) => s.matches.has(tool));
    if (search) this.teach(search, tool);
  }

  ended(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private teach(search: RecentSearch, tool: string): void {
    if (search.taught.has(tool)) return;
    search.taught.add(tool);
    this.record(search.query, tool);
  }

  private recent(sessionId: string): RecentSearch[] {
    const list = this.sessions.get(sessionId);
    if (!list) return [];
    const cutoff = this.now() - WINDOW_MS;
    while (list.length > 0 && list[list.length - 1]!.at < cutoff) list.pop();
    return list;
  }
}
