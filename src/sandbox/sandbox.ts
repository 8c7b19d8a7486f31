/**
 * G11 — the sandbox as callers use it: `run(code, { search, call })` runs one script in its own
 * worker thread and resolves with its value or a failure that names the limit. The two functions
 * are the caller's (the gateway passes its own call path, the library its loop's); the sandbox
 * knows nothing of MCP.
 *
 * The worker's engine enforces the limits itself (an interrupt at the deadline, QuickJS's memory
 * cap, the call count); this side keeps a backstop: past the deadline plus a grace, or when the
 * caller cancels, the worker is ended, whatever the script is doing.
 */
import type { Worker } from 'node:worker_threads';
import { RunAdmission } from './admission.js';
import { engineCeilingBytes, resolveRunCapacity, type RunCapacity, runReservation } from './capacity.js';
import { byteLength } from './engine.js';
import { limitMessage, resolveSandboxLimits, type SandboxLimits } from './limits.js';
import type { RunFailure, RunOutcome } from './outcome.js';
import type { FromWorker, ToWorker } from './protocol.js';
import { compiledEngine } from './quickjs.js';
import { spawnSandboxWorker } from './spawn.js';

/** What a script's `search()` and `call()` do, in the caller's terms; a throw is the script's error. */
export interface SandboxCalls {
  search(query: string, options: { maxResults?: number }): Promise<unknown>;
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
}

export interface SandboxRunOptions {
  /** Cancels the run: the worker is ended and the outcome is a `cancelled` failure. */
  readonly signal?: AbortSignal;
  /** Each `search()`/`call()` as it starts (for progress). */
  readonly onCall?: (event: { kind: 'search' | 'call'; subject: string; count: number }) => void;
  /** Whose run this is, for the per-client share of the slots (`runsPerClient`); default: one client for all. */
  readonly client?: string;
}

export interface CodeSandboxOptions {
  /** Limit knobs over the defaults (`DEFAULT_SANDBOX_LIMITS`). */
  readonly limits?: Partial<SandboxLimits>;
  /**
   * Idle workers kept ready for the next run (a worker that ran a script cleanly takes the next
   * one, each in a fresh engine runtime; one is started ahead when none is idle). Default 2; 0
   * starts and ends a worker per run.
   */
  readonly idleWorkers?: number;
  /**
   * How many scripts run at once and what they may hold together (capacity.ts; defaults
   * `DEFAULT_RUN_CAPACITY`). One sandbox is one pool: share it to share the bound.
   */
  readonly capacity?: Partial<RunCapacity>;
}

/** How long past its deadline a worker may take to report before it is ended from outside. */
const BACKSTOP_GRACE_MS = 1000;
/** How long a worker may take to start its engine (a new thread on a loaded machine takes a second or more). */
const START_TIMEOUT_MS = 30_000;
const DEFAULT_IDLE_WORKERS = 2;

export class CodeSandbox {
  readonly limits: SandboxLimits;
  readonly capacity: RunCapacity;
  private readonly admission: RunAdmission;
  private readonly maxIdle: number;
  private readonly idle: Worker[] = [];
  private starting = 0;
  private closed = false;

  constructor(options: CodeSandboxOptions = {}) {
    this.limits = resolveSandboxLimits(options.limits);
    this.capacity = resolveRunCapacity(options.capacity, this.limits);
    this.admission = new RunAdmission(this.capacity, runReservation(this.limits));
    this.maxIdle = Math.max(0, Math.floor(options.idleWorkers ?? DEFAULT_IDLE_WORKERS));
  }

  /** Scripts running and waiting now, and the memory they count (see `RunAdmission`). */
  get load(): RunAdmission['load'] {
    return this.admission.load;
  }

  async run(code: string, calls: SandboxCalls, options: SandboxRunOptions = {}): Promise<RunOutcome> {
    const startedAt = Date.now();
    if (options.signal?.aborted) return failed(cancelled(), 0, startedAt);
    const ticket = await this.admission.admit(options.client ?? '', options.signal);
    if ('cancelled' in ticket) return failed(cancelled(), 0, startedAt);
    if ('refused' in ticket)
      return failed({ kind: 'limit', limit: ticket.refused, message: ticket.message }, 0, startedAt);
    try {
      return await this.runAdmitted(code, calls, options, startedAt);
    } finally {
      ticket.release();
    }
  }

  private async runAdmitted(
    code: string,
    calls: SandboxCalls,
    options: SandboxRunOptions,
    startedAt: number,
  ): Promise<RunOutcome> {
    let worker: Worker;
    try {
      worker = await this.take();
    } catch (error) {
      const message = `The code sandbox could not start: ${error instanceof Error ? error.message : String(error)}`;
      return failed({ kind: 'internal', message }, 0, startedAt);
    }
    if (this.idle.length === 0) setImmediate(() => this.startAhead());
    const run = new SandboxRun(worker, code, this.limits, calls, options, startedAt, (reusable) =>
      this.release(worker, reusable),
    );
    return run.outcome;
  }

  /** Ends the idle workers; runs in progress finish on their own (and end their workers). */
  close(): void {
    this.closed = true;
    for (const worker of this.idle.splice(0)) void worker.terminate();
  }

  private async take(): Promise<Worker> {
    const idle = this.idle.pop();
    if (idle) {
      detach(idle);
      return idle;
    }
    return this.spawn();
  }

  /** A worker whose engine's memory cannot grow past this sandbox's ceiling. */
  private async spawn(): Promise<Worker> {
    return spawnSandboxWorker({ wasmModule: await compiledEngine(), maximumBytes: engineCeilingBytes(this.limits) });
  }

  /** A worker whose run ended cleanly waits for the next script; any other is ended. */
  private release(worker: Worker, reusable: boolean): void {
    if (!reusable || this.closed || this.idle.length >= this.maxIdle) {
      void worker.terminate();
      return;
    }
    this.park(worker);
  }

  /** One worker started before it is needed, so a run does not wait for a thread to start. */
  private startAhead(): void {
    if (this.closed || this.maxIdle === 0 || this.idle.length + this.starting >= 1) return;
    this.starting += 1;
    void this.spawn()
      .then((worker) => {
        if (this.closed) void worker.terminate();
        else this.park(worker);
      })
      .catch(() => undefined)
      .finally(() => (this.starting -= 1));
  }

  private park(worker: Worker): void {
    detach(worker);
    worker.unref();
    // An idle worker that dies (it should not) leaves the pool; the next run starts its own.
    worker.once('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    worker.on('error', () => undefined);
    this.idle.push(worker);
  }
}

/** One script in one worker, from its `run` message to its `done` (or the worker's end). */
class SandboxRun {
  readonly outcome: Promise<RunOutcome>;
  private calls = 0;
  private settled = false;
  private resolve!: (outcome: RunOutcome) => void;
  private timer: NodeJS.Timeout;
  private readonly onAbort = () => this.fail(cancelled());

  constructor(
    private readonly worker: Worker,
    code: string,
    private readonly limits: SandboxLimits,
    private readonly host: SandboxCalls,
    private readonly options: SandboxRunOptions,
    private readonly startedAt: number,
    /** Hands the worker back: `reusable` when it reported a clean end. */
    private readonly release: (reusable: boolean) => void,
  ) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve));
    worker.ref();
    // The script's time starts when the worker says its engine started (a new thread takes a while).
    this.timer = setTimeout(
      () => this.fail({ kind: 'internal', message: `The code sandbox did not start within ${START_TIMEOUT_MS} ms.` }),
      START_TIMEOUT_MS,
    );
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    worker.on('error', (error) => this.fail(workerFailure(error)));
    worker.on('exit', () => this.fail({ kind: 'internal', message: 'The code sandbox stopped unexpectedly.' }));
    this.post({ type: 'run', code, limits });
  }

  private onMessage(message: FromWorker): void {
    if (message.type === 'started') {
      clearTimeout(this.timer);
      this.timer = setTimeout(
        () => this.fail({ kind: 'limit', limit: 'timeoutMs', message: limitMessage('timeoutMs', this.limits) }),
        this.limits.timeoutMs + BACKSTOP_GRACE_MS,
      );
      return;
    }
    if (message.type === 'done') {
      this.finish(message.outcome, message.reusable);
      return;
    }
    this.calls += 1;
    const subject = message.type === 'search' ? message.query : message.name;
    this.options.onCall?.({ kind: message.type, subject, count: this.calls });
    const answer =
      message.type === 'search'
        ? this.host.search(message.query, message.options)
        : this.host.call(message.name, message.args);
    answer.then(
      (value) => {
        const json = JSON.stringify(value ?? null) ?? 'null';
        const bytes = byteLength(json);
        if (bytes <= this.limits.maxCallResultBytes) return this.post({ type: 'answer', id: message.id, json });
        const error = limitMessage('maxCallResultBytes', this.limits, `${bytes} bytes`);
        this.post({ type: 'answer', id: message.id, error });
      },
      (error: unknown) =>
        this.post({ type: 'answer', id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private post(message: ToWorker): void {
    if (!this.settled) this.worker.postMessage(message);
  }

  private fail(error: RunFailure): void {
    this.finish(failed(error, this.calls, this.startedAt));
  }

  private finish(outcome: RunOutcome, reusable = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    detach(this.worker);
    this.release(reusable);
    this.resolve(outcome);
  }
}

function failed(error: RunFailure, calls: number, startedAt: number): RunOutcome {
  return { ok: false, error, logs: [], stats: { calls, elapsedMs: Date.now() - startedAt } };
}

function cancelled(): RunFailure {
  return { kind: 'cancelled', message: 'The run was cancelled.' };
}

/** A worker that died: a runaway recursion is the script's fault, anything else the sandbox's. */
function workerFailure(error: Error): RunFailure {
  if (error instanceof RangeError) return { kind: 'script', message: 'RangeError: the script recursed too deeply' };
  return { kind: 'internal', message: `The code sandbox failed: ${error.message}` };
}

/**
 * Drops the listeners a run or the pool added. Only these events: a Worker's own listeners (its
 * internal message plumbing among them) must stay, or a reused worker's answers are never heard.
 */
function detach(worker: Worker): void {
  for (const event of ['message', 'error', 'exit'] as const) worker.removeAllListeners(event);
}
