/**
 * G4 — upstream logging (`notifications/message`) to client sessions, under the isolation rule:
 * a log line goes only to the session whose request caused it (the attribution table names the
 * only session with a request in flight or recent on that server), or, on a single-user gateway
 * (stdio), to its one session. A line nobody can be named for is dropped: a server that logs its
 * arguments must not show one user's data to another.
 *
 * Each session's `logging/setLevel` filters what it receives. Upstream servers are asked for the
 * most verbose level a live session chose, counting a session that chose none as `info`; the
 * level is recomputed when a session leaves, so it never stays more verbose than a live session
 * asked for and one session choosing `emergency` does not silence the others.
 * The `logger` field names the server (`<server>` or `<server>/<logger>`).
 */
import type { LoggingLevel } from '@modelcontextprotocol/server';

export const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** What a session that never sent `logging/setLevel` is counted as wanting. */
export const DEFAULT_SESSION_LOG_LEVEL: LoggingLevel = 'info';

export interface SessionLoggingOptions {
  /** Ask every server that offers logging for this level. */
  setUpstreamLevel: (level: LoggingLevel) => Promise<void>;
  send: (sessionId: string, params: Record<string, unknown>) => void;
  liveSessions: () => Iterable<string>;
  /** The one session that caused what `server` sends now, if any (attribution.ts). */
  owner: (server: string) => string | undefined;
  /** A single-user gateway: every line goes to its session. */
  singleUser: () => boolean;
}

export class SessionLogging {
  private readonly levels = new Map<string, LoggingLevel>();
  private upstreamLevel: LoggingLevel | undefined;

  constructor(private readonly options: SessionLoggingOptions) {}

  async setLevel(sessionId: string, level: LoggingLevel): Promise<void> {
    this.levels.set(sessionId, level);
    await this.recompute();
  }

  /** The level servers were last asked for; a server that (re)connects is asked for it too. */
  get requested(): LoggingLevel | undefined {
    return this.upstreamLevel;
  }

  /** The session left: its level no longer counts, and the upstream level is recomputed. */
  forget(sessionId: string): void {
    if (!this.levels.delete(sessionId)) return;
    void this.recompute().catch(() => undefined);
  }

  /**
   * An upstream log message: to the session that caused it, when its level lets it through.
   * `session`: it came on that session's own connection (G5, `"isolation": "session"`).
   */
  deliver(server: string, params: Record<string, unknown>, session?: string): void {
    const rank = LOG_LEVELS.indexOf(params['level'] as LoggingLevel);
    const logger = typeof params['logger'] === 'string' ? `${server}/${params['logger']}` : server;
    for (const sessionId of this.recipients(server, session)) {
      const level = this.levels.get(sessionId);
      if (level !== undefined && rank < LOG_LEVELS.indexOf(level)) continue;
      this.options.send(sessionId, { ...params, logger });
    }
  }

  private recipients(server: string, session: string | undefined): string[] {
    const live = [...this.options.liveSessions()];
    if (session !== undefined) return live.includes(session) ? [session] : [];
    if (this.options.singleUser()) return live;
    const owner = this.options.owner(server);
    return owner !== undefined && live.includes(owner) ? [owner] : [];
  }

  /** Most verbose level of the live sessions (none chosen counts as the default); sent when it changed. */
  private async recompute(): Promise<void> {
    if (this.levels.size === 0 && this.upstreamLevel === undefined) return;
    const live = [...this.options.liveSessions()];
    const wanted = mostVerbose(live.map((id) => this.levels.get(id) ?? DEFAULT_SESSION_LOG_LEVEL));
    const level = wanted ?? DEFAULT_SESSION_LOG_LEVEL;
    if (level === this.upstreamLevel) return;
    this.upstreamLevel = level;
    await this.options.setUpstreamLevel(level);
  }
}

export function mostVerbose(levels: Iterable<LoggingLevel>): LoggingLevel | undefined {
  let best: number | undefined;
  for (const level of levels) {
    const rank = LOG_LEVELS.indexOf(level);
    if (best === undefined || rank < best) best = rank;
  }
  return best === undefined ? undefined : LOG_LEVELS[best];
}
