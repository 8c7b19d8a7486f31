/**
 * G13 — is a package runner's install moving? npx prints nothing while it installs (`-y`, no
 * terminal), so its output alone cannot tell a slow install from a stuck one; its cache folder
 * can: every download passes through `_cacache/tmp`, every package lands in
 * `_npx/<hash>/node_modules`. A folder's modification time changes when an entry is added or
 * removed in it, so a cheap look at the cache's top levels shows progress without reading file
 * contents.
 *
 * One sampler per cache folder, shared by every server that installs into it (thirteen npx servers
 * starting at once share `~/.npm`), stopped when the last of them stops watching.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Levels below the cache folder that are looked at (`_npx/<hash>/node_modules` is level 3). */
const DEPTH = 3;
/** Folders looked at per sample at most: a large cache is sampled partly, never walked whole. */
const MAX_FOLDERS = 2_000;

/**
 * What a folder's top levels look like now: the folders seen, their entries and the newest
 * modification time. Any install step changes it; a stuck install leaves it alone.
 */
export async function cacheFingerprint(root: string): Promise<string> {
  let folders = 0;
  let entries = 0;
  let newest = 0;
  let level = [root];
  for (let depth = 0; depth <= DEPTH && level.length > 0 && folders < MAX_FOLDERS; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (folders >= MAX_FOLDERS) break;
      folders++;
      const seen = await look(folder);
      if (!seen) continue;
      entries += seen.children.length;
      newest = Math.max(newest, seen.mtimeMs);
      if (depth < DEPTH)
        for (const child of seen.children) if (child.isDirectory()) next.push(join(folder, child.name));
    }
    level = next;
  }
  return entries === 0 && newest === 0 ? 'missing' : `${folders}:${entries}:${newest}`;
}

async function look(folder: string): Promise<{ mtimeMs: number; children: Dirent[] } | undefined> {
  try {
    const [info, children] = await Promise.all([stat(folder), readdir(folder, { withFileTypes: true })]);
    return { mtimeMs: info.mtimeMs, children };
  } catch {
    return undefined; // not there (yet), or gone meanwhile
  }
}

/** A watcher's view: how many changes the folder has shown since sampling started. */
export interface CacheWatch {
  /** Increments each time a sample differs from the one before. */
  readonly changes: number;
  stop(): void;
}

interface Sampler {
  fingerprint: string | undefined;
  changes: number;
  watchers: number;
  intervalMs: number;
  timer: NodeJS.Timeout | undefined;
  busy: boolean;
}

const samplers = new Map<string, Sampler>();

/** Watch `folder`, sampled every `intervalMs` (the shortest interval any watcher of it asked for). */
export function watchCacheFolder(folder: string, intervalMs: number): CacheWatch {
  let sampler = samplers.get(folder);
  if (!sampler) {
    sampler = { fingerprint: undefined, changes: 0, watchers: 0, intervalMs, timer: undefined, busy: false };
    samplers.set(folder, sampler);
  }
  sampler.watchers++;
  if (sampler.timer === undefined || intervalMs < sampler.intervalMs) schedule(folder, sampler, intervalMs);
  const own = sampler;
  let stopped = false;
  return {
    get changes() {
      return own.changes;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      own.watchers--;
      if (own.watchers > 0) return;
      clearInterval(own.timer);
      samplers.delete(folder);
    },
  };
}

function schedule(folder: string, sampler: Sampler, intervalMs: number): void {
  clearInterval(sampler.timer);
  sampler.intervalMs = intervalMs;
  const sample = () => {
    if (sampler.busy) return;
    sampler.busy = true;
    void cacheFingerprint(folder)
      .then((fingerprint) => {
        if (sampler.fingerprint !== undefined && fingerprint !== sampler.fingerprint) sampler.changes++;
        sampler.fingerprint = fingerprint;
      })
      .finally(() => (sampler.busy = false));
  };
  sample();
  sampler.timer = setInterval(sample, intervalMs);
  sampler.timer.unref();
}
