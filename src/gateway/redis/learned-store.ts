/**
 * C13 with G6 — learned search shared by replicas: every change a replica makes (a search that led
 * to a call, a forget) is one entry of a Redis stream, and every replica reads the entries it has
 * not seen yet at each exchange (its own are skipped: already applied). Appends are atomic in
 * Redis, so concurrent recordings on any number of replicas are all kept; the stream is trimmed to
 * the last `maxOps` changes (what a replica that starts later can still read).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { LearnedPersistence } from '../../usage/file-store.js';
import type { LearnedLog } from '../../search/learned/log.js';
import { applyLearnedOp, type LearnedOp, parseLearnedOp } from '../../search/learned/ops.js';

/** The stream commands used here (ioredis' signatures, narrowed). */
export interface RedisStreamClient {
  xadd(key: string, ...args: (string | number)[]): Promise<string | null>;
  xrange(key: string, start: string, end: string, countToken: 'COUNT', count: number): Promise<[string, string[]][]>;
}

export interface RedisLearnedStoreOptions {
  readonly client: RedisStreamClient;
  /** The stream's key. */
  readonly key: string;
  /** Changes kept in the stream (approximately: Redis trims whole nodes). */
  readonly maxOps: number;
  /** `redis://host:port/db`, no credentials. */
  readonly display: string;
}

/** Entries read per request while catching up. */
const PAGE = 1_000;

export class RedisLearnedStore implements LearnedPersistence {
  readonly display: string;
  /** Tells this process's entries from others'. */
  private readonly writer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** The last stream id applied; undefined before the first read (read from the start). */
  private after: string | undefined;

  constructor(private readonly options: RedisLearnedStoreOptions) {
    this.display = `${options.display} (${options.key})`;
  }

  async sync(log: LearnedLog, pending: readonly LearnedOp[]): Promise<void> {
    const { client, key, maxOps } = this.options;
    // Sent together (ioredis writes them without waiting for each reply).
    await Promise.all(
      pending.map((op) => client.xadd(key, 'MAXLEN', '~', maxOps, '*', 'w', this.writer, 'o', JSON.stringify(op))),
    );
    for (;;) {
      const page = await client.xrange(key, this.after === undefined ? '-' : `(${this.after}`, '+', 'COUNT', PAGE);
      for (const [id, fields] of page) {
        this.after = id;
        const op = this.othersOp(fields);
        if (op) applyLearnedOp(log, op);
      }
      if (page.length < PAGE) return;
    }
  }

  /** An entry written by another process, read as an op; undefined for ours and for garbage. */
  private othersOp(fields: readonly string[]): LearnedOp | undefined {
    const value = (name: string) => {
      const at = fields.indexOf(name);
      return at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
    };
    if (value('w') === this.writer) return undefined;
    try {
      return parseLearnedOp(JSON.parse(value('o') ?? ''));
    } catch {
      return undefined;
    }
  }
}
