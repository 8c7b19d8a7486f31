/**
 * G4/G5 — which client session caused what an upstream server sends now. Under the 2025 protocol
 * a server → client request (`sampling/createMessage`, `elicitation/create`, `roots/list`) or a
 * log message on a shared upstream connection names no client request, so the gateway can only
 * say "the session whose request is running on that server". This table is that knowledge, kept
 * free of any SDK type so every protocol era uses the same rule:
 *
 * - a session's request is *in flight* on a server from forward to answer;
 * - after it ends (answered, failed or cancelled) it stays *recent* for a grace period, because a
 *   server may still sample or log on its behalf after the answer left (a late or cancelled call);
 * - something from a server is attributed to a session only when that session is the only one
 *   with a request in flight or recent there. Two sessions: nobody (refuse or drop, never guess).
 *   A session that closed keeps its entries until their grace ends: what its server sends late
 *   must not fall to the next session that happens to call that server.
 */

export interface Attribution<T> {
  /** The only session with a request in flight or recent on the server; undefined when none or several. */
  readonly sessionId: string | undefined;
  /** Its request still running (what a server → client request can be sent through), if any. */
  readonly live: T | undefined;
  /** How many distinct sessions have a request in flight or recent there. */
  readonly sessions: number;
}

interface Entry<T> {
  readonly sessionId: string;
  readonly value: T;
  /** When the request ended (ms); undefined while it runs. */
  endedAt: number | undefined;
}

export class AttributionTable<T> {
  private readonly byServer = new Map<string, Set<Entry<T>>>();

  constructor(
    /** How long an ended request still claims what its server sends (ms). */
    private readonly graceMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A session's request started on `server`; call the returned function when it ends. */
  begin(server: string, sessionId: string, value: T, lingers = true): () => void {
    const entry: Entry<T> = { sessionId, value, endedAt: undefined };
    let set = this.byServer.get(server);
    if (!set) this.byServer.set(server, (set = new Set()));
    set.add(entry);
    return () => {
      entry.endedAt = this.now();
      if (this.graceMs <= 0 || !lingers) return this.drop(server, entry);
      // Without this, an ended request would leave only when something from its server is next
      // attributed: under plain tool-call load that never happens, and every call's context stayed.
      setTimeout(() => this.drop(server, entry), this.graceMs).unref();
    };
  }

  /** Requests held (in flight or within their grace period), over every server. */
  get size(): number {
    let n = 0;
    for (const set of this.byServer.values()) n += set.size;
    return n;
  }

  /** Who caused what `server` sends now (see the file comment). */
  attribute(server: string): Attribution<T> {
    const sessions = new Set<string>();
    let live: Entry<T> | undefined;
    for (const entry of this.current(server)) {
      sessions.add(entry.sessionId);
      if (entry.endedAt === undefined) live ??= entry;
    }
    if (sessions.size !== 1) return { sessionId: undefined, live: undefined, sessions: sessions.size };
    const [sessionId] = sessions;
    return { sessionId, live: live?.value, sessions: 1 };
  }

  /** Entries of `server` still in flight or within the grace period (expired ones are removed). */
  private *current(server: string): Iterable<Entry<T>> {
    const set = this.byServer.get(server);
    if (!set) return;
    const cutoff = this.now() - this.graceMs;
    for (const entry of [...set]) {
      if (entry.endedAt !== undefined && entry.endedAt < cutoff) this.drop(server, entry);
      else yield entry;
    }
  }

  private drop(server: string, entry: Entry<T>): void {
    const set = this.byServer.get(server);
    if (!set) return;
    set.delete(entry);
    if (set.size === 0) this.byServer.delete(server);
  }
}
