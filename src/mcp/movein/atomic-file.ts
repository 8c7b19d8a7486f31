/**
 * G13 — writing a config file that a running gateway (or a client) reads at any moment, and that
 * another program may be writing too.
 *
 * - Never half a file: the new text goes to a temporary file beside the target (same directory,
 *   so the rename is atomic), is flushed to disk, and is renamed over the target. A reader sees
 *   the old file or the new one. The gateway's reloader watches the directory for the target's
 *   name only, so the temporary file never triggers a reload.
 * - Never over someone else's change: the caller says what the file held when it read it
 *   (`expected`, undefined for "did not exist"). Just before the rename the file is read again;
 *   if it changed, the temporary file is removed and `ConcurrentChangeError` is thrown, leaving
 *   the other program's file whole.
 * - A symbolic link is followed: the file it points to is replaced, the link stays.
 * - The mode of the file is kept; a new file is owner-only (0600: it may hold secrets).
 */
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, constants, mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readConfigText } from '../config-file.js';
import { ConcurrentChangeError } from './errors.js';

/** What a file held when it was read: its text, or undefined when it did not exist. */
export interface FileSnapshot {
  /** The path to write: the link's target for a symbolic link. */
  readonly path: string;
  readonly text: string | undefined;
}

/** Read a file for a later `replaceFile` (missing: text undefined). Bounded and regular files only (config-file.ts). */
export async function readSnapshot(path: string, maxBytes?: number): Promise<FileSnapshot> {
  const target = await realpath(path).catch(() => path);
  try {
    return { path: target, text: await readConfigText(target, maxBytes) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: target, text: undefined };
    throw error;
  }
}

/** The text now at `path`, undefined when there is no file. */
async function currentText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Replace the file of `snapshot` with `text`, atomically, unless it changed since the snapshot
 * (then `ConcurrentChangeError`, nothing written). Creates missing directories (owner-only).
 */
export async function replaceFile(snapshot: FileSnapshot, text: string, attempt = 1): Promise<void> {
  const { path } = snapshot;
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const mode = snapshot.text === undefined ? 0o600 : (await stat(path).catch(() => undefined))?.mode;
  const temporary = join(dir, `.${basename(path)}.toolsearch-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(temporary, mode & 0o7777);
    if ((await currentText(path)) !== snapshot.text) throw new ConcurrentChangeError(path, attempt);
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * `<file>.toolsearch-backup-20261130T101500Z`: beside the file, sortable, and no character a file
 * system refuses.
 */
export function backupPath(path: string, at: Date): string {
  return `${path}.toolsearch-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/**
 * Copy the file beside itself as `<file>.toolsearch-backup-<stamp>` (never over an existing one),
 * byte for byte and with its mode; the copy must still hold what the snapshot read, or the file
 * changed meanwhile (`ConcurrentChangeError`, the copy removed). Returns the backup's path.
 */
export async function backupFile(snapshot: FileSnapshot, at: Date = new Date()): Promise<string> {
  const backup = backupPath(snapshot.path, at);
  await copyFile(snapshot.path, backup, constants.COPYFILE_EXCL);
  try {
    await chmod(backup, (await stat(snapshot.path)).mode & 0o7777);
    if ((await readFile(backup, 'utf8')) !== snapshot.text) throw new ConcurrentChangeError(snapshot.path, 1);
  } catch (error) {
    await unlink(backup).catch(() => undefined);
    throw error;
  }
  return backup;
}
