/**
 * H4 (issue 29): the built command keeps its run bit. `prepare` deletes and rebuilds dist/, and
 * tsc writes files without one: `toolsearch` (and every client config whose command is
 * `toolsearch`) then failed with "Permission denied". The build sets it; this checks the dist/
 * that `npm ci` / `npm run build` made, by running it as a client does: directly, not via node.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

describe.skipIf(process.platform === 'win32')('the run bit', () => {
  it('H4: dist/cli/main.js (the package bin) is executable after the build and runs directly', async () => {
    const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { bin: Record<string, string> };
    expect(manifest.bin['toolsearch']).toBe('dist/cli/main.js');
    expect(existsSync(BIN), 'dist/ is built by `npm ci` (prepare) or `npm run build`').toBe(true);
    expect(() => accessSync(BIN, constants.X_OK)).not.toThrow();
    const { stdout } = await promisify(execFile)(BIN, ['--version'], { timeout: 60_000 });
    expect(stdout.trim()).toBe(JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version);
  });
});
