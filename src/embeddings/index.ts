/** C10 — embedding servers (OpenAI-compatible `/v1/embeddings`): `toolsearch/embeddings`. */
export {
  EMBEDDING_DEFAULTS,
  EMBEDDING_LIMITS,
  EmbeddingError,
  type EmbeddingsConfig,
  embeddingsEndpoint,
  validateEmbeddingsConfig,
} from '../core/embeddings-config.js';
export { HttpEmbedder, type HttpEmbedderOptions } from './http-embedder.js';
export { VectorCache, defaultCacheDir, textHash } from './cache.js';
export {
  EmbeddingService,
  type EmbeddingServiceOptions,
  type EmbeddingStatus,
  type EmbeddingState,
  type EmbeddingLogger,
} from './service.js';
export { EmbeddingSearcher, type EmbeddingSearcherOptions } from './searcher.js';
