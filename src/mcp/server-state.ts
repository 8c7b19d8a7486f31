/**
 * H3/G5 — the one model of an upstream server's state, shared by the hub, the search text (C12),
 * `search --json`, `inspect`, the logs and the status page:
 *
 * - `connecting`: its first attempt, or the first retry after it dropped; searches wait for it (C8).
 * - `connected`: listed tools are in the catalog.
 * - `failed`: an attempt failed; the reason says why in words a user acts on (command not found,
 *   exit code, last stderr line, timeout). Retried with backoff until `maxAttempts`; searches do
 *   not wait for it and name it as failed, apart from servers still connecting.
 * - `quarantined`: it dropped `flapLimit` times within `flapWindowMs` (a crash loop); left alone
 *   for `quarantineMs` (doubling on each repeat), then tried once more.
 * - `needs-sign-in` (shown "needs sign-in"): an OAuth server with no usable token; the reason
 *   names the command to run (`toolsearch auth login <server>`); it connects once that is done (G7).
 * - `closed`: the hub was closed.
 *
 * Pure: decisions from timestamps and counts; the hub does the I/O.
 */

export type ServerState = 'connecting' | 'connected' | 'failed' | 'quarantined' | 'needs-sign-in' | 'closed';

export interface ServerStatus {
  readonly server: string;
  readonly state: ServerState;
  readonly tools: number;
  /** Failed attempts since the backoff was last reset (it resets once a server stayed up `stableAfterMs`). */
  readonly attempts: number;
  /** How many times the hub reconnected (or tried to) after the first attempt. */
  readonly reconnects: number;
  /** The latest failure, kept after a recovery (status pages show it). */
  readonly lastError?: string;
  /** Epoch ms of the next retry, while one is scheduled. */
  readonly nextRetryAt?: number;
  /** Epoch ms of the last state change. */
  readonly since: number;
  readonly pid?: number;
  /** G4 per-server counts, when the hub aggregates them. */
  readonly resources?: number;
  readonly prompts?: number;
  /** G5: per-session connections open, for an `"isolation": "session"` server. */
  readonly sessionConnections?: number;
}

export interface ReconnectOptions {
  /** First delay; doubles each failed attempt. Default 500 ms. */
  initialDelayMs?: number;
  /** Cap on the delay. Default 30 s. */
  maxDelayMs?: number;
  /** Failed attempts in a row before giving up (the server stays `failed`). Default 5. */
  maxAttempts?: number;
  /** The backoff resets only after a server stayed connected this long. Default 30 s. */
  stableAfterMs?: number;
  /** Drops within `flapWindowMs` that quarantine a server. Default 3. */
  flapLimit?: number;
  /** Default 60 s. */
  flapWindowMs?: number;
  /** First quarantine; doubles on each repeat, capped at 1 h. Default 5 min. */
  quarantineMs?: number;
}

export const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 5,
  stableAfterMs: 30_000,
  flapLimit: 3,
  flapWindowMs: 60_000,
  quarantineMs: 5 * 60_000,
};

const MAX_QUARANTINE_MS = 60 * 60_000;

/** What to do after a failure or a drop. */
export type RetryDecision =
  | { readonly kind: 'retry'; readonly delayMs: number }
  | { readonly kind: 'quarantine'; readonly delayMs: number; readonly reason: string }
  | { readonly kind: 'give-up' };

/** Per-server backoff memory: consecutive failures, recent drops, quarantines so far. */
export class BackoffState {
  attempts = 0;
  reconnects = 0;
  private drops: number[] = [];
  private quarantines = 0;
  private connectedAt: number | undefined;

  constructor(private readonly policy: Required<ReconnectOptions>) {}

  /** The server is up. The backoff is not reset yet: only staying up `stableAfterMs` does that. */
  connected(now: number): void {
    this.connectedAt = now;
  }

  /** A connected server went away. Flapping (a crash loop) quarantines it. */
  dropped(now: number): RetryDecision {
    if (this.connectedAt !== undefined && now - this.connectedAt >= this.policy.stableAfterMs) {
      this.attempts = 0;
      this.drops = [];
    }
    this.connectedAt = undefined;
    this.drops = [...this.drops.filter((t) => now - t < this.policy.flapWindowMs), now];
    if (this.drops.length >= this.policy.flapLimit) {
      this.drops = [];
      const delayMs = Math.min(this.policy.quarantineMs * 2 ** this.quarantines, MAX_QUARANTINE_MS);
      this.quarantines++;
      return {
        kind: 'quarantine',
        delayMs,
        reason: `dropped ${this.policy.flapLimit} times within ${seconds(this.policy.flapWindowMs)}`,
      };
    }
    return this.failed();
  }

  /** An attempt failed (or a drop that is not flapping). */
  failed(): RetryDecision {
    this.attempts++;
    if (this.attempts > this.policy.maxAttempts) return { kind: 'give-up' };
    return {
      kind: 'retry',
      delayMs: Math.min(this.policy.initialDelayMs * 2 ** (this.attempts - 1), this.policy.maxDelayMs),
    };
  }
}

/** What an attempt left behind, to explain a failure. */
export interface FailureEvidence {
  /** The error the connection attempt rejected with. */
  readonly message: string;
  /** The configured command (stdio servers). */
  readonly command?: string;
  /** Exit code or signal of the spawned process, when it exited. */
  readonly exit?: { readonly code: number | null; readonly signal: string | null };
  /** The last line the server wrote to stderr. */
  readonly lastStderr?: string;
  /** G5: the configured `cwd` (as written), when that directory does not exist. */
  readonly missingCwd?: string;
}

/**
 * A failure in the words a user acts on: "command not found: supabase-mcp", "exited with code 3:
 * missing SUPABASE_TOKEN", "timed out after 30000 ms".
 */
export function describeFailure(evidence: FailureEvidence): string {
  const stderr = evidence.lastStderr ? `; last stderr line: ${JSON.stringify(evidence.lastStderr)}` : '';
  // Node reports a missing cwd as the command's ENOENT: name the directory instead.
  if (evidence.missingCwd !== undefined && /\bENOENT\b/.test(evidence.message))
    return `working directory not found: ${evidence.missingCwd} (the server's "cwd")`;
  if (/\bENOENT\b/.test(evidence.message) && /\bspawn\b/.test(evidence.message)) {
    return `command not found: ${evidence.command ?? evidence.message.replace(/^.*spawn (\S+) ENOENT.*$/, '$1')}`;
  }
  if (/\bEACCES\b/.test(evidence.message) && /\bspawn\b/.test(evidence.message))
    return `command not executable: ${evidence.command ?? evidence.message}`;
  if (evidence.exit) {
    const how =
      evidence.exit.code !== null
        ? `exited with code ${evidence.exit.code}`
        : `killed by ${evidence.exit.signal ?? 'a signal'}`;
    return `${how}${stderr}`;
  }
  return `${evidence.message}${stderr}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
