/**
 * C10 — the embedding-server flags shared by `serve` and `search`. Flags win over the config's
 * `toolSearch.embeddings`; `--embeddings-url` and `--embeddings-model` go together.
 */
import { type Command, InvalidArgumentError } from 'commander';
import type { EmbeddingsConfig } from '../core/embeddings-config.js';
import { parsePositiveInt } from './options.js';

export interface EmbeddingsFlags {
  embeddingsUrl?: string;
  embeddingsModel?: string;
  embeddingsApiKeyEnv?: string;
  embeddingsDimensions?: number;
  embeddingsBatchSize?: number;
}

export function addEmbeddingsOptions(command: Command): Command {
  return command
    .option(
      '--embeddings-url <url>',
      'OpenAI-compatible embeddings endpoint, e.g. http://localhost:11434/v1 (Ollama); fused with the lexical ranking',
    )
    .option('--embeddings-model <name>', 'embedding model name (required with --embeddings-url)')
    .option('--embeddings-api-key-env <VAR>', 'environment variable holding the API key (sent as a Bearer token)')
    .option('--embeddings-dimensions <n>', 'vector size to request and check', parsePositiveInt)
    .option('--embeddings-batch-size <n>', 'texts per request (default 64)', parsePositiveInt);
}

/** The config the flags describe, or undefined when no embeddings flag was given. */
export function embeddingsFromFlags(flags: EmbeddingsFlags): EmbeddingsConfig | undefined {
  if (flags.embeddingsUrl === undefined && flags.embeddingsModel === undefined) return undefined;
  if (flags.embeddingsUrl === undefined || flags.embeddingsModel === undefined) {
    throw new InvalidArgumentError('--embeddings-url and --embeddings-model go together');
  }
  return {
    url: flags.embeddingsUrl,
    model: flags.embeddingsModel,
    ...(flags.embeddingsApiKeyEnv !== undefined && { apiKeyEnv: flags.embeddingsApiKeyEnv }),
    ...(flags.embeddingsDimensions !== undefined && { dimensions: flags.embeddingsDimensions }),
    ...(flags.embeddingsBatchSize !== undefined && { batchSize: flags.embeddingsBatchSize }),
  };
}
