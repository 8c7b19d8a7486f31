/**
 * C10 — a searcher that fuses an embedding server's vectors with the lexical ranking. The pure
 * `ToolSearcher` does the ranking; this wrapper does the I/O around it (tool vectors in the
 * background, the query vector per search) and never fails a search: without vectors it answers
 * lexically. Plugs into the gateway (`GatewaySearcher` shape) and into library code.
 */
import {
  formatSearchResult,
  ToolSearcher,
  type SearchOptions,
  type SearchPool,
  type ToolSearchResult,
  type ToolSearcherOptions,
} from '../search/searcher.js';
import { MCP_PREFIX } from '../core/names.js';
import { SELECT_PREFIX } from '../search/query.js';
import type { EmbeddingsConfig } from '../core/embeddings-config.js';
import { EmbeddingService, type EmbeddingServiceOptions } from './service.js';

export interface EmbeddingSearcherOptions extends EmbeddingServiceOptions {
  /** Options of the lexical searcher underneath (ranker, maxResults). An `embedder` there is not used. */
  searcher?: Omit<ToolSearcherOptions, 'embedder'>;
}

export class EmbeddingSearcher {
  readonly service: EmbeddingService;
  private readonly searcher: ToolSearcher;

  constructor(config: EmbeddingsConfig, options: EmbeddingSearcherOptions = {}) {
    this.service = new EmbeddingService(config, options);
    this.searcher = new ToolSearcher(options.searcher ?? {});
  }

  /** Start embedding the pool's deferred tools now (in the background); true if all are ready. */
  warm(pool: SearchPool): boolean {
    return this.service.ensure(deferredTools(pool));
  }

  /** Wait for the pool's tool vectors (CLI, tests); false when the server failed. */
  ready(pool: SearchPool): Promise<boolean> {
    return this.service.ready(deferredTools(pool));
  }

  async search(pool: SearchPool, query: string, options: SearchOptions = {}): Promise<ToolSearchResult> {
    const vectors = usesRanking(query, options)
      ? await this.service.searchVectors(deferredTools(pool), query.trim())
      : undefined;
    return this.searcher.search(pool, query, { ...options, ...(vectors && { vectors }) });
  }

  format(result: ToolSearchResult): string {
    return formatSearchResult(result);
  }
}

/** Only keyword searches are ranked; select:, exact names and server prefixes need no vector. */
function usesRanking(query: string, options: SearchOptions): boolean {
  const text = query.trim().toLowerCase();
  return (
    (options.mode ?? 'default') === 'default' &&
    text !== '' &&
    !text.startsWith(SELECT_PREFIX) &&
    !text.startsWith(MCP_PREFIX)
  );
}

function deferredTools(pool: SearchPool) {
  return pool.tools.filter((t) => pool.deferred.has(t.name));
}
