/**
 * C10 — tool vectors from an embedding server, built in the background. A search never waits for
 * them: until every deferred tool has a vector, searches are lexical. Vectors come from the disk
 * cache first (keyed by model + text hash), so after a restart nothing is re-embedded and a
 * changed tool re-embeds only itself. When the server is down or wrong, the failure is logged
 * once, searches stay lexical, and the server is tried again after a cool-down.
 */
import type { ToolSpec } from '../core/tool.js';
import { toolEmbeddingText } from '../search/fusion.js';
import type { SearchVectors } from '../search/searcher.js';
import { VectorCache, defaultCacheDir, textHash } from './cache.js';
import type { EmbeddingsConfig } from '../core/embeddings-config.js';
import { HttpEmbedder, type HttpEmbedderOptions } from './http-embedder.js';
import { errorMessage } from '../util/errors.js';
import { plural } from '../core/plural.js';

export interface EmbeddingLogger {
  warn(message: string): void;
  info(message: string): void;
}

export interface EmbeddingServiceOptions extends HttpEmbedderOptions {
  logger?: EmbeddingLogger;
  /** After a failure, the server is left alone this long (searches are lexical meanwhile). Default 30 s. */
  coolDownMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

export type EmbeddingState = 'idle' | 'embedding' | 'ready' | 'down';

export interface EmbeddingStatus {
  state: EmbeddingState;
  /** Vectors known (cache + this run). */
  vectors: number;
  /** Texts sent to the server by this process. */
  embedded: number;
  /** The last failure, while the server is considered down. */
  error?: string;
}

const silent: EmbeddingLogger = { warn: () => {}, info: () => {} };

export class EmbeddingService {
  readonly embedder: HttpEmbedder;
  private readonly cache: VectorCache;
  private readonly logger: EmbeddingLogger;
  private readonly coolDownMs: number;
  private readonly now: () => number;
  /** Text hash per tool object (specs are immutable: a changed tool is a new object). */
  private readonly hashes = new WeakMap<ToolSpec, string>();
  private job: Promise<void> | undefined;
  private downSince: number | undefined;
  private lastError: string | undefined;
  private embedded = 0;

  constructor(config: EmbeddingsConfig, options: EmbeddingServiceOptions = {}) {
    this.embedder = new HttpEmbedder(config, options);
    this.logger = options.logger ?? silent;
    this.coolDownMs = options.coolDownMs ?? 30_000;
    this.now = options.now ?? Date.now;
    const dir = config.cacheDir === false ? undefined : (config.cacheDir ?? defaultCacheDir(options.env));
    this.cache = new VectorCache(
      dir,
      {
        endpoint: this.embedder.endpoint,
        model: config.model,
        ...(config.dimensions !== undefined && { dimensions: config.dimensions }),
      },
      (m) => this.logger.warn(m),
    );
  }

  status(): EmbeddingStatus {
    const state: EmbeddingState = this.isDown()
      ? 'down'
      : this.job
        ? 'embedding'
        : this.cache.size > 0
          ? 'ready'
          : 'idle';
    return {
      state,
      vectors: this.cache.size,
      embedded: this.embedded,
      ...(this.lastError !== undefined && { error: this.lastError }),
    };
  }

  /** The vector of a tool, if known. */
  toolVector(tool: ToolSpec): number[] | undefined {
    return this.cache.get(this.hashOf(tool));
  }

  /**
   * True when every tool has a vector. Otherwise starts (at most one) background job for the
   * missing ones and returns false at once.
   */
  ensure(tools: readonly ToolSpec[]): boolean {
    const missing = this.missing(tools);
    if (missing.length === 0) return true;
    if (!this.job && !this.isDown()) {
      this.job = this.embedMissing(missing).finally(() => {
        this.job = undefined;
      });
    }
    return false;
  }

  /** Wait until every tool has a vector or the server failed (CLI, tests). True when ready. */
  async ready(tools: readonly ToolSpec[]): Promise<boolean> {
    for (;;) {
      if (this.ensure(tools)) return true;
      if (!this.job) return false; // down: nothing running
      await this.job;
    }
  }

  /** The query vector, or undefined (lexical search) when the server is down, slow or wrong. */
  async queryVector(text: string): Promise<number[] | undefined> {
    if (this.isDown()) return undefined;
    try {
      const vector = await this.embedder.embedQuery(text);
      this.recovered();
      return vector;
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  /** What `ToolSearcher.search` takes as `vectors`, or undefined while tool vectors are not all ready. */
  async searchVectors(tools: readonly ToolSpec[], query: string): Promise<SearchVectors | undefined> {
    if (!this.ensure(tools)) return undefined;
    const vector = await this.queryVector(query);
    return vector ? { query: vector, tool: (tool) => this.toolVector(tool) } : undefined;
  }

  private missing(tools: readonly ToolSpec[]): ToolSpec[] {
    const out: ToolSpec[] = [];
    for (const tool of tools) if (this.cache.get(this.hashOf(tool)) === undefined) out.push(tool);
    return out;
  }

  private async embedMissing(tools: readonly ToolSpec[]): Promise<void> {
    const byHash = new Map<string, string>();
    for (const tool of tools) byHash.set(this.hashOf(tool), toolEmbeddingText(tool));
    const hashes = [...byHash.keys()];
    this.logger.info(
      `embedding ${plural(hashes.length, 'tool text')} with "${this.embedder.model}" at ${this.embedder.endpoint}`,
    );
    try {
      const size = this.embedder.batchSize;
      // Batch by batch into the cache, so a failure half-way keeps what was done.
      for (let i = 0; i < hashes.length; i += size) {
        const part = hashes.slice(i, i + size);
        const vectors = await this.embedder.embed(part.map((h) => byHash.get(h)!));
        this.cache.putMany(part.map((h, j) => [h, vectors[j]!] as const));
        this.embedded += part.length;
      }
      this.recovered();
    } catch (error) {
      this.failed(error);
    }
  }

  private hashOf(tool: ToolSpec): string {
    let hash = this.hashes.get(tool);
    if (hash === undefined) this.hashes.set(tool, (hash = textHash(toolEmbeddingText(tool))));
    return hash;
  }

  private isDown(): boolean {
    return this.downSince !== undefined && this.now() - this.downSince < this.coolDownMs;
  }

  /** Logged once per outage, not once per search. */
  private failed(error: unknown): void {
    const message = errorMessage(error);
    if (this.lastError === undefined)
      this.logger.warn(`embedding server unavailable, searching lexically meanwhile: ${message}`);
    this.lastError = message;
    this.downSince = this.now();
  }

  private recovered(): void {
    if (this.lastError !== undefined) this.logger.info('embedding server answers again; searches use embeddings');
    this.lastError = undefined;
    this.downSince = undefined;
  }
}
