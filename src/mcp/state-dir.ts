/**
 * G7 — where toolsearch keeps what it learns about servers and the credentials it holds for
 * them: `$TOOLSEARCH_STATE_DIR`, else `$XDG_STATE_HOME/toolsearch`, else
 * `~/.local/state/toolsearch`. Never beside the config (a config is copied around and committed;
 * tokens must not travel with it).
 *
 * Files are written owner-only (0600, directory 0700) through a rename, so a reader in another
 * process sees the old file or the new one, never half of one.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env['TOOLSEARCH_STATE_DIR']) return env['TOOLSEARCH_STATE_DIR'];
  const base = env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state');
  return join(base, 'toolsearch');
}

/** Parsed JSON of a state file; undefined when it is missing or unreadable (treated as empty). */
export async function readStateFile<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

let writes = 0;

/** A temporary file beside `path` (same directory, so the rename is atomic), unique in this process. */
function temporaryFor(path: string): string {
  return `${path}.${process.pid}.${++writes}.tmp`;
}

/**
 * Write JSON owner-only, atomically (temp file in the same directory, then rename). Returns the
 * written file's stamp (`fileStamp`): while the path still has it, the file is this write.
 */
export async function writeStateFile(path: string, value: unknown): Promise<string> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = temporaryFor(path);
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile is masked by the umask; make sure.
  await chmod(temp, 0o600);
  const stamp = await fileStamp(temp);
  await rename(temp, path);
  return stamp!;
}

/**
 * What tells one version of a file from another without reading it: its inode (every write
 * through a rename makes a new one), size and modification time. Undefined when it is missing.
 */
export async function fileStamp(path: string): Promise<string | undefined> {
  try {
    const { ino, size, mtimeMs } = await stat(path);
    return `${ino}:${size}:${mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * `text` written the same way (owner-only, temp file then rename), synchronously: for a store
 * that must have written when it returns. A failed write leaves no temporary file behind.
 */
export function writeStateFileSync(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = temporaryFor(path);
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
