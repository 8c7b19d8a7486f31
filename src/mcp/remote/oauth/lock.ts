/**
 * G7 — one token refresh at a time per server: an in-process queue, and a lock file beside the
 * credentials for other processes (a second gateway, `toolsearch auth`) sharing the same state
 * directory. A rotating refresh token used twice is revoked by most servers; serialized, the
 * second caller finds the new token already saved and uses it.
 */
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** A lock file older than this is left over from a process that died holding it. */
const STALE_MS = 30_000;
const POLL_MS = 50;

const queues = new Map<string, Promise<unknown>>();

export async function withRefreshLock<T>(lockPath: string, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(lockPath) ?? Promise.resolve();
  const mine = previous.catch(() => undefined).then(() => withFileLock(lockPath, run));
  queues.set(lockPath, mine);
  try {
    return await mine;
  } finally {
    if (queues.get(lockPath) === mine) queues.delete(lockPath);
  }
}

async function withFileLock<T>(lockPath: string, run: () => Promise<T>): Promise<T> {
  await acquire(lockPath);
  try {
    return await run();
  } finally {
    await rm(lockPath, { force: true });
  }
}

async function acquire(lockPath: string): Promise<void> {
  const deadline = Date.now() + STALE_MS * 2;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
        continue;
      }
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if ((await isStale(lockPath)) || Date.now() > deadline) {
      await rm(lockPath, { force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const info = await stat(lockPath);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const pid = Number((await readFile(lockPath, 'utf8')).trim());
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false;
  }
}
