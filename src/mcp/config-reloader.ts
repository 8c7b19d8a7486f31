/**
 * G7 — live reload of the config file. The file is watched (its directory, not the file: editors
 * save by writing a temporary file and renaming it over the old one, which ends a watch on the
 * file itself), changes are debounced, and `reload()` is also what SIGHUP calls.
 *
 * A reload reads and validates the whole file first (`${VAR}` expanded from the environment as it
 * is now). An invalid file changes nothing: the running config stays, and the reason is logged,
 * kept for the status page and `toolsearch status`, and emitted. A valid one goes to
 * `McpHub.reconfigure`: added servers connect, removed ones stop, changed ones restart, the rest
 * and every client session keep running. The `toolSearch` section (mode, limits, session store,
 * embeddings) is read at start only; a change to it is reported, not applied.
 *
 * Every reload, good or bad, is emitted as a `reload` event (`onReload`) for audit logs.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readConfigText, readConfigTextSync } from './config-file.js';
import { basename, dirname, resolve } from 'node:path';
import { errorMessage } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { readHubConfig, type HubConfig } from './config.js';
import type { McpHub } from './hub.js';
import { isEmptyChange, type ServerChanges } from './reload-plan.js';
import type { Environment } from './variables.js';

/** What asked for the reload. */
export type ReloadTrigger = 'file' | 'signal' | 'request';

/** One reload, as the log, the status page and audit subscribers see it. */
export interface ReloadEvent {
  readonly at: number;
  readonly trigger: ReloadTrigger;
  readonly source: string;
  /** false: the file was invalid and the running config stays. */
  readonly ok: boolean;
  /** Why the file was refused (names the file, key and variable; never an expanded value). */
  readonly error?: string;
  readonly changes?: ServerChanges;
  /** What the reload did to the parts outside the hub (`profiles: added ops`), one line each. */
  readonly parts?: readonly string[];
  /** `toolSearch` keys that changed but apply only on restart. */
  readonly needsRestart?: readonly string[];
}

/** For the status page: what runs, and how the last reload went. */
export interface ConfigStatus {
  readonly source: string;
  readonly watching: boolean;
  readonly lastReload?: ReloadEvent;
}

export interface ConfigReloaderOptions {
  logger?: Logger;
  /** Quiet time after the last change before reading the file. Default 300 ms. */
  debounceMs?: number;
  /** Where `${VAR}` values come from. Default: the process environment at reload time. */
  env?: () => Environment;
  /** Sections of the file the hub does not own (the gateway's profiles), reloaded with it. */
  parts?: readonly ReloadPart[];
}

/**
 * A section of the config outside the hub's servers (G9 profiles). `prepare` checks it against
 * the whole new file before anything changes: throwing (an McpConfigError naming the key) refuses
 * the reload, as an invalid file is. The step it returns runs once the hub has the new servers,
 * and says what it did (undefined: nothing changed).
 */
export interface ReloadPart {
  prepare(next: HubConfig): () => Promise<string | undefined>;
}

const DEFAULT_DEBOUNCE_MS = 300;

export class ConfigReloader {
  private readonly path: string;
  private readonly logger: Logger;
  private readonly debounceMs: number;
  private readonly listeners = new Set<(event: ReloadEvent) => void>();
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Reloads run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private lastText: string | undefined;
  private last: ReloadEvent | undefined;
  private closed = false;

  constructor(
    path: string,
    private readonly hub: McpHub,
    private readonly options: ConfigReloaderOptions = {},
  ) {
    this.path = resolve(path);
    this.logger = options.logger ?? silentLogger;
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  }

  /** Watch the file's directory for saves (including atomic renames) of the file. */
  watch(): this {
    if (this.watcher || this.closed) return this;
    const name = basename(this.path);
    // Read now, synchronously: a save right after this call must compare against what was there.
    try {
      this.lastText ??= readConfigTextSync(this.path);
    } catch {
      // Not there (yet): the first save that creates it reloads.
    }
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
      // Some platforms give no file name: reread then (an unchanged file is skipped below).
      if (file === null || file === name) this.schedule();
    });
    this.watcher.on('error', (error) =>
      this.logger.warn(`config watch on ${this.path} stopped: ${errorMessage(error)}`),
    );
    return this;
  }

  /** Subscribe to every reload (audit logs). Returns the unsubscribe function. */
  onReload(listener: (event: ReloadEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): ConfigStatus {
    return { source: this.path, watching: this.watcher !== undefined, ...(this.last && { lastReload: this.last }) };
  }

  /** Reload now (SIGHUP, an API call). Resolves with what happened; never rejects. */
  reload(trigger: ReloadTrigger = 'request'): Promise<ReloadEvent> {
    const run = this.queue.then(() => this.run(trigger, true));
    this.queue = run;
    return run;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.queue = this.queue.then(() => this.run('file', false));
    }, this.debounceMs);
    this.timer.unref();
  }

  private async run(trigger: ReloadTrigger, always: boolean): Promise<ReloadEvent> {
    const at = Date.now();
    const source = this.path;
    let next: HubConfig;
    let steps: (() => Promise<string | undefined>)[];
    try {
      const text = await readConfigText(this.path).catch(() => undefined);
      // A save that rewrote the same bytes (or a watch event for a touch) changes nothing.
      if (!always && text !== undefined && text === this.lastText && this.last?.ok !== false)
        return this.last ?? { at, trigger, source, ok: true };
      next = await readHubConfig(this.path, this.options.env?.() ?? process.env);
      steps = (this.options.parts ?? []).map((part) => part.prepare(next));
      this.lastText = text;
    } catch (error) {
      const event: ReloadEvent = { at, trigger, source, ok: false, error: errorMessage(error) };
      this.logger.error(`config reload refused, the running config stays: ${event.error}`);
      return this.record(event);
    }
    if (this.closed) return { at, trigger, source, ok: false, error: 'the gateway is closing' };
    const needsRestart = changedToolSearchKeys(this.hub.config, next);
    const changes = await this.hub.reconfigure(next);
    const parts: string[] = [];
    for (const step of steps) {
      const said = await step();
      if (said !== undefined) parts.push(said);
    }
    const event: ReloadEvent = {
      at,
      trigger,
      source,
      ok: true,
      changes,
      ...(parts.length > 0 && { parts }),
      ...(needsRestart.length > 0 && { needsRestart }),
    };
    this.logger.info(`config reloaded (${trigger}): ${describeReload(event)}`);
    if (needsRestart.length > 0)
      this.logger.warn(
        `config reload: toolSearch.${needsRestart.join(', toolSearch.')} changed; it applies on restart`,
      );
    return this.record(event);
  }

  private record(event: ReloadEvent): ReloadEvent {
    this.last = event;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn(`a reload listener failed: ${errorMessage(error)}`);
      }
    }
    return event;
  }
}

/** A reload's changes in one line: the servers', then each part's (`…; profiles: added ops`). */
export function describeReload(event: ReloadEvent): string {
  return [event.changes ? describeChanges(event.changes) : 'no change', ...(event.parts ?? [])].join('; ');
}

/** One line: `added a; removed b; restarted c; 2 unchanged`. */
export function describeChanges(changes: ServerChanges): string {
  if (isEmptyChange(changes)) return `no server changed (${changes.unchanged.length} kept running)`;
  return [...changeParts(changes, 'restarted'), `${changes.unchanged.length} kept running`].join('; ');
}

/** `added a`, `removed b`, `<changedVerb> c`: the non-empty ones (servers here, profiles in profiles/reload.ts). */
export function changeParts(
  changes: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly string[];
  },
  changedVerb: string,
): string[] {
  const parts: string[] = [];
  if (changes.added.length > 0) parts.push(`added ${changes.added.join(', ')}`);
  if (changes.removed.length > 0) parts.push(`removed ${changes.removed.join(', ')}`);
  if (changes.changed.length > 0) parts.push(`${changedVerb} ${changes.changed.join(', ')}`);
  return parts;
}

function changedToolSearchKeys(before: HubConfig, after: HubConfig): string[] {
  const keys = new Set([...Object.keys(before.toolSearch), ...Object.keys(after.toolSearch)]);
  const a = before.toolSearch as Record<string, unknown>;
  const b = after.toolSearch as Record<string, unknown>;
  return [...keys].filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key])).sort();
}
