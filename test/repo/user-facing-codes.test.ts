/**
 * Issue 29: requirement codes (C8, G5, …) are for readers of the code. They stay in comments and
 * docs/requirements.md; no string in src/ (a message, a `--help` text, a metric's help, a tool
 * description) carries one to a user or a model.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../fixtures/source-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CODE = /\b[A-H]\d{1,2}\b/;
const COMMENT = /\/\*[\s\S]*?\*\/|(^|[^:])\/\/[^\n]*/g;

describe('requirement codes stay out of what users read', () => {
  it('no code outside comments in src/', () => {
    const found = sourceFiles(join(root, 'src')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .replace(COMMENT, (comment, before: string | undefined) => `${before ?? ''}${comment.replace(/[^\n]/g, ' ')}`)
        .split('\n')
        .flatMap((line, i) => (CODE.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
