/**
 * The searcher's data types: the pool a search runs over, its options and its result.
 */
import type { FailedServer } from '../core/catalog.js';
import type { InstallingServer } from '../core/installing.js';
import type { ServerInfo, ToolSpec } from '../core/tool.js';
import type { HitExplanation } from './explain.js';
import type { Embedder, Ranker, RankerName } from './ranker.js';
import type { SuggestedServer } from './suggest.js';
import type { LearnedRanking } from './learned/learned-ranking.js';

export interface SearchPool {
  readonly tools: readonly ToolSpec[];
  /** Names of the tools that are deferred (not yet loaded); the rest of `tools` is loaded. */
  readonly deferred: ReadonlySet<string>;
  /** MCP servers still connecting (C8). */
  readonly pendingServers: readonly string[];
  /** MCP servers that failed, with the reason (C12); named apart from those still connecting. */
  readonly failedServers?: readonly FailedServer[];
  /** G13: the pending servers a package runner is still installing. */
  readonly installingServers?: readonly InstallingServer[];
  /** What servers said about themselves at initialize (title, instructions): server-level evidence. */
  readonly servers?: ReadonlyMap<string, ServerInfo>;
  /**
   * G10: tools this client's policy keeps out of the pool, with why. Never returned; a search counts
   * those that would have matched and says so (`withheldByPolicy`).
   */
  readonly policyHidden?: readonly PolicyHiddenTool[];
}

/** G10: a tool left out of the pool by policy: the tool (its text, for matching) and the reason. */
export interface PolicyHiddenTool {
  readonly tool: ToolSpec;
  readonly reason: string;
}

export type QueryKind = 'select' | 'exact' | 'prefix' | 'keyword' | 'regex' | 'bm25';
export type SearchMode = 'default' | 'regex' | 'bm25';

export interface ToolSearchResult {
  query: string;
  kind: QueryKind;
  /** Model-facing names, best first. These are the tools the search loads. */
  matches: string[];
  /** `select:` only: requested names absent from the whole pool. */
  notFound: string[];
  totalDeferred: number;
  pendingServers: string[];
  /** C12: servers that failed, with the reason (absent when none). */
  failedServers?: FailedServer[];
  /** G13: the pending servers a package runner is still installing (absent when none). */
  installingServers?: InstallingServer[];
  /** Regex mode only: why the pattern was not used (too long, unsupported syntax). */
  error?: string;
  /** C11, with `explain: true`: why each match is there, in `matches` order. */
  explanations?: HitExplanation[];
  /** C12: a keyword search that found nothing it is sure of lists the servers likely to hold the tool. */
  suggestedServers?: SuggestedServer[];
  /** E5/C12: per match (keyword searches), how much of the query it covers, 0–1. */
  confidence?: number[];
  /** E5: per match (lexical keyword searches), the ranker's score. */
  scores?: number[];
  /** C12: true when the matches are weak (the best one covers little of the query) or absent. */
  lowConfidence?: boolean;
  /** E4: a `mcp__` prefix or a name that fits several servers lists them (`suggestedServers` holds them). */
  serversMatched?: string;
  /** C15: a server listing: how many tools the prefix holds (`matches` may stop short of them). */
  listingTotal?: number;
  /** G10: tools that match but the client's policy leaves out: how many, and one's reason (never names). */
  withheldByPolicy?: { count: number; reason: string };
}

export interface ToolSearcherOptions {
  ranker?: Ranker | RankerName;
  embedder?: Embedder;
  maxResults?: number;
  /** C13: learned evidence from earlier searches that led to calls, fused with the keyword ranking. */
  learned?: LearnedRanking;
}

export interface SearchOptions {
  maxResults?: number;
  mode?: SearchMode;
  /** C11: attach `explanations` to the result. */
  explain?: boolean;
  /**
   * C10: vectors computed outside (an embedding server): the query's and a lookup of each tool's.
   * Fused with the lexical ranking like an embedder's; a tool without a vector has no embedding rank.
   */
  vectors?: SearchVectors;
}

export interface SearchVectors {
  readonly query: readonly number[];
  tool(tool: ToolSpec): readonly number[] | undefined;
}
