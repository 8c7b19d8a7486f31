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
 * - G8: a 2026-07-28 call whose server asked its client something is *parked*: it returned
 *   `input_required`, and until the client's retry nothing of it is in flight here (the client may
 *   never come back). Its one question waits in the parked call (input-required.ts) and is answered
 *   by the retry only. It claims what its server sends for a short window after it parked — a
 *   question the server sends together with its first must be refused, not given to whoever else
 *   runs a call there — and then nothing, so one parked call does not make every other session's
 *   question unattributable for as long as it waits;
 * - something from a server is attributed to a session only when that session is the only one
 *   with a request in flight, recent, or freshly parked there. Two sessions: nobody (refuse or
 *   drop, never guess). A session that closed keeps its entries until their grace ends: what its
 *   server sends late must not fall to the next session that happens to call that server.
 */

export interface Attribution<T> {
  /** The only session with a request in flight, recent or freshly parked on the server; undefined when none or several. */
  readonly sessionId: string | undefined;
  /** Its request still running (what a server → client request can be sent through), if any. */
  readonly live: T | undefined;
  /** How many distinct sessions have such a request there. */
  readonly sessions: number;
  /** That session's claim is a parked call's (G8): it takes no other question until its client's retry. */
  readonly parked: boolean;
}

/** A request's place in the table, from forward to answer. */
export interface RequestClaim {
  /** G8: the request returned `input_required`; its work waits for the client's retry (see the file comment). */
  park(): void;
  /** G8: the retry came: in flight again. */
  resume(): void;
  /** It answered, failed or was cancelled. */
  end(): void;
}

export interface AttributionWindows {
  /** How long an ended request still claims what its server sends (ms). */
  readonly graceMs: number;
  /** How long a parked call still claims what its server sends (ms). */
  readonly parkedMs: number;
}

type State = 'running' | 'parked' | 'ended';

interface Entry<T> {
  readonly sessionId: string;
  readonly value: T;
  state: State;
  /** When it parked or ended (ms). */
  since: number;
}

export class AttributionTable<T> {
  private readonly byServer = new Map<string, Set<Entry<T>>>();
  private readonly windows: AttributionWindows;

  constructor(
    windows: number | Partial<AttributionWindows>,
    private readonly now: () => number = Date.now,
  ) {
    const given = typeof windows === 'number' ? { graceMs: windows } : windows;
    this.windows = { graceMs: given.graceMs ?? 0, parkedMs: given.parkedMs ?? 0 };
  }

  /** A session's request started on `server`. `lingers`: whether it claims the grace period once ended. */
  begin(server: string, sessionId: string, value: T, lingers = true): RequestClaim {
    const entry: Entry<T> = { sessionId, value, state: 'running', since: 0 };
    let set = this.byServer.get(server);
    if (!set) this.byServer.set(server, (set = new Set()));
    set.add(entry);
    const { graceMs } = this.windows;
    return {
      park: () => this.move(entry, 'parked'),
      resume: () => this.move(entry, 'running'),
      end: () => {
        if (entry.state === 'ended') return;
        this.move(entry, 'ended');
        if (graceMs <= 0 || !lingers) return this.drop(server, entry);
        // Without this, an ended request would leave only when something from its server is next
        // attributed: under plain tool-call load that never happens, and every call's context stayed.
        setTimeout(() => this.drop(server, entry), graceMs).unref();
      },
    };
  }

  /** Requests held (in flight, parked, or within their grace period), over every server. */
  get size(): number {
    let n = 0;
    for (const set of this.byServer.values()) n += set.size;
    return n;
  }

  /** Who caused what `server` sends now (see the file comment). */
  attribute(server: string): Attribution<T> {
    const sessions = new Set<string>();
    let live: Entry<T> | undefined;
    let parked = false;
    for (const entry of this.claiming(server)) {
      sessions.add(entry.sessionId);
      if (entry.state === 'running') live ??= entry;
      else if (entry.state === 'parked') parked = true;
    }
    if (sessions.size !== 1) return { sessionId: undefined, live: undefined, sessions: sessions.size, parked: false };
    const [sessionId] = sessions;
    return { sessionId, live: live?.value, sessions: 1, parked: live === undefined && parked };
  }

  private move(entry: Entry<T>, state: State): void {
    if (entry.state === 'ended') return;
    entry.state = state;
    entry.since = this.now();
  }

  /** Entries of `server` that claim what it sends now (ended ones past their grace are removed). */
  private *claiming(server: string): Iterable<Entry<T>> {
    const set = this.byServer.get(server);
    if (!set) return;
    const now = this.now();
    for (const entry of [...set]) {
      if (entry.state === 'running') yield entry;
      else if (entry.state === 'parked') {
        // Past its window a parked call stays in the table (its retry resumes it) but claims nothing.
        if (now - entry.since < this.windows.parkedMs) yield entry;
      } else if (now - entry.since > this.windows.graceMs) this.drop(server, entry);
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
