/**
 * G9 — the audit log: JSON Lines, one record per tool call, per search (written once it is known
 * whether a call followed it), per sign-in / token refresh and per config reload. To a file with
 * size-based rotation (`FILE`, `FILE.1`, … `FILE.<keep>`), or to stderr (`-`).
 *
 * Arguments are left out unless `arguments: true`, and then values under secret-looking keys are
 * redacted. Memory stays bounded when the disk is slow: past `queue` pending records new ones are
 * dropped and counted, and a `dropped` record says how many once the writer catches up.
 */
import { open, rename, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { McpConfigError } from '../../mcp/errors.js';
import { errorMessage } from '../../util/errors.js';
import { silentLogger, type Logger } from '../../util/log.js';
import type { OperationsEvent, OperationsEvents, SearchEvent } from './events.js';
import { FOLLOW_WINDOW_MS } from './operations.js';

export const AUDIT_STDERR = '-';

/** `toolSearch.audit`: a file name (or "-" for stderr), or the object form. */
export const auditConfigSchema = z.union([
  z.string().min(1),
  z.strictObject({
    file: z.string().min(1),
    /** Record call arguments (values under secret-looking keys are redacted). Default false. */
    arguments: z.boolean().optional(),
    /** Rotate past this many bytes. Default 10 MiB. */
    maxBytes: z.number().int().positive().optional(),
    /** Rotated files kept. Default 5. */
    keep: z.number().int().min(0).max(100).optional(),
    /** Records waiting for the disk at most; more are dropped (and counted). Default 10 000. */
    queue: z.number().int().positive().optional(),
  }),
]);

export interface AuditOptions {
  /** A file path, or "-" for stderr. */
  file: string;
  arguments?: boolean;
  maxBytes?: number;
  keep?: number;
  queue?: number;
  logger?: Logger;
  /** Where "-" writes (tests). Default process.stderr. */
  stderr?: (text: string) => void;
}

export function auditOptions(value: unknown, source: string): AuditOptions {
  const parsed = auditConfigSchema.safeParse(value);
  if (!parsed.success)
    throw new McpConfigError(
      source,
      'toolSearch.audit',
      `${parsed.error.issues[0]?.message ?? 'invalid'} (expected a file name, "-" for stderr, or {"file", "arguments"?, "maxBytes"?, "keep"?, "queue"?})`,
    );
  return typeof parsed.data === 'string' ? { file: parsed.data } : parsed.data;
}

/**
 * Argument names whose values are never written. Beyond the obvious: short forms (`pwd`, `otp`,
 * `pin`), anything ending or starting in `key`, bearer and JWT tokens, identity and card numbers,
 * wallet phrases, and connection strings (`DATABASE_URL`, `dsn`).
 */
const SECRET_KEY =
  /pass|pwd|secret|token|api[-_]?key|apikey|^key|key$|auth|credential|cookie|signature|private|session|jwt|bearer|otp|(^|[-_])pin$|^pin|ssn|card|cvv|mnemonic|seed[-_]?phrase|dsn|database[-_]?url|conn(ection)?[-_]?str/i;
/** `scheme://user:password@host`: the password part of a URL or DSN in any value. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi;
const RESULTS_KEPT = 5;
/** Searches held waiting for a call to follow them (one per session); the oldest is written first past it. */
const MAX_PENDING_SEARCHES = 1_000;
const MAX_ARGUMENT_CHARS = 16_384;

/** A copy with values under secret-looking keys replaced, at any depth (cycles and depth cut). */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (typeof value === 'string') return value.replace(URL_PASSWORD, '$1[redacted]@');
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value))
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : redactSecrets(v, depth + 1);
  return out;
}

export class AuditLog {
  private readonly queue: string[] = [];
  private readonly limit: number;
  private dropped = 0;
  private droppedTotal = 0;
  private writing: Promise<void> | undefined;
  private handle: FileHandle | undefined;
  private size = 0;
  /** Searches waiting to learn whether a call follows, by session. */
  private readonly pendingSearches = new Map<string, SearchEvent>();
  private readonly unsubscribe: () => void;
  private readonly sweeper: NodeJS.Timeout;
  private readonly logger: Logger;

  constructor(
    events: OperationsEvents,
    private readonly options: AuditOptions,
  ) {
    this.limit = options.queue ?? 10_000;
    this.logger = options.logger ?? silentLogger;
    this.unsubscribe = events.subscribe((event) => this.record(event));
    this.sweeper = setInterval(() => this.settleSearches(Date.now() - FOLLOW_WINDOW_MS), 60_000).unref();
  }

  /** Records dropped because the disk could not keep up, not yet noted in the log. */
  get droppedRecords(): number {
    return this.dropped;
  }

  /** Records dropped since start (the `toolsearch_audit_dropped_records_total` metric). */
  get droppedSinceStart(): number {
    return this.droppedTotal;
  }

  /** Write what is pending (searches included, as not followed) and wait for the disk. */
  async flush(): Promise<void> {
    this.settleSearches(Number.POSITIVE_INFINITY);
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    clearInterval(this.sweeper);
    await this.flush();
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  private record(event: OperationsEvent): void {
    switch (event.type) {
      case 'tool-call': {
        const args = this.options.arguments === true ? JSON.stringify(redactSecrets(event.arguments)) : undefined;
        this.write({
          time: new Date(event.time).toISOString(),
          type: 'call',
          session: event.sessionId,
          client: event.client,
          profile: event.profile,
          server: event.server,
          tool: event.tool,
          durationMs: Math.round(event.durationMs * 10) / 10,
          outcome: event.outcome,
          resultBytes: event.resultBytes,
          followedSearch: event.followedSearch,
          ...(args !== undefined && {
            arguments: args.length <= MAX_ARGUMENT_CHARS ? JSON.parse(args) : `[${args.length} characters, not kept]`,
          }),
        });
        return;
      }
      case 'search': {
        const previous = this.pendingSearches.get(event.sessionId);
        if (previous) this.writeSearch(previous, undefined);
        this.pendingSearches.set(event.sessionId, event);
        // G5: each 2026-07-28 search has a session of its own; the oldest held is written (not
        // followed) past the bound, so a flood of them cannot grow memory for the follow window.
        if (this.pendingSearches.size > MAX_PENDING_SEARCHES) {
          const [oldest, search] = this.pendingSearches.entries().next().value!;
          this.pendingSearches.delete(oldest);
          this.writeSearch(search, undefined);
        }
        return;
      }
      case 'search-followed': {
        const search = this.pendingSearches.get(event.sessionId);
        if (search?.id !== event.id) return;
        this.pendingSearches.delete(event.sessionId);
        this.writeSearch(search, event.tool);
        return;
      }
      case 'session': {
        const search = event.change === 'closed' ? this.pendingSearches.get(event.sessionId) : undefined;
        if (search) {
          this.pendingSearches.delete(event.sessionId);
          this.writeSearch(search, undefined);
        }
        return;
      }
      case 'sign-in':
      case 'oauth-refresh':
      case 'reload':
      case 'trust':
        this.write({ time: new Date().toISOString(), ...event });
        return;
      case 'request':
        return;
    }
  }

  private settleSearches(before: number): void {
    for (const [sessionId, search] of this.pendingSearches) {
      if (search.time > before) continue;
      this.pendingSearches.delete(sessionId);
      this.writeSearch(search, undefined);
    }
  }

  private writeSearch(search: SearchEvent, calledTool: string | undefined): void {
    this.write({
      time: new Date(search.time).toISOString(),
      type: 'search',
      id: search.id,
      session: search.sessionId,
      client: search.client,
      profile: search.profile,
      query: search.query,
      results: search.matches.slice(0, RESULTS_KEPT),
      resultCount: search.matches.length,
      lowConfidence: search.lowConfidence,
      durationMs: Math.round(search.durationMs * 10) / 10,
      followed: calledTool !== undefined,
      ...(calledTool !== undefined && { calledTool }),
    });
  }

  private write(record: Record<string, unknown>): void {
    if (this.queue.length >= this.limit) {
      this.dropped++;
      this.droppedTotal++;
      return;
    }
    this.queue.push(`${JSON.stringify(record)}\n`);
    this.writing ??= this.drain().finally(() => {
      this.writing = undefined;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const chunk = this.queue.splice(0, this.queue.length).join('');
      const dropped = this.dropped;
      this.dropped = 0;
      const note =
        dropped > 0 ? `${JSON.stringify({ time: new Date().toISOString(), type: 'dropped', records: dropped })}\n` : '';
      try {
        await this.append(note + chunk);
      } catch (error) {
        this.logger.warn(`audit log ${this.options.file}: ${errorMessage(error)}`);
      }
    }
  }

  private async append(text: string): Promise<void> {
    if (this.options.file === AUDIT_STDERR) {
      (this.options.stderr ?? ((t: string) => process.stderr.write(t)))(text);
      return;
    }
    const bytes = Buffer.byteLength(text);
    if (this.handle && this.size + bytes > (this.options.maxBytes ?? 10 * 2 ** 20) && this.size > 0)
      await this.rotate();
    if (!this.handle) {
      this.handle = await open(this.options.file, 'a', 0o600);
      this.size = (await this.handle.stat()).size;
    }
    await this.handle.write(text);
    this.size += bytes;
  }

  /** FILE → FILE.1 → … → FILE.<keep>; the oldest falls off. */
  private async rotate(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    const keep = this.options.keep ?? 5;
    const file = this.options.file;
    for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(() => undefined);
    if (keep > 0) await rename(file, `${file}.1`);
    else await open(file, 'w').then((h) => h.close());
  }
}
