/**
 * G5 — `initialize` requests per client address (limits `initializePerMinute`, `initializeBurst`).
 *
 * A client looping initialize + DELETE wrote 310 session keys and tombstones a second to a shared
 * store; the session cap does not stop it (each session ends at once). A token bucket per address:
 * `initializeBurst` at once, then `initializePerMinute`; past it the answer is 429 with the seconds
 * until the next one is allowed.
 *
 * Keyed by the TCP peer address: the gateway has one bearer token shared by its clients, so a
 * token names no one. Behind a reverse proxy every client shares the proxy's address (raise the
 * limits, or 0 turns this off). Buckets that have refilled are forgotten, so the table holds only
 * addresses seen in the last `initializeBurst / initializePerMinute` minutes.
 */

interface Bucket {
  tokens: number;
  at: number;
}

/** The verdict for one initialize: allowed, or refused with the seconds to wait. */
export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

export class InitializeRate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private sweepAt = 1024;

  constructor(
    perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** One initialize from `address`: takes a token when one is left. */
  take(address: string): RateVerdict {
    if (this.perMs <= 0) return { ok: true };
    const now = this.now();
    const bucket = this.refilled(this.buckets.get(address), now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(address, bucket);
      this.sweepIfGrown(now);
      return { ok: true };
    }
    this.buckets.set(address, bucket);
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
  }

  get size(): number {
    return this.buckets.size;
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.burst, at: now };
    return { tokens: Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs), at: now };
  }

  /** Forget full buckets once the table doubled since the last sweep (amortized O(1) per call). */
  private sweepIfGrown(now: number): void {
    if (this.buckets.size < this.sweepAt) return;
    for (const [address, bucket] of this.buckets)
      if (this.refilled(bucket, now).tokens >= this.burst) this.buckets.delete(address);
    this.sweepAt = Math.max(1024, this.buckets.size * 2);
  }
}
