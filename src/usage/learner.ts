/**
 * C13 — a gateway's (or an agent loop's) learning: the log, the ranking that reads it, and where
 * it is persisted. `record` is the one way evidence comes in; every change is also queued as an
 * op for the store (saves debounced, `close` flushes), and the store is polled for others' ops. A
 * tool whose input schema changes loses what it learned (its description may change).
 */
import type { ToolSpec } from '../core/tool.js';
import { LearnedLog, type LearnedLogLimits } from '../search/learned/log.js';
import { applyLearnedOp, type LearnedOp } from '../search/learned/ops.js';
import { LearnedRanking, type LearnedRankingOptions } from '../search/learned/learned-ranking.js';
import { learnedTerms, schemaFingerprint } from '../search/learned/terms.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { LearnedPersistence } from './file-store.js';
import type { LearningIdentities } from './settings.js';
import { sourceDigest } from './signal.js';

/** C15: the teacher of every lesson where `identities` is `one` and no identity is proven. */
const ONE_USER = 'one-user';

export interface LearnerOptions {
  /** Where the log is kept; absent: memory only. */
  readonly store?: LearnedPersistence;
  readonly limits?: LearnedLogLimits;
  readonly ranking?: LearnedRankingOptions;
  /** C14: lessons one client may teach per hour (see UsageSignal); default `DEFAULT_LESSONS_PER_HOUR`. */
  readonly lessonsPerHour?: number;
  /** C15: whose lessons lift alone; default `auto`. */
  readonly identities?: LearningIdentities;
  /** Debounce of saves (ms). Default 1000. */
  readonly saveDelayMs?: number;
  /** How often what others wrote to the store is read (ms); 0: only when saving. Default 2000. */
  readonly pollMs?: number;
  readonly logger?: Pick<Logger, 'warn'>;
}

/** C14: who taught a recording (see `Learner.record`). */
export interface RecordContext {
  readonly source?: string;
}

/** What `learned show` and the status page read: per tool, how much it learned and when. */
export interface LearnedToolSummary {
  readonly tool: string;
  /** Distinct term sets of the searches that led here. */
  readonly entries: number;
  /** Searches in all (repeats counted). */
  readonly searches: number;
  /** Epoch ms of the last one. */
  readonly last: number;
  /** With `terms: true`: the most frequent terms (index stems), for `learned show --tool`. */
  readonly terms?: readonly string[];
  /** With `terms: true`, C14: the terms that lift the tool (two identities used them for it, or one trusted), sorted. */
  readonly lifting?: readonly string[];
}

export class Learner {
  readonly log: LearnedLog;
  readonly ranking: LearnedRanking;
  /** Settles once the store's evidence is in (at once for the file store). */
  readonly ready: Promise<void>;
  /** Changes not yet in the store (already in `log`). */
  private pending: LearnedOp[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly poller: NodeJS.Timeout | undefined;
  /** The store exchange under way (one at a time, in order). */
  private syncing: Promise<void> | undefined;

  /** C14: the hourly per-client lesson budget this learner was configured with (undefined: the default). */
  get lessonsPerHour(): number | undefined {
    return this.options.lessonsPerHour;
  }

  /** C15: whose lessons lift alone (settings.ts `LearningIdentities`). */
  get identities(): LearningIdentities {
    return this.options.identities ?? 'auto';
  }

  /**
   * C15: who teaches a lesson: the request's proven identity (sessions/identity.ts), or, where every
   * caller is one user (`identities: one`), that user. Undefined: nobody, and nothing is learned.
   */
  teacher(sole: string | undefined, proven: string | undefined): string | undefined {
    if (this.identities === 'one') return sole ?? ONE_USER;
    return proven;
  }

  /**
   * C15: the identity that alone reaches the gateway now (undefined: none, or several): its lessons
   * lift without a second, unless `identities` is `shared`.
   */
  learnFrom(sole: string | undefined): void {
    const trusted = this.identities === 'shared' ? undefined : this.identities === 'one' ? (sole ?? ONE_USER) : sole;
    this.log.trust(trusted === undefined ? [] : [sourceDigest(trusted)]);
  }

  constructor(private readonly options: LearnerOptions = {}) {
    this.log = new LearnedLog(options.limits);
    this.ranking = new LearnedRanking(this.log, options.ranking);
    this.ready = this.sync();
    const pollMs = options.pollMs ?? 2_000;
    if (options.store && pollMs > 0) {
      // A poll while an exchange is still waiting (a Redis down: ~5 s each) is skipped, not queued:
      // queued polls grew without bound and close() waited for every one of them.
      this.poller = setInterval(() => this.syncing === undefined && void this.sync(), pollMs);
      this.poller.unref();
    }
  }

  /**
   * A search for `query` led to `tool` (a call of one of its results, or a select:). C14: `source`
   * is who taught it (a session's digest; evidence lifts once two sources agree).
   */
  record(query: string, tool: ToolSpec | string, at = Date.now(), context: RecordContext = {}): boolean {
    const name = typeof tool === 'string' ? tool : tool.name;
    const schema = typeof tool === 'string' ? undefined : schemaFingerprint(tool);
    const terms = learnedTerms(query);
    if (terms.length === 0 || name === '') return false;
    this.apply({
      kind: 'add',
      tool: name,
      terms,
      at,
      ...(schema !== undefined && { schema }),
      ...(context.source !== undefined && { source: context.source }),
    });
    return true;
  }

  /** Drop evidence of tools whose input schema is no longer the one it was learned under. */
  checkSchemas(tools: readonly ToolSpec[]): void {
    const at = Date.now();
    for (const tool of tools)
      if (this.log.schemaChanged(tool.name, schemaFingerprint(tool)))
        this.apply({ kind: 'forget', tool: tool.name, at });
  }

  /** Forget one tool's evidence (or all of it); how many tools had some. */
  forget(tool?: string): number {
    const count = tool === undefined ? this.log.toolNames().length : this.log.evidence(tool) ? 1 : 0;
    this.apply({ kind: 'forget', at: Date.now(), ...(tool !== undefined && { tool }) });
    return count;
  }

  summary(options: { tool?: string; terms?: boolean } = {}): LearnedToolSummary[] {
    return learnedSummary(this.log, options);
  }

  /**
   * Exchange with the store now: pending changes go out, others' come in. The file store has
   * finished when this returns; the promise is for stores that talk to a server.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.sync();
  }

  async close(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.flush();
  }

  private apply(op: LearnedOp): void {
    applyLearnedOp(this.log, op);
    if (!this.options.store) return;
    this.pending.push(op);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.options.saveDelayMs ?? 1_000);
    this.timer.unref();
  }

  private sync(): Promise<void> {
    const store = this.options.store;
    if (!store) return Promise.resolve();
    // One exchange at a time, in order; when none is waiting on a server, run at once (not after
    // a microtask), so a synchronous store has finished when this returns.
    if (this.syncing) return (this.syncing = this.syncing.then(() => this.exchange(store)));
    const result = this.exchange(store);
    if (!result) return Promise.resolve();
    const tracked: Promise<void> = result.finally(() => {
      if (this.syncing === tracked) this.syncing = undefined;
    });
    this.syncing = tracked;
    return tracked;
  }

  /** One exchange with the store; a promise only when the store answers later. */
  private exchange(store: LearnedPersistence): Promise<void> | undefined {
    const batch = this.pending;
    this.pending = [];
    const failed = (error: unknown) => {
      // Kept for the next exchange: nothing recorded is dropped because a write failed once.
      this.pending = [...batch, ...this.pending];
      const what = batch.length > 0 ? 'not saved to' : 'cannot read';
      this.options.logger?.warn(`learned search: ${what} ${store.display}: ${errorMessage(error)}`);
    };
    try {
      return store.sync(this.log, batch)?.catch(failed);
    } catch (error) {
      failed(error);
      return undefined;
    }
  }
}

export function learnedSummary(
  log: LearnedLog,
  options: { tool?: string; terms?: boolean } = {},
): LearnedToolSummary[] {
  const out: LearnedToolSummary[] = [];
  const lifting = options.terms ? liftingTerms(log) : undefined;
  for (const [tool, evidence] of log.entries()) {
    if (options.tool !== undefined && tool !== options.tool) continue;
    let searches = 0;
    let last = 0;
    const counts = new Map<string, number>();
    for (const entry of evidence.entries.values()) {
      searches += entry.count;
      last = Math.max(last, entry.last);
      if (options.terms) for (const t of entry.terms) counts.set(t, (counts.get(t) ?? 0) + entry.count);
    }
    const terms = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 12);
    out.push({
      tool,
      entries: evidence.entries.size,
      searches,
      last,
      ...(options.terms && { terms: terms.map(([t]) => t), lifting: lifting?.get(tool) ?? [] }),
    });
  }
  return out.sort((a, b) => b.searches - a.searches || a.tool.localeCompare(b.tool));
}

/** C14: per tool, the words that lift it (corroborated), sorted. */
function liftingTerms(log: LearnedLog): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [tool, evidence] of log.lifting()) {
    const terms = new Set<string>();
    for (const entry of evidence.entries.values()) for (const t of entry.terms) terms.add(t);
    out.set(tool, [...terms].sort());
  }
  return out;
}
