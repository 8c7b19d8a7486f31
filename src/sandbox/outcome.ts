/**
 * G11 — what one sandboxed run ends with: the script's value, or why it did not return one. Plain
 * data (it crosses a worker boundary), with a `kind` a caller can switch on.
 */
import type { RunCapacityName } from './capacity.js';
import type { SandboxLimitName } from './limits.js';

export type RunFailure =
  /** The script threw, or did not parse; `line` is the script's own line (1 = its first). */
  | { readonly kind: 'script'; readonly message: string; readonly line?: number }
  /** A limit ended the run, or (a capacity knob) kept it from starting; `limit` is its knob. */
  | { readonly kind: 'limit'; readonly limit: SandboxLimitName | RunCapacityName; readonly message: string }
  /** The caller cancelled the run. */
  | { readonly kind: 'cancelled'; readonly message: string }
  /** The engine itself failed (could not start); not the script's fault. */
  | { readonly kind: 'internal'; readonly message: string };

export interface RunStats {
  /** `search()` and `call()` calls the script made. */
  readonly calls: number;
  /** Milliseconds the script ran (or, for a run that never started, until it failed). */
  readonly elapsedMs: number;
}

export type RunOutcome =
  | {
      readonly ok: true;
      /** The return value, as JSON text (`null` when the script returned nothing). */
      readonly json: string;
      readonly logs: readonly string[];
      readonly stats: RunStats;
    }
  | { readonly ok: false; readonly error: RunFailure; readonly logs: readonly string[]; readonly stats: RunStats };

/** The text a model reads for a failure: the message, and the script line when known. */
export function describeFailure(error: RunFailure): string {
  if (error.kind === 'script' && error.line !== undefined) return `${error.message} (script line ${error.line})`;
  return error.message;
}
