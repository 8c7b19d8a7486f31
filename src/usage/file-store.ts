/**
 * C13 — the learned log on disk: one JSON file, replaced atomically (written to a temporary file
 * in the same directory, then renamed over the old one), so a crash mid-write leaves the previous
 * file whole. A file that cannot be read as a learned log is ignored with one warning and
 * rewritten at the next save. When the file changed since this process last read or wrote it
 * (`toolsearch learned forget` while a gateway runs), the file's log is taken and this process's
 * unsaved changes are applied on top, so neither side's changes are lost.
 */
import { readFileSync, statSync } from 'node:fs';
import { LearnedLog, type LearnedLogLimits } from '../search/learned/log.js';
import { applyLearnedOp, type LearnedOp } from '../search/learned/ops.js';
import { writeStateFileSync } from '../mcp/state-dir.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';

/** Where a learner keeps its log, shared with whoever else uses the same store. */
export interface LearnedPersistence {
  /**
   * Write `pending` (changes already applied to `log`) and bring `log` up to date with what
   * others wrote since. A synchronous store has finished when this returns.
   */
  sync(log: LearnedLog, pending: readonly LearnedOp[]): void | Promise<void>;
  /** Where, for messages (no credentials). */
  readonly display: string;
}

export class LearnedFileStore implements LearnedPersistence {
  /** The file's identity when this process last read or wrote it. */
  private seen: string | undefined;

  constructor(
    readonly path: string,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  load(limits?: LearnedLogLimits): LearnedLog {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.logger?.warn(`learned search: cannot read ${this.path} (${errorMessage(error)}); starting empty`);
      return new LearnedLog(limits);
    }
    try {
      return LearnedLog.fromJSON(JSON.parse(text), limits);
    } catch (error) {
      this.logger?.warn(
        `learned search: ignoring ${this.path} (${errorMessage(error)}); it will be rebuilt from new searches`,
      );
      return new LearnedLog(limits);
    }
  }

  get display(): string {
    return this.path;
  }

  sync(log: LearnedLog, pending: readonly LearnedOp[]): void {
    const now = fileIdentity(this.path);
    if (now !== this.seen) {
      const fresh = this.load(log.limits);
      for (const op of pending) applyLearnedOp(fresh, op);
      log.replaceWith(fresh);
      this.seen = now;
    }
    if (pending.length > 0) this.save(log);
  }

  save(log: LearnedLog): void {
    writeStateFileSync(this.path, JSON.stringify(log.toJSON()));
    this.seen = fileIdentity(this.path);
  }
}

/** Inode, size and modification time: changes whenever another process replaces the file. */
function fileIdentity(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'absent';
  }
}
