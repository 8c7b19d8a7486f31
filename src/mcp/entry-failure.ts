/**
 * G1/G5/C12 — a failed attempt or a drop applied to a server's record: the reason (and its fix)
 * made safe once, its next state and what the catalog says of it (failure-outcome.ts), the log
 * line, and the retry timer.
 */
import type { Catalog } from '../core/catalog.js';
import type { Logger } from '../util/log.js';
import type { McpAggregate } from './aggregate.js';
import { failureOutcome } from './failure-outcome.js';
import { type ServerEntry, setEntryState } from './server-entry.js';
import type { RetryDecision } from './server-state.js';
import { StderrTail } from './stderr-reason.js';

export interface FailureContext {
  readonly catalog: Catalog;
  readonly features: McpAggregate;
  readonly logger: Logger;
  /** Whether the hub retries at all (one-shot commands do not). */
  readonly reconnect: boolean;
  /**
   * G5: the reason reaches the model, the status page and stdout banners: third-party text (stderr,
   * URLs with credentials) made safe, and G7: with `${VAR}` where an expanded value would show.
   */
  safe(text: string): string;
  /** The next attempt, when the retry timer fires. */
  retry(entry: ServerEntry): void;
}

/**
 * `failed` (named with its reason to the model and the status page, retried with backoff),
 * `connecting` for the first retry after a drop (searches wait for it), `quarantined` when it
 * flaps, or `failed` for good after `maxAttempts`.
 */
export function applyFailure(
  entry: ServerEntry,
  rawReason: string,
  decision: RetryDecision,
  context: FailureContext,
  options: { readonly dropped?: boolean; readonly fix?: string } = {},
): void {
  const reason = context.safe(rawReason);
  entry.lastError = reason;
  entry.lastFix = options.fix !== undefined ? context.safe(options.fix) : undefined;
  entry.stderr = new StderrTail();
  entry.nextRetryAt = undefined;
  context.features.removeServer(entry.name);
  const outcome = failureOutcome(reason, decision, {
    reconnect: context.reconnect,
    dropped: options.dropped === true,
    attempts: entry.backoff.attempts,
  });
  setEntryState(entry, outcome.state);
  if (outcome.catalog.kind === 'pending') context.catalog.removeServer(entry.name, { pending: true });
  else context.catalog.markFailed(entry.name, outcome.catalog.reason);
  context.logger[outcome.log.level](`"${entry.name}" ${outcome.log.message}`);
  if (outcome.retryInMs === undefined) return;
  entry.nextRetryAt = Date.now() + outcome.retryInMs;
  entry.retryTimer = setTimeout(() => {
    entry.nextRetryAt = undefined;
    entry.backoff.reconnects++;
    context.retry(entry);
  }, outcome.retryInMs);
  entry.retryTimer.unref();
}
