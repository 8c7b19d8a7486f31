/**
 * C10 — how to reach an embedding server: any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI,
 * Ollama, LM Studio, llama.cpp server, vLLM, TEI). Plain data with its defaults and bounds, written
 * once: the config file schema (src/mcp/config.ts), the CLI flags and the library option all check
 * against them. Pure, so it lives in core where both the hub's config and embeddings/ can read it.
 */
import { ToolsearchError } from './errors.js';

export interface EmbeddingsConfig {
  /** Base URL (`http://localhost:11434/v1`) or the full `…/embeddings` URL. */
  url: string;
  model: string;
  /** Name of the environment variable that holds the API key (sent as a Bearer token). Never the key itself. */
  apiKeyEnv?: string;
  /** Ask for (and check) this vector size; servers that cannot shorten vectors must then return it as is. */
  dimensions?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Per-request timeout in ms. Default 30,000 for tool batches; queries use `queryTimeoutMs`. */
  timeoutMs?: number;
  /** Timeout of the per-search query embedding in ms: past it the search answers lexically. Default 2,000. */
  queryTimeoutMs?: number;
  /** Retries of a failed request (network error, 429, 5xx), with exponential backoff. Default 2. */
  retries?: number;
  /** Largest answer accepted, in bytes (a wrong or hostile server cannot fill memory). Default 64 MiB. */
  maxResponseBytes?: number;
  /** Where vectors are cached; default `$XDG_CACHE_HOME/toolsearch/embeddings` or `~/.cache/toolsearch/embeddings`. `false`: no disk cache. */
  cacheDir?: string | false;
}

export const EMBEDDING_DEFAULTS = {
  batchSize: 64,
  timeoutMs: 30_000,
  queryTimeoutMs: 2_000,
  retries: 2,
  maxResponseBytes: 64 * 1024 * 1024,
  /** First backoff delay; doubles per retry. */
  backoffMs: 250,
} as const;

/** Upper bounds: a typo must not send 100k texts per request or wait a day. */
export const EMBEDDING_LIMITS = {
  batchSize: 2_048,
  dimensions: 65_536,
  timeoutMs: 600_000,
  retries: 10,
  maxResponseBytes: 1024 * 1024 * 1024,
} as const;

/** Bad embeddings settings, or a server answer that is not an embeddings response. */
export class EmbeddingError extends ToolsearchError {
  override name = 'EmbeddingError';
}

/** Check a config from any source (file, flags, code); throws EmbeddingError naming the field. */
export function validateEmbeddingsConfig(config: EmbeddingsConfig): EmbeddingsConfig {
  const fail = (field: string, why: string): never => {
    throw new EmbeddingError(`embeddings.${field}: ${why}`);
  };
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return fail('url', `not a URL: "${config.url}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('url', 'must be http: or https:');
  if (typeof config.model !== 'string' || config.model.trim() === '')
    fail('model', 'required (the embedding model name)');
  const positiveInt = (
    field: keyof typeof EMBEDDING_LIMITS | 'queryTimeoutMs',
    value: unknown,
    max: number,
    allowZero = false,
  ) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1) || value > max) {
      fail(field, `expected a whole number ${allowZero ? '0' : '1'}–${max}, got ${JSON.stringify(value)}`);
    }
  };
  positiveInt('batchSize', config.batchSize, EMBEDDING_LIMITS.batchSize);
  positiveInt('dimensions', config.dimensions, EMBEDDING_LIMITS.dimensions);
  positiveInt('timeoutMs', config.timeoutMs, EMBEDDING_LIMITS.timeoutMs);
  positiveInt('queryTimeoutMs', config.queryTimeoutMs, EMBEDDING_LIMITS.timeoutMs);
  positiveInt('retries', config.retries, EMBEDDING_LIMITS.retries, true);
  positiveInt('maxResponseBytes', config.maxResponseBytes, EMBEDDING_LIMITS.maxResponseBytes);
  if (config.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(config.apiKeyEnv))
    fail('apiKeyEnv', 'must be an environment variable name, not a key');
  return config;
}

/** The full `/embeddings` endpoint for a base URL or a full one. */
export function embeddingsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/embeddings$/.test(trimmed) ? trimmed : `${trimmed}/embeddings`;
}
