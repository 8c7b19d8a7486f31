/**
 * G11 — the messages between the gateway's thread and a sandbox worker: the worker asks, the main
 * thread answers with JSON text or an error message. Plain data, copied across the thread boundary.
 */
import type { SandboxLimits } from './limits.js';
import type { RunOutcome } from './outcome.js';
import type { CompiledEngine } from './quickjs.js';

export interface WorkerSetup {
  readonly wasmModule: CompiledEngine;
  /** The most the engine's WebAssembly memory may grow to (capacity.ts `engineCeilingBytes`). */
  readonly maximumBytes?: number;
}

export type ToWorker =
  | { readonly type: 'run'; readonly code: string; readonly limits: SandboxLimits }
  | { readonly type: 'answer'; readonly id: number; readonly json: string }
  | { readonly type: 'answer'; readonly id: number; readonly error: string };

/** A script's `search()` or `call()`, before the worker numbers it. */
export type HostRequest =
  | { readonly type: 'search'; readonly query: string; readonly options: { maxResults?: number } }
  | { readonly type: 'call'; readonly name: string; readonly args: Record<string, unknown> };

export type FromWorker =
  | (HostRequest & { readonly id: number })
  /** The engine is ready and the script's time starts now. */
  | { readonly type: 'started' }
  /** `reusable`: the engine freed the run cleanly and may take the next script. */
  | { readonly type: 'done'; readonly outcome: RunOutcome; readonly reusable: boolean };
