/**
 * The search contract the providers code against: `ToolSearcher.search`'s shape (src/search),
 * structural so an adapter takes the real searcher or any stand-in with the same signature.
 */
import { LOADED_TAG, nonceAttr, wrapTag } from '../../core/markers.js';
import type { SearchOptions, SearchPool, ToolSearchResult } from '../../search/searcher.js';

export type { SearchPool, ToolSearchResult };

/** Anything with `ToolSearcher.search`'s signature (the real searcher, or a stand-in in tests). */
export interface Searcher {
  search(pool: SearchPool, query: string, options?: SearchOptions): ToolSearchResult;
}

/** Turns a result into the text the model reads (default: `formatSearchResult`). */
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
  return matches.length ? `${formatted}\n${wrapTag(LOADED_TAG, matches, nonceAttr())}` : formatted;
}
