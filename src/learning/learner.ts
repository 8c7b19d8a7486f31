/**
 * C13 — a gateway's (or an agent loop's) learning: the log, the ranking that reads it, and where
 * it is persisted. `record` is the one way evidence comes in; saves are debounced and `close`
 * flushes. A tool whose input schema changes loses what it learned (its description may change).
 */
import type { ToolSpec } from '../core/tool.js';
import { LearnedLog, type LearnedLogLimits } from '../search/learning/log.js';
import { LearnedRanking, type LearnedRankingOptions } from '../search/learning/learned-ranking.js';
import { schemaFingerprint } from '../search/learning/terms.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { LearnedPersistence } from './file-store.js';

export interface LearnerOptions {
  /** Where the log is kept; absent: memory only. */
  readonly store?: LearnedPersistence;
  readonly limits?: LearnedLogLimits;
  readonly ranking?: LearnedRankingOptions;
  /** Debounce of saves (ms). Default 1000. */
  readonly saveDelayMs?: number;
  readonly logger?: Pick<Logger, 'warn'>;
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
}

export class Learner {
  readonly log: LearnedLog;
  readonly ranking: LearnedRanking;
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(private readonly options: LearnerOptions = {}) {
    this.log = options.store?.load(options.limits) ?? new LearnedLog(options.limits);
    this.ranking = new LearnedRanking(this.log, options.ranking);
  }

  /** A search for `query` led to `tool` (a call of one of its results, or a select:). */
  record(query: string, tool: ToolSpec | string, at = Date.now()): boolean {
    const name = typeof tool === 'string' ? tool : tool.name;
    const schema = typeof tool === 'string' ? undefined : schemaFingerprint(tool);
    const added = this.log.record({ query, tool: name, at, ...(schema !== undefined && { schema }) });
    if (added) this.changed();
    return added;
  }

  /** Drop evidence of tools whose input schema is no longer the one it was learned under. */
  checkSchemas(tools: readonly ToolSpec[]): void {
    const before = this.log.version;
    for (const tool of tools)
      if (this.log.evidence(tool.name)) this.log.checkSchema(tool.name, schemaFingerprint(tool));
    if (this.log.version !== before) this.changed();
  }

  forget(tool?: string): number {
    const count = tool === undefined ? this.log.toolNames().length : this.log.forget(tool) ? 1 : 0;
    if (tool === undefined) this.log.clear();
    if (count > 0 || tool === undefined) this.changed();
    return count;
  }

  summary(options: { tool?: string; terms?: boolean } = {}): LearnedToolSummary[] {
    return learnedSummary(this.log, options);
  }

  /** Write pending changes now (and stop the timer). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty || !this.options.store) return;
    this.dirty = false;
    try {
      this.options.store.save(this.log);
    } catch (error) {
      this.options.logger?.warn(`learned search: not saved: ${errorMessage(error)}`);
    }
  }

  close(): void {
    this.flush();
  }

  private changed(): void {
    this.dirty = true;
    if (!this.options.store || this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.options.saveDelayMs ?? 1_000);
    this.timer.unref();
  }
}

export function learnedSummary(
  log: LearnedLog,
  options: { tool?: string; terms?: boolean } = {},
): LearnedToolSummary[] {
  const out: LearnedToolSummary[] = [];
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
      ...(options.terms && { terms: terms.map(([t]) => t) }),
    });
  }
  return out.sort((a, b) => b.searches - a.searches || a.tool.localeCompare(b.tool));
}
