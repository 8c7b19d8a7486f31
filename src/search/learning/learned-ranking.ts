/**
 * C13 — the searcher's view of a learned log: a channel per pool, rebuilt when the log changes.
 * A large log is rebuilt at most once per `REBUILD_INTERVAL_MS` (its build is not free), a small one
 * at once, so a search right after a call already sees that call.
 */
import type { ToolSpec } from '../../core/tool.js';
import type { RankedTool } from '../ranker.js';
import { DEFAULT_LEARNED_CHANNEL, LearnedChannel, type LearnedChannelOptions } from './channel.js';
import { DEFAULT_LEARNED_FUSION, rankWithLearning, type LearnedFusionOptions, type LearnedHit } from './fuse.js';
import type { LearnedLog } from './log.js';

/** A log below this many entries is re-indexed on every change. */
const SMALL_LOG = 2_000;
const REBUILD_INTERVAL_MS = 2_000;

export interface LearnedRankingOptions {
  readonly channel?: Partial<LearnedChannelOptions>;
  readonly fusion?: Partial<LearnedFusionOptions>;
  /** The clock (tests). */
  readonly now?: () => number;
}

export class LearnedRanking {
  readonly channelOptions: LearnedChannelOptions;
  readonly fusionOptions: LearnedFusionOptions;
  private readonly now: () => number;
  private built: { channel: LearnedChannel; version: number; pool: readonly ToolSpec[]; at: number } | undefined;

  constructor(
    readonly log: LearnedLog,
    options: LearnedRankingOptions = {},
  ) {
    this.channelOptions = { ...DEFAULT_LEARNED_CHANNEL, ...options.channel };
    this.fusionOptions = { ...DEFAULT_LEARNED_FUSION, ...options.fusion };
    this.now = options.now ?? Date.now;
  }

  /** The channel for this pool of deferred tools (only its tools take part). */
  channel(pool: readonly ToolSpec[]): LearnedChannel {
    const now = this.now();
    const b = this.built;
    const fresh =
      b !== undefined &&
      b.pool === pool &&
      (b.version === this.log.version || (this.log.entryCount >= SMALL_LOG && now - b.at < REBUILD_INTERVAL_MS));
    if (fresh) return b.channel;
    const names = new Set(pool.map((t) => t.name));
    const channel = new LearnedChannel(this.log, this.channelOptions, now, (tool) => names.has(tool));
    this.built = { channel, version: this.log.version, pool, at: now };
    return channel;
  }

  /** The keyword ranking with learned evidence fused in (the lexical order when none matches). */
  rank(
    pool: readonly ToolSpec[],
    query: string,
    lexicalSearch: (depth: number) => readonly RankedTool[],
    limit: number,
    accept?: (name: string) => boolean,
  ): LearnedHit[] {
    if (this.log.entryCount === 0) return rankWithLearning(lexicalSearch, [], limit, this.fusionOptions);
    const matches = this.channel(pool).match(query);
    return rankWithLearning(lexicalSearch, matches, limit, this.fusionOptions, accept);
  }
}
