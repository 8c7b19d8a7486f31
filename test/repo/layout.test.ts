/**
 * Issue 18's layout rules, kept by a test: the gateway's top level stays small (its concerns live
 * in rooms), and no hand-written source file grows past what a reader takes in at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 450;
const MAX_GATEWAY_TOP_FILES = 8;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // Generated tables are data, not code to read.
    if (entry.isDirectory()) return entry.name === 'tables' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('layout', () => {
  it(`no hand-written source file in src/ is over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(join(root, 'src'))
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  it(`src/gateway/ keeps at most ${MAX_GATEWAY_TOP_FILES} files at its top level`, () => {
    const top = readdirSync(join(root, 'src/gateway'), { withFileTypes: true }).filter((e) => e.isFile());
    expect(top.length).toBeLessThanOrEqual(MAX_GATEWAY_TOP_FILES);
  });
});
