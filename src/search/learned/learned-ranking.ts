/**
 * C13 — the searcher's view of a learned log: per pool, the kNN channel (a query like an earlier
 * search lifts the tools it led to) and the learned field (the words of earlier searches, per
 * tool), rebuilt when the log changes. A large log is rebuilt at most once per
 * `REBUILD_INTERVAL_MS`, and no sooner than its last build's time ÷ `REBUILD_SHARE` (a 50k-entry
 * build takes a good part of a second: rebuilds may take at most that share of the time); a small
 * one at once, so a search right after a call already sees that call. The field's weight comes
 * from replaying the log (calibrate.ts), redone when the log has grown by a tenth since; until a
 * replay shows it helps, the field is off and costs nothing. With `defer`, a large log's rebuild
 * and replay run after the search that finds them due, which is answered with what was built before.
 */
import type { ToolSpec } from '../../core/tool.js';
import {
  type Calibration,
  type ChannelVerdict,
  calibrateField,
  judgeChannel,
  pastSearches,
  type ReplaySource,
  replaysOf,
} from './calibrate.js';
import { DEFAULT_LEARNED_CHANNEL, LearnedChannel, type LearnedChannelOptions } from './channel.js';
import { LearnedField } from './field.js';
import {
  DEFAULT_LEARNED_FUSION,
  rankWithLearning,
  stackLearned,
  type LearnedFusionOptions,
  type LearnedHit,
} from './fuse.js';
import { rankWithField } from './fuse-field.js';
import type { LearnedCut, LexicalSource } from './lexical.js';
import type { LearnedLog } from './log.js';
import { learnedTerms } from './terms.js';

/** A log below this many entries is re-indexed on every change. */
const SMALL_LOG = 2_000;
const REBUILD_INTERVAL_MS = 2_000;
/** At most this share of the time goes to rebuilding a large log's index (a 300 ms build waits 6 s). */
const REBUILD_SHARE = 0.05;
/** The field's weight is replayed again once the log has grown (or shrunk) by this share. */
const RECALIBRATE_SHARE = 0.1;

export interface LearnedRankingOptions {
  readonly channel?: Partial<LearnedChannelOptions>;
  readonly fusion?: Partial<LearnedFusionOptions>;
  /** The learned field (words of earlier searches per tool, weighed by the log's replay); default on. */
  readonly field?: boolean;
  /** The clock (tests). */
  readonly now?: () => number;
  /**
   * Where a large log's rebuild and replay run once due. Default: inside the search that finds them
   * due. A server passes `setImmediate`: that search is answered with the previous index and the
   * work runs right after it, so no search waits for it (the process is busy for as long anyway).
   */
  readonly defer?: (work: () => void) => void;
}

interface Verdict {
  readonly weight: number;
  readonly channel: boolean;
}

interface Built {
  /** Built on first use: only while the field is off (see `rank`). */
  channel?: LearnedChannel;
  readonly field: LearnedField;
  readonly present: (tool: string) => boolean;
  readonly version: number;
  readonly pool: readonly ToolSpec[];
  readonly at: number;
}

export class LearnedRanking {
  readonly channelOptions: LearnedChannelOptions;
  readonly fusionOptions: LearnedFusionOptions;
  private readonly now: () => number;
  private readonly fieldOn: boolean;
  private built: Built | undefined;
  /** How long a large log's index is kept after a change: the interval, or longer after a slow build. */
  private gapMs = REBUILD_INTERVAL_MS;
  /** The last replay's verdict, the log's size then and the pool it was replayed on. */
  private calibrated:
    | (Calibration & { channel?: ChannelVerdict; entries: number; pool: readonly ToolSpec[] })
    | undefined;
  /** A deferred rebuild or replay is queued (one at a time). */
  private deferred = false;

  constructor(
    readonly log: LearnedLog,
    private readonly options: LearnedRankingOptions = {},
  ) {
    this.channelOptions = { ...DEFAULT_LEARNED_CHANNEL, ...options.channel };
    this.fusionOptions = { ...DEFAULT_LEARNED_FUSION, ...options.fusion };
    this.now = options.now ?? Date.now;
    this.fieldOn = options.field ?? true;
  }

  /** The last replay's verdict on the learned field and the kNN channel (undefined before the first). */
  get calibration(): (Calibration & { readonly channel?: ChannelVerdict }) | undefined {
    return this.calibrated;
  }

  /** How long a changed large log waits for its next rebuild (ms). */
  get rebuildGapMs(): number {
    return this.gapMs;
  }

  /** The channel for this pool of deferred tools (only its tools take part). */
  channel(pool: readonly ToolSpec[]): LearnedChannel {
    const built = this.build(pool);
    built.channel ??= new LearnedChannel(this.log, this.channelOptions, built.at, built.present);
    return built.channel;
  }

  private build(pool: readonly ToolSpec[]): Built {
    const now = this.now();
    const b = this.built;
    const fresh =
      b !== undefined &&
      b.pool === pool &&
      (b.version === this.log.version || (this.log.entryCount >= SMALL_LOG && now - b.at < this.gapMs));
    if (fresh) return b;
    // Only out of date (same pool, a large log): answer with it, rebuild after this search.
    if (b !== undefined && b.pool === pool && this.deferLarge(() => this.rebuild(pool))) return b;
    return this.rebuild(pool);
  }

  /** Queues `work` when a deferral is set and the log is large; false: the caller does it now. */
  private deferLarge(work: () => void): boolean {
    const defer = this.options.defer;
    if (!defer || this.log.entryCount < SMALL_LOG) return false;
    if (!this.deferred) {
      this.deferred = true;
      defer(() => {
        this.deferred = false;
        work();
      });
    }
    return true;
  }

  private rebuild(pool: readonly ToolSpec[]): Built {
    const now = this.now();
    const names = new Map(pool.map((t) => [t.name, t.name]));
    const present = (tool: string) => names.has(tool);
    const field = new LearnedField(this.log, this.decay(now), (tool) => names.get(tool));
    this.gapMs = Math.max(REBUILD_INTERVAL_MS, (this.now() - now) / REBUILD_SHARE);
    this.built = { field, present, version: this.log.version, pool, at: now };
    return this.built;
  }

  private decay(now: number): (last: number) => number {
    const halfLife = this.channelOptions.halfLifeDays * 86_400_000;
    return (last) => (halfLife > 0 ? 0.5 ** (Math.max(0, now - last) / halfLife) : 1);
  }

  /**
   * The replays' verdict for this pool (the field's weight, whether the kNN channel is used),
   * replaying the log when it has changed enough or the pool has changed (other tools, other
   * evidence: a server added may be where the log's searches led); without `lexical.searchText` (nothing to replay
   * with) or with the field switched off, the field stays off and the kNN channel on.
   */
  private verdict(pool: readonly ToolSpec[], built: Built, lexical: LexicalSource): Verdict {
    const searchText = lexical.searchText;
    if (!this.fieldOn || !searchText) return { weight: 0, channel: true };
    const entries = this.log.entryCount;
    const c = this.calibrated;
    const stale = c === undefined || c.pool !== pool || Math.abs(entries - c.entries) > RECALIBRATE_SHARE * c.entries;
    const source = { searchText, ...(lexical.lastScores && { lastScores: lexical.lastScores }) };
    // The first replay is needed now; a later one can follow the search, as a rebuild does.
    if (stale && (c === undefined || !this.deferLarge(() => this.replay(pool, source))))
      this.replay(pool, source, built);
    return { weight: this.calibrated!.weight, channel: this.calibrated!.channel?.on ?? true };
  }

  /** Replays the log against `built` (else the current index) and keeps the verdict. */
  private replay(pool: readonly ToolSpec[], source: ReplaySource, built = this.build(pool)): void {
    const entries = this.log.entryCount;
    const names = new Set(pool.map((t) => t.name));
    const searches = pastSearches(this.log, (tool) => names.has(tool));
    // Held out at the weight the field gave it when built: with the clock read again, the field
    // keeps a remainder of the held-out search that grows with the time between the two reads.
    const replays = replaysOf(searches, source, built.field, this.decay(built.at), this.fusionOptions.depth, this.log);
    const field = calibrateField(built.field, replays);
    // The kNN channel over the field's list where the field is on, over the words' list where it is off.
    const stacked = field.weight > 0 ? { field: built.field, weight: field.weight } : undefined;
    const channel = judgeChannel(this.channel(pool), replays, this.fusionOptions, stacked);
    this.calibrated = { ...field, channel, entries, pool };
  }

  /**
   * The keyword ranking with learned evidence fused in (the lexical order when none applies).
   * `lexical.searchText` (the same ranker for any text) lets the log be replayed to weigh the field.
   */
  rank(pool: readonly ToolSpec[], query: string, lexical: LexicalSource, cut: LearnedCut): LearnedHit[] {
    const { limit, accept } = cut;
    const lexicalSearch = lexical.search;
    if (this.log.entryCount === 0) return rankWithLearning(lexicalSearch, [], limit, this.fusionOptions);
    const built = this.build(pool);
    const { weight, channel } = this.verdict(pool, built, lexical);
    // The field reads a repeated intent's words; the kNN channel (a walk over similar past searches,
    // the dearer of the two) brings back the tools a whole search like this one led to. Each is used
    // only where the log's replay shows it helps; with neither, the search is the lexical one, at its cost.
    if (weight > 0 && !channel)
      return rankWithField(lexical, built.field, query, weight, this.fusionOptions.depth, cut);
    if (weight > 0) {
      const depth = Math.max(limit, this.fusionOptions.depth);
      const fielded = rankWithField(lexical, built.field, query, weight, this.fusionOptions.depth, {
        ...cut,
        limit: depth,
      });
      const matches = this.channel(pool).matchTerms(learnedTerms(query));
      return stackLearned(fielded, matches, limit, this.fusionOptions, accept);
    }
    if (!channel) return rankWithLearning(lexicalSearch, [], limit, this.fusionOptions);
    const matches = this.channel(pool).matchTerms(learnedTerms(query));
    return rankWithLearning(lexicalSearch, matches, limit, this.fusionOptions, accept);
  }
}
