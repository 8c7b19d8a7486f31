/**
 * C10 in the gateway: the embedding searcher behind `tool_search`, warmed whenever the catalog
 * changes (servers connect, `tools/list_changed`), so tool vectors are usually ready before the
 * first search; until they are, searches are lexical and never wait.
 */
import type { Catalog } from '../../core/catalog.js';
import { DEFAULT_LIMITS } from '../../core/limits.js';
import { defaultRanker } from '../../search/rank-default/index.js';
import type { EmbeddingsConfig } from '../../core/embeddings-config.js';
import { EmbeddingSearcher } from '../../embeddings/searcher.js';
import type { Logger } from '../../util/log.js';
import type { GatewaySearcher } from './search.js';

export function embeddingGatewaySearcher(
  config: EmbeddingsConfig,
  catalog: Catalog,
  logger: Logger,
  limits: { indexedCharsPerField: number } = DEFAULT_LIMITS,
): GatewaySearcher & { embeddings: EmbeddingSearcher } {
  const searcher = new EmbeddingSearcher(config, {
    logger,
    searcher: { ranker: defaultRanker({ maxFieldChars: limits.indexedCharsPerField }) },
  });
  // Every catalog tool (a superset of any session's deferred ones): one background job per change.
  const warm = () => {
    const tools = catalog.tools;
    searcher.warm({ tools, deferred: new Set(tools.map((t) => t.name)), pendingServers: [] });
  };
  catalog.onChange(warm);
  warm();
  return {
    embeddings: searcher,
    search: (pool, query, options) => searcher.search(pool, query, options),
  };
}
