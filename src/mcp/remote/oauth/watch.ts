/**
 * G7 — a running gateway picks up a sign-in made by `toolsearch auth login` in another process:
 * it polls the server's credentials file (a rename-based write is seen as a change of mtime).
 */
import { unwatchFile, watchFile } from 'node:fs';

const POLL_MS = 1_000;

/** Calls `onChange` once, the first time the file changes; returns a function that stops watching. */
export function watchCredentials(path: string, onChange: () => void): () => void {
  const listener = (current: { mtimeMs: number }, previous: { mtimeMs: number }) => {
    if (current.mtimeMs === previous.mtimeMs) return;
    unwatchFile(path, listener);
    onChange();
  };
  watchFile(path, { interval: POLL_MS, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
