/**
 * C13 — a change to the learned log as data, so stores can share changes instead of whole logs:
 * two processes that each append their own changes (a gateway and `learned forget`, or two
 * replicas through Redis) both end up with both, where writing whole logs would let the last
 * writer erase the other's recordings.
 */
import type { LearnedLog } from './log.js';

/** A search with these terms led to `tool` at `at` (epoch ms). */
export interface LearnedAdd {
  readonly kind: 'add';
  readonly tool: string;
  readonly terms: readonly string[];
  readonly at: number;
  readonly schema?: string;
  /** C14: the session (a digest) that taught it; absent: an unknown one. */
  readonly source?: string;
}

/** Forget what `tool` learned (absent: every tool) up to `at`. */
export interface LearnedForget {
  readonly kind: 'forget';
  readonly tool?: string;
  readonly at: number;
}

export type LearnedOp = LearnedAdd | LearnedForget;

export function applyLearnedOp(log: LearnedLog, op: LearnedOp): void {
  if (op.kind === 'add')
    log.add(op.tool, op.terms, 1, op.at, op.schema, op.source !== undefined ? [op.source] : undefined);
  else log.forgetAt(op.tool, op.at);
}

/** Reads an op back from storage; undefined when `value` is not one (skipped, never thrown). */
export function parseLearnedOp(value: unknown): LearnedOp | undefined {
  const op = value as {
    kind?: unknown;
    tool?: unknown;
    terms?: unknown;
    at?: number;
    schema?: unknown;
    source?: unknown;
  };
  if (typeof op !== 'object' || op === null || !Number.isFinite(op.at)) return undefined;
  if (op.kind === 'forget')
    return op.tool === undefined || typeof op.tool === 'string'
      ? { kind: 'forget', at: op.at!, ...(op.tool !== undefined && { tool: op.tool }) }
      : undefined;
  const terms = op.terms;
  const termsOk = Array.isArray(terms) && terms.length > 0 && terms.every((t) => typeof t === 'string');
  if (op.kind !== 'add' || typeof op.tool !== 'string' || op.tool === '' || !termsOk) return undefined;
  if (op.schema !== undefined && typeof op.schema !== 'string') return undefined;
  if (op.source !== undefined && typeof op.source !== 'string') return undefined;
  return {
    kind: 'add',
    tool: op.tool,
    terms: terms as string[],
    at: op.at!,
    ...(op.schema !== undefined && { schema: op.schema }),
    ...(op.source !== undefined && { source: op.source }),
  };
}
