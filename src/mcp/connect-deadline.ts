/**
 * G1/G13 — how long one connect attempt may take before it is given up (and its process ended).
 *
 * - A server started directly: `timeoutMs` (default 30 s) from spawn to its first tool list.
 * - A server started through a package runner (package-runner.ts) is *installing* until it writes
 *   its first byte on stdout (the first JSON-RPC message: the runner has handed over to the
 *   server). While it installs, the connect timeout does not run; instead it is ended only when
 *   - it shows no sign of progress for `timeoutMs` (no stderr line, no change in the runner's
 *     cache folder: install-watch.ts), over at least four samples, so a pause of this process
 *     does not count as a stuck install; or
 *   - the install passes `installTimeoutMs` in total (default 5 min).
 *   From the first byte on, the rest of the handshake gets `timeoutMs` as any server does.
 *
 * A runner killed in the middle of an install can leave a broken cache behind, so neither bound is
 * reached while an install is visibly moving, unless it takes longer than its own limit.
 */
import { type CacheWatch, watchCacheFolder } from './install-watch.js';
import type { PackageRunner } from './package-runner.js';

/** Default of `installTimeoutMs`: a large server's cold install on a slow line, with room to spare. */
export const DEFAULT_INSTALL_TIMEOUT_MS = 5 * 60_000;

/** Quiet samples in a row, besides quiet time, before an install counts as stuck. */
const QUIET_SAMPLES = 4;

export interface InstallAllowance {
  readonly runner: PackageRunner;
  /** Total time the install may take (`installTimeoutMs`). */
  readonly totalMs: number;
  /** The command line as the config writes it, for the error's next step. */
  readonly commandLine: string;
}

/** Why an attempt ran out of time, with what to do about it. */
export class ConnectDeadlineError extends Error {
  override readonly name = 'ConnectDeadlineError';
  constructor(
    message: string,
    /** The next step for a user (a command to run, a knob to raise). */
    readonly fix: string,
  ) {
    super(message);
  }
}

export interface ConnectDeadlineOptions {
  /** The connect timeout; while installing, the longest quiet spell allowed. */
  readonly timeoutMs: number;
  /** Present for a server started through a package runner. */
  readonly install?: InstallAllowance;
  /** Called once when the attempt runs out of time (the caller aborts it). */
  readonly onExpired: (error: ConnectDeadlineError) => void;
  /** Called once when an install has run as long as the connect timeout (where an ordinary server would have failed). */
  readonly onLongInstall?: (elapsedMs: number) => void;
  /** How the runner's cache folder is watched (tests pass their own). */
  readonly watch?: (folder: string, intervalMs: number) => CacheWatch;
  readonly now?: () => number;
}

export class ConnectDeadline {
  private installing: boolean;
  private timer: NodeJS.Timeout | undefined;
  private watch: CacheWatch | undefined;
  private seenChanges = 0;
  private readonly startedAt: number;
  private lastProgress: number;
  private quietSamples = 0;
  private done = false;
  private toldLong = false;
  private readonly now: () => number;

  constructor(private readonly options: ConnectDeadlineOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.lastProgress = this.now();
    this.installing = options.install !== undefined;
    if (!options.install) {
      this.startConnectTimeout();
      return;
    }
    // Sampled often enough that the quiet spell spans QUIET_SAMPLES samples.
    const sampleMs = Math.min(2_000, Math.max(25, Math.floor(options.timeoutMs / QUIET_SAMPLES)));
    const folder = options.install.runner.cacheDir;
    if (folder !== undefined) {
      this.watch = (options.watch ?? watchCacheFolder)(folder, sampleMs);
      this.seenChanges = this.watch.changes;
    }
    this.timer = setInterval(() => this.sample(), sampleMs);
    // The attempt's own process (or a detached install) keeps the event loop alive, not its clock.
    this.timer.unref();
  }

  /** Still installing: no byte from the server yet. */
  get isInstalling(): boolean {
    return this.installing && !this.done;
  }

  /** A sign of life while installing (a line on stderr). */
  progress(): void {
    this.lastProgress = this.now();
    this.quietSamples = 0;
  }

  /** The server wrote its first byte: the install is over, and the connect timeout starts now. */
  running(): void {
    if (!this.installing || this.done) return;
    this.installing = false;
    this.stopInstallWatch();
    this.startConnectTimeout();
  }

  stop(): void {
    this.done = true;
    this.stopInstallWatch();
    clearTimeout(this.timer);
  }

  private startConnectTimeout(): void {
    const { timeoutMs } = this.options;
    this.timer = setTimeout(
      () => this.expire(new ConnectDeadlineError(`timed out after ${timeoutMs} ms`, timeoutFix(timeoutMs))),
      timeoutMs,
    );
    this.timer.unref();
  }

  private sample(): void {
    const install = this.options.install!;
    const changes = this.watch?.changes ?? 0;
    if (changes !== this.seenChanges) {
      this.seenChanges = changes;
      this.progress();
    } else this.quietSamples++;
    const now = this.now();
    if (!this.toldLong && now - this.startedAt >= this.options.timeoutMs) {
      this.toldLong = true;
      this.options.onLongInstall?.(now - this.startedAt);
    }
    if (now - this.startedAt >= install.totalMs) this.expire(installTooLong(install));
    else if (this.quietSamples >= QUIET_SAMPLES && now - this.lastProgress >= this.options.timeoutMs)
      this.expire(installStuck(install, this.options.timeoutMs));
  }

  private expire(error: ConnectDeadlineError): void {
    if (this.done) return;
    this.stop();
    this.options.onExpired(error);
  }

  private stopInstallWatch(): void {
    clearInterval(this.timer);
    this.watch?.stop();
    this.watch = undefined;
  }
}

function timeoutFix(timeoutMs: number): string {
  return `if the server is only slow to start, raise its "timeoutMs" (now ${timeoutMs})`;
}

function installStuck(install: InstallAllowance, quietMs: number): ConnectDeadlineError {
  const { runner } = install.runner;
  const folder = install.runner.cacheDir !== undefined ? `, no change in ${install.runner.cacheDir}` : '';
  return new ConnectDeadlineError(
    `${runner} made no progress for ${seconds(quietMs)} while installing${what(install)} (no output${folder})`,
    `run "${install.commandLine}" by hand to see where it stops (a network problem, a registry that does not answer)`,
  );
}

function installTooLong(install: InstallAllowance): ConnectDeadlineError {
  return new ConnectDeadlineError(
    `${install.runner.runner} was still installing${what(install)} after ${seconds(install.totalMs)}, the install limit (installTimeoutMs)`,
    `run "${install.commandLine}" once by hand to finish the install, or raise installTimeoutMs (toolSearch.installTimeoutMs, or --install-timeout-ms)`,
  );
}

function what(install: InstallAllowance): string {
  return install.runner.packageSpec !== undefined ? ` ${install.runner.packageSpec}` : '';
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
