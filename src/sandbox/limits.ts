/**
 * G11 — the limits one `run_code` script runs inside. Every limit has a default, a knob (its name
 * here is the key in `toolSearch.codeMode.limits` and in the library's options) and an error that
 * names it, so a script that hits one is told which and how to raise it.
 */

export interface SandboxLimits {
  /** Wall time of one run, from the moment its script starts (ms). */
  readonly timeoutMs: number;
  /** Memory the script's engine may allocate (bytes). */
  readonly memoryBytes: number;
  /** `search()` and `call()` together, per run. */
  readonly maxCalls: number;
  /** JSON size of one `search()` or `call()` result handed to the script (bytes). */
  readonly maxCallResultBytes: number;
  /** JSON size of the script's return value (bytes): what enters the model's context. */
  readonly maxReturnBytes: number;
  /** Captured `console` output kept (bytes); the rest is cut with a note, not an error. */
  readonly maxLogBytes: number;
}

export type SandboxLimitName = keyof SandboxLimits;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxCalls: 100,
  maxCallResultBytes: 1024 * 1024,
  maxReturnBytes: 64 * 1024,
  maxLogBytes: 16 * 1024,
};

/** The knobs of capacity.ts, named in an unknown limit's error (written out: capacity.ts imports this file). */
const CAPACITY_NAMES = 'concurrentRuns, runsPerClient, queuedRuns, queueWaitMs, totalMemoryBytes';

/** Upper bounds a knob may not pass: a config typo must not give a script a gigabyte or an hour. */
const CEILINGS: SandboxLimits = {
  timeoutMs: 10 * 60_000,
  memoryBytes: 1024 * 1024 * 1024,
  maxCalls: 10_000,
  maxCallResultBytes: 64 * 1024 * 1024,
  maxReturnBytes: 16 * 1024 * 1024,
  maxLogBytes: 16 * 1024 * 1024,
};

/** A knob with a value outside its range (a config or option error, before any script runs). */
export class SandboxLimitsError extends Error {
  override readonly name = 'SandboxLimitsError';
}

/** Defaults overlaid with the given knobs, each checked: a positive integer within its ceiling. */
export function resolveSandboxLimits(overrides: Partial<Record<string, unknown>> = {}): SandboxLimits {
  const limits: Record<string, number> = { ...DEFAULT_SANDBOX_LIMITS };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_SANDBOX_LIMITS)) {
      throw new SandboxLimitsError(
        `Unknown code-mode limit "${key}"; known limits: ${Object.keys(DEFAULT_SANDBOX_LIMITS).join(', ')}, and for all runs together ${CAPACITY_NAMES}.`,
      );
    }
    const ceiling = CEILINGS[key as SandboxLimitName];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > ceiling) {
      throw new SandboxLimitsError(
        `Code-mode limit "${key}" must be a whole number from 1 to ${ceiling}; got ${JSON.stringify(value)}.`,
      );
    }
    limits[key] = value;
  }
  return limits as unknown as SandboxLimits;
}

/** What a limit's error says: what was exceeded, the value, and the knob that raises it. */
export function limitMessage(limit: SandboxLimitName, limits: SandboxLimits, detail?: string): string {
  const value = limits[limit];
  const what: Record<SandboxLimitName, string> = {
    timeoutMs: `the script ran longer than its time limit of ${value} ms`,
    memoryBytes: `the script used more than its memory limit of ${formatBytes(value)}`,
    maxCalls: `the script made more than ${value} search() and call() calls`,
    maxCallResultBytes: `a result is larger than the ${formatBytes(value)} one call may hand to the script`,
    maxReturnBytes: `the return value is larger than the ${formatBytes(value)} a script may return`,
    maxLogBytes: `console output passed ${formatBytes(value)}`,
  };
  return `Limit ${limit} reached: ${what[limit]}${detail ? ` (${detail})` : ''}.`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
