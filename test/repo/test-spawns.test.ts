/**
 * How tests start `toolsearch`: through `cliArgs` (test/fixtures/cli.ts), which runs the run's
 * compiled copy of src/ (about half the start-up CPU of compiling it again through tsx in every
 * child), with a state directory of its own (G7). A test that writes `--import tsx` by hand
 * starts slower and drifts from the fixture; the few that need the source on purpose are named
 * here with why.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fixtures/cli.js';
import { sourceFiles } from '../fixtures/source-files.js';

/** Files that may name tsx as a loader, and why. */
const ALLOWED = new Map([
  ['test/fixtures/cli.ts', 'the fallback when no compiled copy exists (watch mode)'],
  ['test/repo/docs.test.ts', 'runs a test helper (print-cli-flags.ts), not the CLI'],
  ['test/repo/print-cli-flags.ts', 'says how docs.test.ts runs it'],
  ['test/mcp/self-reference.test.ts', 'a config entry as a clone writes it, checked, never run'],
  ['test/cli/self-listing.test.ts', 'a config entry as a clone writes it: recognized, never run'],
  ['test/mcp/oauth-refresh.test.ts', 'a second hub process (test/fixtures/oauth-call.ts), not the CLI'],
  ['test/repo/test-spawns.test.ts', 'this rule'],
]);

const TSX_LOADER = /--import['",\s]+tsx\b/;

describe('G7 tests start toolsearch through the fixture', () => {
  it('G7: no test starts a child through `--import tsx` by hand (use cliArgs and cliEnv)', () => {
    const offenders = sourceFiles(join(REPO_ROOT, 'test'))
      .map((file) => relative(REPO_ROOT, file).replaceAll('\\', '/'))
      .filter((file) => !ALLOWED.has(file))
      .filter((file) => TSX_LOADER.test(readFileSync(join(REPO_ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
