/**
 * G11 — one script in QuickJS (WebAssembly): no host access at all, only what is installed here —
 * `search()`, `call()` and `console`. The sync build of the engine is used, not the asyncify one: a
 * script already `await`s its calls, so a host call returns a QuickJS promise that is settled when
 * the host answers and the job queue is then run. The engine is never suspended, several calls can
 * be in flight (`Promise.all`), and the sync build is smaller and faster.
 *
 * Knows nothing of MCP: it gets a host with two async functions and returns a value or a failure.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { limitMessage, type SandboxLimits } from './limits.js';
import { LogCapture } from './log-capture.js';
import type { RunFailure, RunOutcome } from './outcome.js';

/** What a script's `search()` and `call()` reach: each answers JSON text or rejects with a message the script sees. */
export interface SandboxHost {
  search(query: string, options: { maxResults?: number }): Promise<string>;
  call(name: string, args: Record<string, unknown>): Promise<string>;
}

/** The file name QuickJS gives the script in stack traces; its line 1 is the wrapper's. */
const SCRIPT_FILE = 'script.js';
const WRAPPER_LINES = 1;
/** Deep recursion is a script error (RangeError), not a crash of the worker. */
const STACK_BYTES = 256 * 1024;

/**
 * Installed before the script: `console`, `search` and `call` over the host functions, and the
 * step that turns the script's value into JSON. Run as its own file so script lines stay the
 * script's own.
 */
const PRELUDE = `(function (host) {
  const show = (v) => {
    if (typeof v === 'string') return v;
    try { const s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch { return String(v); }
  };
  const log = (...values) => host.log(values.map(show).join(' '));
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  globalThis.search = async (query, options) =>
    JSON.parse(await host.search(String(query), JSON.stringify(options === undefined ? {} : options)));
  globalThis.call = async (name, args) =>
    JSON.parse(await host.call(String(name), JSON.stringify(args === undefined ? {} : args)));
  return (promise) => promise.then((value) => {
    let json;
    try { json = JSON.stringify(value === undefined ? null : value); }
    catch (e) { throw new TypeError('the return value cannot be turned into JSON: ' + e.message); }
    return json === undefined ? 'null' : json;
  });
})`;

/** The script as the body of an async function (G11's contract: `return` gives the value). */
function wrap(code: string): string {
  return `(async () => {\n${code}\n})()`;
}

type Ending = { readonly json: string } | { readonly failure: RunFailure };

/**
 * A run's outcome, and whether its runtime was freed cleanly: QuickJS refuses to free a runtime
 * that still holds objects (a run ended by a limit with promises pending) and aborts the whole
 * engine instance, which must then not run another script.
 */
export interface EngineResult {
  readonly outcome: RunOutcome;
  readonly freed: boolean;
}

/** Run `code` to its end or to the first limit, then free its runtime. */
export async function runInEngine(
  engine: QuickJSWASMModule,
  code: string,
  host: SandboxHost,
  limits: SandboxLimits,
  options: { startedAt?: number; memoryFull?: () => boolean } = {},
): Promise<EngineResult> {
  const startedAt = options.startedAt ?? Date.now();
  const run = new EngineRun(engine, host, limits, startedAt, options.memoryFull);
  const ending = await run.start(code);
  const stats = { calls: run.calls, elapsedMs: Date.now() - startedAt };
  const outcome: RunOutcome =
    'failure' in ending
      ? { ok: false, error: ending.failure, logs: run.logs.lines(), stats }
      : { ok: true, json: ending.json, logs: run.logs.lines(), stats };
  return { outcome, freed: run.freed };
}

class EngineRun {
  readonly logs: LogCapture;
  calls = 0;
  freed = false;
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly deadline: number;
  private ending: Ending | undefined;
  private resolveEnding!: (ending: Ending) => void;
  private readonly ended = new Promise<Ending>((resolve) => (this.resolveEnding = resolve));

  constructor(
    engine: QuickJSWASMModule,
    private readonly host: SandboxHost,
    private readonly limits: SandboxLimits,
    startedAt: number,
    /** Whether the engine's memory reached its ceiling (worker.ts); absent: no ceiling known. */
    private readonly memoryFull?: () => boolean,
  ) {
    this.logs = new LogCapture(limits.maxLogBytes);
    this.deadline = startedAt + limits.timeoutMs;
    this.runtime = engine.newRuntime();
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(STACK_BYTES);
    // Called every few thousand instructions: a loop that never awaits still ends at its deadline.
    this.runtime.setInterruptHandler(() => {
      if (this.ending === undefined && Date.now() > this.deadline) this.endWithLimit('timeoutMs');
      return this.ending !== undefined;
    });
    this.vm = this.runtime.newContext();
  }

  async start(code: string): Promise<Ending> {
    // A script awaiting a slow call runs no instruction: the timer ends it instead.
    const timer = setTimeout(() => this.endWithLimit('timeoutMs'), Math.max(0, this.deadline - Date.now()));
    try {
      this.evaluate(code);
      return await this.ended;
    } finally {
      clearTimeout(timer);
      this.free();
    }
  }

  private evaluate(code: string): void {
    const { vm } = this;
    const finish = this.installPrelude();
    if (!finish) return;
    const evaluated = vm.evalCode(wrap(code), SCRIPT_FILE);
    if (evaluated.error) {
      this.end({ failure: this.failureOf(evaluated.error) });
      evaluated.error.dispose();
      finish.dispose();
      return;
    }
    const json = vm.callFunction(finish, vm.undefined, evaluated.value);
    evaluated.value.dispose();
    finish.dispose();
    if (json.error) {
      this.end({ failure: this.failureOf(json.error) });
      json.error.dispose();
      return;
    }
    vm.resolvePromise(json.value).then((settled) => {
      if (this.ending !== undefined) return (settled.error ?? settled.value).dispose();
      if (settled.error) {
        this.end({ failure: this.failureOf(settled.error) });
        return settled.error.dispose();
      }
      const text = vm.getString(settled.value);
      settled.value.dispose();
      const bytes = byteLength(text);
      if (bytes > this.limits.maxReturnBytes) this.endWithLimit('maxReturnBytes', `${bytes} bytes`);
      else this.end({ json: text });
    });
    json.value.dispose();
    this.drain();
  }

  /** Evaluates the prelude with the host object; returns its `finish` function. */
  private installPrelude(): QuickJSHandle | undefined {
    const { vm } = this;
    const hostObject = vm.newObject();
    const log = vm.newFunction('log', (line) => {
      this.logs.add(vm.getString(line));
    });
    const search = vm.newFunction('search', (query, options) =>
      this.hostCall(() => this.host.search(vm.getString(query), parseObject(vm.getString(options)))),
    );
    const call = vm.newFunction('call', (name, args) => {
      const toolName = vm.getString(name);
      const toolArgs = parseObject(vm.getString(args));
      return this.hostCall(() => this.host.call(toolName, toolArgs));
    });
    vm.setProp(hostObject, 'log', log);
    vm.setProp(hostObject, 'search', search);
    vm.setProp(hostObject, 'call', call);
    for (const handle of [log, search, call]) handle.dispose();
    const prelude = vm.evalCode(PRELUDE, 'prelude.js');
    let finish: QuickJSHandle | undefined;
    if (prelude.error) {
      this.end({ failure: { kind: 'internal', message: 'the sandbox prelude failed' } });
      prelude.error.dispose();
    } else {
      const installed = vm.callFunction(prelude.value, vm.undefined, hostObject);
      prelude.value.dispose();
      if (installed.error) {
        this.end({ failure: this.failureOf(installed.error) });
        installed.error.dispose();
      } else finish = installed.value;
    }
    hostObject.dispose();
    return finish;
  }

  /** One `search()`/`call()`: counted against maxCalls, answered as a promise the script awaits. */
  private hostCall(answer: () => Promise<string>): QuickJSHandle {
    const { vm } = this;
    // Ends the run, not just this call: a script that catches the error must not go on storming
    // (it runs on only until the next interrupt check, and no further call reaches the host).
    if (this.ending === undefined && this.calls >= this.limits.maxCalls) this.endWithLimit('maxCalls');
    if (this.ending !== undefined) {
      const refused = vm.newPromise();
      const error = vm.newError({ name: 'LimitError', message: limitMessage('maxCalls', this.limits) });
      refused.reject(error);
      error.dispose();
      return refused.handle;
    }
    this.calls += 1;
    const deferred = vm.newPromise();
    answer().then(
      (json) => {
        if (this.ending !== undefined) return;
        const bytes = byteLength(json);
        if (bytes > this.limits.maxCallResultBytes) {
          const error = vm.newError({
            name: 'LimitError',
            message: limitMessage('maxCallResultBytes', this.limits, `${bytes} bytes`),
          });
          deferred.reject(error);
          error.dispose();
        } else {
          const text = vm.newString(json);
          deferred.resolve(text);
          text.dispose();
        }
        this.drain();
      },
      (error: unknown) => {
        if (this.ending !== undefined) return;
        const handle = vm.newError({
          name: 'CallError',
          message: error instanceof Error ? error.message : String(error),
        });
        deferred.reject(handle);
        handle.dispose();
        this.drain();
      },
    );
    return deferred.handle;
  }

  /** Run what the settled promises unblocked; an interrupt or out-of-memory here ends the run. */
  private drain(): void {
    if (this.ending !== undefined) return;
    const result = this.runtime.executePendingJobs();
    if (result.error) {
      if (this.ending === undefined) this.end({ failure: this.failureOf(result.error) });
      result.error.dispose();
    }
  }

  private failureOf(handle: QuickJSHandle): RunFailure {
    if (this.ending && 'failure' in this.ending) return this.ending.failure;
    const dumped = safeDump(this.vm, handle);
    const message = dumped.message;
    if (/out of memory/i.test(message)) return limitFailure('memoryBytes', this.limits);
    // At its memory's ceiling QuickJS may not even build the error: it throws null instead.
    if (dumped.thrown && this.memoryFull?.()) return limitFailure('memoryBytes', this.limits);
    if (/^interrupted$/i.test(message)) return limitFailure('timeoutMs', this.limits);
    const line = scriptLine(dumped.stack);
    const text = dumped.name ? `${dumped.name}: ${message}` : message;
    return line === undefined ? { kind: 'script', message: text } : { kind: 'script', message: text, line };
  }

  private endWithLimit(limit: keyof SandboxLimits, detail?: string): void {
    this.end({ failure: limitFailure(limit, this.limits, detail) });
  }

  private end(ending: Ending): void {
    if (this.ending !== undefined) return;
    this.ending = ending;
    this.resolveEnding(ending);
  }

  private free(): void {
    try {
      this.vm.dispose();
      this.runtime.dispose();
      this.freed = true;
    } catch {
      // The engine instance aborted (see EngineResult): its worker is ended, not reused.
    }
  }
}

function limitFailure(limit: keyof SandboxLimits, limits: SandboxLimits, detail?: string): RunFailure {
  return { kind: 'limit', limit, message: limitMessage(limit, limits, detail) };
}

/** The script's own line from a QuickJS stack (`at <anonymous> (script.js:4:9)`). */
export function scriptLine(stack: string | undefined): number | undefined {
  const match = stack?.match(/script\.js:(\d+)/);
  if (!match) return undefined;
  const line = Number(match[1]) - WRAPPER_LINES;
  return line >= 1 ? line : undefined;
}

/** What a thrown value says; `thrown`: it was not an error object (a `throw null`, or no memory left to build one). */
function safeDump(
  vm: QuickJSContext,
  handle: QuickJSHandle,
): { name?: string; message: string; stack?: string; thrown?: true } {
  try {
    const value: unknown = vm.dump(handle);
    if (typeof value === 'object' && value !== null) {
      const { name, message, stack } = value as { name?: unknown; message?: unknown; stack?: unknown };
      return {
        ...(typeof name === 'string' && { name }),
        message: typeof message === 'string' ? message : JSON.stringify(value),
        ...(typeof stack === 'string' && { stack }),
      };
    }
    return { message: `threw ${JSON.stringify(value) ?? String(value)}`, thrown: true };
  } catch {
    return { message: 'the script failed with an error that could not be read' };
  }
}

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const encoder = new TextEncoder();
export function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}
