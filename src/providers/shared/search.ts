/**
 * The search contract the providers code against: the shape of `ToolSearcher` (src/search), kept
 * structural here so an adapter can take the real searcher or any stand-in with the same shape.
 */
import { LOADED_TAG, wrapTag } from '../../core/markers.js';
import type { ToolSpec } from '../../core/tool.js';

export interface SearchPool {
  readonly tools: readonly ToolSpec[];
  /** Names of the deferred tools (discovered or not); the rest of `tools` is always loaded. */
  readonly deferred: ReadonlySet<string>;
  readonly pendingServers: readonly string[];
}

export interface ToolSearchResult {
  query: string;
  kind: string;
  /** Model-facing names, best first: the tools this search loads. */
  matches: string[];
  notFound: string[];
  totalDeferred: number;
  pendingServers: string[];
  error?: string;
}

export interface SearchCallOptions {
  maxResults?: number;
  mode?: 'default' | 'regex' | 'bm25';
}

/** Anything with `ToolSearcher.search`'s signature. */
export interface Searcher {
  search(pool: SearchPool, query: string, options?: SearchCallOptions): ToolSearchResult;
}

/** Turns a result into the text the model reads (src/search `formatSearchResult`). */
export type SearchResultFormatter = (result: ToolSearchResult) => string;

/** The search tool's input as the model sends it; tolerant of a JSON string or missing fields. */
export function parseSearchInput(input: unknown): { query: string; maxResults?: number } {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { query: value as string };
    }
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const query = typeof record.query === 'string' ? record.query : '';
  const max = record.max_results ?? record.maxResults;
  return typeof max === 'number' ? { query, maxResults: max } : { query };
}

/**
 * Client-side expansion (F4): the result text the model reads plus the `<tools-loaded>` marker
 * from which later requests re-derive the discovered set (D1).
 */
export function clientSearchText(formatted: string, matches: readonly string[]): string {
  return matches.length ? `${formatted}\n${wrapTag(LOADED_TAG, matches)}` : formatted;
}
