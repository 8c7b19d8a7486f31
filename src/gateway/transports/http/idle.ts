import type { ServerResponse } from 'node:http';

/**
 * G5 — idle expiry of HTTP sessions (clients that vanished without DELETE).
 *
 * Last-request times and open requests (a standing GET stream counts as activity) per session;
 * a periodic sweep closes sessions idle past the timeout.
 */
export class IdleSessionSweeper {
  private readonly lastSeen = new Map<string, number>();
  private readonly open = new Map<string, number>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly expire: (sessionId: string) => boolean,
  ) {
    if (idleMs > 0) {
      this.timer = setInterval(() => this.sweep(), Math.min(60_000, Math.max(10, idleMs / 2)));
      this.timer.unref();
    }
  }

  track(sessionId: string, res: ServerResponse): void {
    this.lastSeen.set(sessionId, Date.now());
    this.open.set(sessionId, (this.open.get(sessionId) ?? 0) + 1);
    res.once('close', () => {
      this.lastSeen.set(sessionId, Date.now());
      const n = (this.open.get(sessionId) ?? 1) - 1;
      if (n > 0) this.open.set(sessionId, n);
      else this.open.delete(sessionId);
    });
  }

  forget(sessionId: string): void {
    this.lastSeen.delete(sessionId);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [sessionId, seen] of this.lastSeen) {
      if (seen > cutoff || this.open.has(sessionId)) continue;
      if (!this.expire(sessionId)) this.lastSeen.delete(sessionId);
    }
  }
}
