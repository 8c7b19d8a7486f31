/**
 * C13 — the learned log on disk: one JSON file, replaced atomically (written to a temporary file
 * in the same directory, then renamed over the old one), so a crash mid-write leaves the previous
 * file whole. A file that cannot be read as a learned log is ignored with one warning and
 * rewritten at the next save. Saves are debounced: a burst of recordings is one write.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { LearnedLog, type LearnedLogLimits } from '../search/learning/log.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';

export interface LearnedPersistence {
  /** The log as stored (empty when there is none or it is unreadable). */
  load(limits?: LearnedLogLimits): LearnedLog;
  save(log: LearnedLog): void;
}

export class LearnedFileStore implements LearnedPersistence {
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

  save(log: LearnedLog): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      writeFileSync(temporary, JSON.stringify(log.toJSON()), { mode: 0o600 });
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}
