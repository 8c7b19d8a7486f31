/**
 * G4 — upstream logging (`notifications/message`) to client sessions. Each session's
 * `logging/setLevel` is honoured here, by filtering per session: one session choosing `error`
 * must not silence `debug` for another on the same shared upstream connection. Upstream servers
 * are asked for the most verbose level any session chose. The `logger` field names the server
 * (`<server>` or `<server>/<logger>`) so a client can tell many servers' logs apart.
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

export class SessionLogging {
  private readonly levels = new Map<string, LoggingLevel>();
  private upstreamLevel: LoggingLevel | undefined;

  constructor(
    /** Ask every server that offers logging for this level. */
    private readonly setUpstreamLevel: (level: LoggingLevel) => Promise<void>,
    private readonly send: (sessionId: string, params: Record<string, unknown>) => void,
    private readonly liveSessions: () => Iterable<string>,
  ) {}

  async setLevel(sessionId: string, level: LoggingLevel): Promise<void> {
    this.levels.set(sessionId, level);
    const wanted = mostVerbose(this.levels.values());
    if (wanted !== undefined && wanted !== this.upstreamLevel) {
      this.upstreamLevel = wanted;
      await this.setUpstreamLevel(wanted);
    }
  }

  /** The level servers were last asked for; a server that (re)connects is asked for it too. */
  get requested(): LoggingLevel | undefined {
    return this.upstreamLevel;
  }

  forget(sessionId: string): void {
    this.levels.delete(sessionId);
  }

  /** An upstream log message: to every session whose level lets it through (no level: all). */
  deliver(server: string, params: Record<string, unknown>): void {
    const rank = LOG_LEVELS.indexOf(params['level'] as LoggingLevel);
    const logger = typeof params['logger'] === 'string' ? `${server}/${params['logger']}` : server;
    for (const sessionId of this.liveSessions()) {
      const level = this.levels.get(sessionId);
      if (level !== undefined && rank < LOG_LEVELS.indexOf(level)) continue;
      this.send(sessionId, { ...params, logger });
    }
  }
}

function mostVerbose(levels: Iterable<LoggingLevel>): LoggingLevel | undefined {
  let best: number | undefined;
  for (const level of levels) {
    const rank = LOG_LEVELS.indexOf(level);
    if (best === undefined || rank < best) best = rank;
  }
  return best === undefined ? undefined : LOG_LEVELS[best];
}
