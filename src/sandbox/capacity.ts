/**
 * G11 — how many scripts a sandbox runs at once, and how much memory they may hold together. The
 * per-run limits (limits.ts) bound one script; these bound all of them, so a client that sends 30
 * scripts at once gets a few slots and a clear answer for the rest, not 30 worker threads that take
 * the host's memory and CPU from everyone else. Like the per-run limits, every knob has a default, a
 * name (a key of `toolSearch.codeMode.limits`, or the library's `capacity` option) and an error that
 * names it.
 */
import { formatBytes, type SandboxLimits, SandboxLimitsError } from './limits.js';

export interface RunCapacity {
  /** Scripts running at once, across every client of the sandbox (the gateway's, profiles included). */
  readonly concurrentRuns: number;
  /** Of those, how many one client may run; it may keep as many more waiting for a slot. */
  readonly runsPerClient: number;
  /** Scripts waiting for a slot, across every client. */
  readonly queuedRuns: number;
  /** How long a script waits for a slot before it is refused (ms). */
  readonly queueWaitMs: number;
  /** What the running scripts' engines may hold together (bytes): each counts its ceiling (`runReservation`). */
  readonly totalMemoryBytes: number;
}

export type RunCapacityName = keyof RunCapacity;

export const DEFAULT_RUN_CAPACITY: RunCapacity = {
  concurrentRuns: 4,
  runsPerClient: 2,
  queuedRuns: 16,
  queueWaitMs: 30_000,
  totalMemoryBytes: 512 * 1024 * 1024,
};

const CEILINGS: RunCapacity = {
  concurrentRuns: 256,
  runsPerClient: 256,
  queuedRuns: 10_000,
  queueWaitMs: 10 * 60_000,
  totalMemoryBytes: 64 * 1024 * 1024 * 1024,
};

/**
 * What one engine may take beyond the script's own `memoryBytes`: QuickJS's runtime, the engine's
 * static data and its stack. The WebAssembly memory of a run is capped at `memoryBytes` plus this
 * (QuickJS's own memory limit does not see every allocation: a growing string or array passes it).
 */
export const ENGINE_HEADROOM_BYTES = 16 * 1024 * 1024;

/** A worker thread with a started engine, before any script (measured ≈ 24 MiB RSS each; rounded up). */
export const THREAD_BYTES = 32 * 1024 * 1024;

/** The most one engine's WebAssembly memory may grow to (bytes, whole 64 KiB pages). */
export function engineCeilingBytes(limits: Pick<SandboxLimits, 'memoryBytes'>): number {
  const page = 64 * 1024;
  return Math.ceil((limits.memoryBytes + ENGINE_HEADROOM_BYTES) / page) * page;
}

/** What one running script counts against `totalMemoryBytes`: its engine's ceiling and its thread. */
export function runReservation(limits: Pick<SandboxLimits, 'memoryBytes'>): number {
  return engineCeilingBytes(limits) + THREAD_BYTES;
}

/** Defaults overlaid with the given knobs, each a whole number from 1 to its ceiling, checked against `limits`. */
export function resolveRunCapacity(
  overrides: Partial<Record<string, unknown>> = {},
  limits?: Pick<SandboxLimits, 'memoryBytes'>,
): RunCapacity {
  const capacity: Record<string, number> = { ...DEFAULT_RUN_CAPACITY };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!isCapacityName(key))
      throw new SandboxLimitsError(
        `Unknown code-mode capacity "${key}"; known: ${Object.keys(DEFAULT_RUN_CAPACITY).join(', ')}.`,
      );
    const ceiling = CEILINGS[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > ceiling)
      throw new SandboxLimitsError(
        `Code-mode limit "${key}" must be a whole number from 1 to ${ceiling}; got ${JSON.stringify(value)}.`,
      );
    capacity[key] = value;
  }
  const resolved = capacity as unknown as RunCapacity;
  if (limits && runReservation(limits) > resolved.totalMemoryBytes)
    throw new SandboxLimitsError(
      `Code-mode limit "totalMemoryBytes" (${formatBytes(resolved.totalMemoryBytes)}) cannot hold one script: ` +
        `memoryBytes ${formatBytes(limits.memoryBytes)} takes ${formatBytes(runReservation(limits))} with its engine and thread.`,
    );
  return resolved;
}

export function isCapacityName(key: string): key is RunCapacityName {
  return key in DEFAULT_RUN_CAPACITY;
}

/**
 * `toolSearch.codeMode.limits` holds both kinds of knob: the per-run limits (limits.ts) and these.
 * Split by name; each side checks its own (an unknown name is refused by the per-run side).
 */
export function splitCodeModeLimits(all: Partial<Record<string, unknown>> = {}): {
  limits: Partial<Record<string, unknown>>;
  capacity: Partial<Record<string, unknown>>;
} {
  const limits: Partial<Record<string, unknown>> = {};
  const capacity: Partial<Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(all)) (isCapacityName(key) ? capacity : limits)[key] = value;
  return { limits, capacity };
}
