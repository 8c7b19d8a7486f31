/**
 * G5 — refreshes per server are bounded: one in flight plus a dirty flag, and a minimum gap.
 * A server sending `list_changed` every 60 ms on a 20,000-tool list made the hub re-list it
 * thousands of times (a core at 100 %). Now a change while a refresh is waiting to start adds
 * nothing (that refresh will see it); a change during a walk queues exactly one more, which
 * starts no sooner than `refreshMinGapMs` after the previous one started.
 */
export class RefreshGate {
  private waiting = false;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly minGapMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A change arrived: true when a refresh must be queued (none is waiting to start). */
  request(): boolean {
    if (this.waiting) return false;
    this.waiting = true;
    return true;
  }

  /** The queued refresh is about to run: waits out the gap; changes after this queue another. */
  async enter(): Promise<void> {
    const wait = this.lastStart + this.minGapMs - this.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.waiting = false;
    this.lastStart = this.now();
  }
}
