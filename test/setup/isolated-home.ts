/**
 * G7 for a whole test run (vitest globalSetup): the tests get a home of their own, and the run
 * fails if the user's own toolsearch state or cache changed while it ran.
 *
 * Test workers inherit this process's environment, and every process a test spawns inherits
 * HOME from there (the SDK's stdio transport passes HOME on even when it passes little else), so
 * pointing HOME and the XDG directories at a per-run temp dir keeps anything that falls back to
 * `~` (a gateway spawned without its own state directory, a browser's profile) out of the user's
 * home. The fixtures still give each spawned gateway its own directory (test/fixtures/state.ts);
 * this is the net under them.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { defaultCacheDir } from '../../src/embeddings/cache.js';
import { defaultStateDir } from '../../src/mcp/state-dir.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The user's home before the run replaced HOME: what the tests must not write into. */
    userHome: string;
    /** The directories of the user's own toolsearch state and embedding cache. */
    userToolsearchDirs: string[];
  }
}

/** path → "size mtime" of every file under `dirs`: enough to see a file added, removed or rewritten. */
function snapshot(dirs: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path, { throwIfNoEntry: false });
        if (stat) files.set(path, `${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return files;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}

export default function setup(project: TestProject): () => void {
  const userHome = homedir();
  const userDirs = [defaultStateDir(process.env), join(defaultCacheDir(process.env), '..')];
  const before = snapshot(userDirs);

  const home = mkdtempSync(join(tmpdir(), 'toolsearch-test-home-'));
  const testEnv: Record<string, string> = {
    HOME: home,
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TOOLSEARCH_STATE_DIR: join(home, '.local', 'state', 'toolsearch'),
  };
  const saved = Object.fromEntries(Object.keys(testEnv).map((key) => [key, process.env[key]]));
  Object.assign(process.env, testEnv);
  project.provide('userHome', userHome);
  project.provide('userToolsearchDirs', userDirs);

  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(home, { recursive: true, force: true });
    const changed = changedFiles(before, snapshot(userDirs));
    if (changed.length > 0) {
      // A warning, not a failed run: a toolsearch the user runs at the same time (a desktop app's
      // gateway) writes there too, and must not fail their test run. The redirect above is the
      // guarantee; test/repo/test-isolation.test.ts checks it.
      console.error(
        `WARNING: the user's own toolsearch state changed during the test run (a toolsearch running outside the tests at the same time would do this too):\n  ${changed.join('\n  ')}`,
      );
    }
  };
}
