/**
 * G1/C12 — what a failed attempt or a drop turns a server into, as plain data: its next state,
 * what the catalog says of it (the model reads that), the log line and its level, and whether to
 * retry. The hub applies it; keeping the wording here keeps every state's message in one place.
 */
import type { RetryDecision, ServerState } from './server-state.js';
import { plural } from '../core/plural.js';

export interface FailureOutcome {
  readonly state: ServerState;
  /** What the catalog records: `failed` with this reason, or `pending` (reconnecting after a drop). */
  readonly catalog: { readonly kind: 'failed'; readonly reason: string } | { readonly kind: 'pending' };
  readonly log: { readonly level: 'error' | 'warn'; readonly message: string };
  /** Milliseconds to the next attempt; undefined: no more attempts. */
  readonly retryInMs: number | undefined;
}

export function failureOutcome(
  reason: string,
  decision: RetryDecision,
  context: { readonly reconnect: boolean; readonly dropped: boolean; readonly attempts: number },
): FailureOutcome {
  if (!context.reconnect || decision.kind === 'give-up') {
    const final = context.reconnect
      ? `${reason} (gave up after ${plural(context.attempts - 1, 'retry', 'retries')})`
      : reason;
    return {
      state: 'failed',
      catalog: { kind: 'failed', reason: final },
      log: { level: 'error', message: final },
      retryInMs: undefined,
    };
  }
  const retryIn = `${Math.round(decision.delayMs / 100) / 10} s`;
  if (decision.kind === 'quarantine') {
    const message = `quarantined: ${decision.reason} (last: ${reason}); next try in ${retryIn}`;
    return {
      state: 'quarantined',
      catalog: { kind: 'failed', reason: message },
      log: { level: 'error', message },
      retryInMs: decision.delayMs,
    };
  }
  if (context.dropped)
    return {
      state: 'connecting',
      catalog: { kind: 'pending' },
      log: { level: 'warn', message: `${reason}; reconnecting in ${retryIn}` },
      retryInMs: decision.delayMs,
    };
  return {
    state: 'failed',
    catalog: { kind: 'failed', reason: `${reason} (retrying in ${retryIn})` },
    log: { level: 'error', message: `${reason}; retrying in ${retryIn}` },
    retryInMs: decision.delayMs,
  };
}
