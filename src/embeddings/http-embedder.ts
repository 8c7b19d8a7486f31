/**
 * C10 — the OpenAI embeddings protocol over HTTP: `POST {url}/embeddings` with
 * `{model, input: string[], encoding_format: "float", dimensions?}`, answer
 * `{data: [{index, embedding: number[]}]}`. Batched, with a timeout per request and retries with
 * exponential backoff on network errors, 429 and 5xx. Every answer is checked (count, order,
 * numbers, dimensions) before a vector is used.
 */
import type { Embedder } from '../search/ranker.js';
import {
  EMBEDDING_DEFAULTS,
  EmbeddingError,
  embeddingsEndpoint,
  validateEmbeddingsConfig,
  type EmbeddingsConfig,
} from '../core/embeddings-config.js';
import { readCappedBody } from '../util/capped-body.js';

export interface HttpEmbedderOptions {
  /** Environment to read `apiKeyEnv` from (tests); `process.env` by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Sleep between retries (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

/** A failure worth retrying: the server may answer next time. */
class RetryableError extends EmbeddingError {
  override name = 'EmbeddingError';
}

export class HttpEmbedder implements Embedder {
  readonly endpoint: string;
  private readonly config: EmbeddingsConfig;
  private readonly apiKey: string | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Requests sent (each batch and retry counts once): for logs and tests. */
  requests = 0;

  constructor(config: EmbeddingsConfig, options: HttpEmbedderOptions = {}) {
    this.config = validateEmbeddingsConfig(config);
    this.endpoint = embeddingsEndpoint(config.url);
    const env = options.env ?? process.env;
    if (config.apiKeyEnv !== undefined) {
      this.apiKey = env[config.apiKeyEnv];
      if (!this.apiKey)
        throw new EmbeddingError(`embeddings.apiKeyEnv: the environment variable ${config.apiKeyEnv} is not set`);
    }
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  get model(): string {
    return this.config.model;
  }

  get batchSize(): number {
    return this.config.batchSize ?? EMBEDDING_DEFAULTS.batchSize;
  }

  /** Embed tool texts: batches of `batchSize`, sequentially (one request at a time per server). */
  async embed(texts: string[]): Promise<number[][]> {
    return this.embedBatches(texts, this.config.timeoutMs ?? EMBEDDING_DEFAULTS.timeoutMs);
  }

  /** One query text with the short query timeout and no retries: a search must not wait long. */
  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.request([text], this.config.queryTimeoutMs ?? EMBEDDING_DEFAULTS.queryTimeoutMs);
    return vector!;
  }

  async embedBatches(texts: readonly string[], timeoutMs: number): Promise<number[][]> {
    const size = this.batchSize;
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += size)
      out.push(...(await this.withRetries(texts.slice(i, i + size), timeoutMs)));
    return out;
  }

  private async withRetries(batch: string[], timeoutMs: number): Promise<number[][]> {
    const retries = this.config.retries ?? EMBEDDING_DEFAULTS.retries;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request(batch, timeoutMs);
      } catch (error) {
        if (!(error instanceof RetryableError) || attempt >= retries) throw error;
        await this.sleep(EMBEDDING_DEFAULTS.backoffMs * 2 ** attempt);
      }
    }
  }

  private async request(batch: string[], timeoutMs: number): Promise<number[][]> {
    this.requests++;
    const body = {
      model: this.config.model,
      input: batch,
      encoding_format: 'float',
      ...(this.config.dimensions !== undefined && { dimensions: this.config.dimensions }),
    };
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.apiKey !== undefined && { authorization: `Bearer ${this.apiKey}` }),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : describeFetchError(error);
      throw new RetryableError(`${this.endpoint}: ${reason}`);
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      const message = `${this.endpoint}: HTTP ${response.status}${detail ? ` (${detail})` : ''}`;
      if (response.status === 429 || response.status >= 500) throw new RetryableError(message);
      throw new EmbeddingError(message);
    }
    const text = await this.readCapped(response);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new EmbeddingError(`${this.endpoint}: the answer is not JSON`);
    }
    return this.vectorsOf(json, batch.length);
  }

  /** The body as text, refused past `maxResponseBytes` (the stream is cancelled, nothing more is read). */
  private async readCapped(response: Response): Promise<string> {
    const max = this.config.maxResponseBytes ?? EMBEDDING_DEFAULTS.maxResponseBytes;
    const tooLarge = () =>
      new EmbeddingError(`${this.endpoint}: answer larger than ${max} bytes (embeddings.maxResponseBytes)`);
    const body = await readCappedBody(response, max);
    if (body === undefined) throw tooLarge();
    return Buffer.from(body).toString('utf8');
  }

  /** The vectors of an answer, in input order, after checking every one. */
  private vectorsOf(json: unknown, expected: number): number[][] {
    const data = (json as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length !== expected) {
      throw new EmbeddingError(
        `${this.endpoint}: expected ${expected} embeddings in "data", got ${Array.isArray(data) ? data.length : 'none'}`,
      );
    }
    const out: number[][] = new Array(expected);
    data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
      const index = typeof item?.index === 'number' ? item.index : position;
      const vector = item?.embedding;
      if (!Number.isInteger(index) || index < 0 || index >= expected || out[index])
        throw new EmbeddingError(`${this.endpoint}: bad or repeated index ${String(index)}`);
      if (
        !Array.isArray(vector) ||
        vector.length === 0 ||
        !vector.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw new EmbeddingError(
          `${this.endpoint}: embedding ${index} is not a list of numbers (is encoding_format "float" supported?)`,
        );
      }
      out[index] = vector as number[];
    });
    const want = this.config.dimensions ?? out[0]!.length;
    for (const v of out) {
      if (v.length !== want) {
        throw new EmbeddingError(
          `${this.endpoint}: model "${this.config.model}" returned ${v.length}-dimensional vectors, expected ${want} (check embeddings.dimensions)`,
        );
      }
    }
    return out;
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
