/**
 * H3/G5 — the one model of an upstream server's state, shared by the hub, the search text (C12),
 * `search --json`, `inspect`, the logs and the status page:
 *
 * - `connecting`: its first attempt, or the first retry after it dropped; searches wait for it (C8).
 * - `installing` (G13): started through a package runner (npx, uvx, …) that has not handed over to
 *   the server yet (no byte on stdout); pending like `connecting`, but bounded by the install's own
 *   rules (connect-deadline.ts), not by the connect timeout.
 * - `connected`: listed tools are in the catalog.
 * - `failed`: an attempt failed; the reason says why in words a user acts on (command not found,
 *   exit code and the first meaningful stderr line, timeout, a broken npx cache and its fix). Retried with backoff until `maxAttempts`; searches do
 *   not wait for it and name it as failed, apart from servers still connecting.
 * - `quarantined`: it dropped `flapLimit` times within `flapWindowMs` (a crash loop); left alone
 *   for `quarantineMs` (doubling on each repeat), then tried once more.
 * - `needs-sign-in` (shown "needs sign-in"): an OAuth server with no usable token; the reason
 *   names the command to run (`toolsearch auth login <server>`); it connects once that is done (G7).
 * - `closed`: the hub was closed.
 *
 * Pure: decisions from timestamps and counts; the hub does the I/O.
 */
import { brokenNpxCache, meaningfulErrorLine } from './stderr-reason.js';

export type ServerState =
  | 'connecting'
  | 'installing'
  | 'connected'
  | 'failed'
  | 'quarantined'
  | 'needs-sign-in'
  | 'closed';

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
  /** G13: what to do about the latest failure, when known (`toolsearch doctor` prints it). */
  readonly fix?: string;
  /** G13: the package runner it is started through (`npx`, `uvx`, …), if any. */
  readonly runner?: string;
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
  /** The whole command line as the config writes it, for "run it by hand" (stdio servers). */
  readonly commandLine?: string;
  /** Exit code or signal of the spawned process, when it exited. */
  readonly exit?: { readonly code: number | null; readonly signal: string | null };
  /** What the server wrote to stderr in this attempt (its last lines, bounded: stderr-reason.ts). */
  readonly stderr?: readonly string[];
  /** G5: the configured `cwd` (as written), when that directory does not exist. */
  readonly missingCwd?: string;
  /** For the form of a command to paste (default: this process's platform). */
  readonly platform?: NodeJS.Platform;
}

/** A failure in words, and the next step when one is known. */
export interface FailureExplanation {
  readonly reason: string;
  readonly fix?: string;
}

/**
 * A failure in the words a user acts on: "command not found: supabase-mcp", "exited with code 3;
 * stderr: "missing SUPABASE_TOKEN"", "timed out after 30000 ms". The stderr line is the first one
 * that says what went wrong, not Node's version footer (G13).
 */
export function describeFailure(evidence: FailureEvidence): string {
  return explainFailure(evidence).reason;
}

export function explainFailure(evidence: FailureEvidence): FailureExplanation {
  const { message, command, commandLine } = evidence;
  const line = evidence.stderr ? meaningfulErrorLine(evidence.stderr) : undefined;
  const stderr = line !== undefined ? `; stderr: ${JSON.stringify(line)}` : '';
  // Node reports a missing cwd as the command's ENOENT: name the directory instead.
  if (evidence.missingCwd !== undefined && /\bENOENT\b/.test(message))
    return {
      reason: `working directory not found: ${evidence.missingCwd} (the server's "cwd")`,
      fix: 'create that folder, or change "cwd" in the config',
    };
  if (/\bENOENT\b/.test(message) && /\bspawn\b/.test(message)) {
    const program = command ?? message.replace(/^.*spawn (\S+) ENOENT.*$/, '$1');
    return { reason: `command not found: ${program}`, fix: `install ${program}, or give its full path as "command"` };
  }
  if (/\bEACCES\b/.test(message) && /\bspawn\b/.test(message))
    return {
      reason: `command not executable: ${command ?? message}`,
      fix: 'make it executable, or give the right path as "command"',
    };
  const broken = evidence.stderr ? brokenNpxCache(evidence.stderr, evidence.platform ?? process.platform) : undefined;
  const how = evidence.exit ? exitWords(evidence.exit) : message;
  // The fix first: a search answer shows the model only the start of a long reason.
  if (broken)
    return {
      reason: `a broken npx cache (an install that was cut off?): clear it with ${broken.clear}, and npx installs it again; ${how}${stderr}`,
      fix: broken.clear,
    };
  const byHand = commandLine !== undefined ? `run "${commandLine}" by hand to see the whole error` : undefined;
  return { reason: `${how}${stderr}`, ...(evidence.exit && byHand !== undefined && { fix: byHand }) };
}

function exitWords(exit: { readonly code: number | null; readonly signal: string | null }): string {
  return exit.code !== null ? `exited with code ${exit.code}` : `killed by ${exit.signal ?? 'a signal'}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
