/**
 * The repository explains itself: every requirement code a source comment cites (C8, G5, …) is
 * defined in docs/requirements.md, so a clone has the key to every comment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CODE = /\b([A-H]\d{1,2})\b/g;
const COMMENT = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'tables' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** `- **C8 …**` lines of the requirements document. */
function definedCodes(): Set<string> {
  const text = readFileSync(join(root, 'docs/requirements.md'), 'utf8');
  return new Set([...text.matchAll(/^- \*\*([A-H]\d{1,2})\b/gm)].map((m) => m[1]!));
}

describe('requirement codes', () => {
  it('every code cited in a src/ comment is defined in docs/requirements.md', () => {
    const defined = definedCodes();
    const undefinedCitations: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      const comments = readFileSync(file, 'utf8').match(COMMENT) ?? [];
      for (const comment of comments)
        for (const [, code] of comment.matchAll(CODE))
          if (!defined.has(code!)) undefinedCitations.push(`${relative(root, file)}: ${code}`);
    }
    expect([...new Set(undefinedCitations)]).toEqual([]);
  });

  it('the document defines each code once', () => {
    const text = readFileSync(join(root, 'docs/requirements.md'), 'utf8');
    const codes = [...text.matchAll(/^- \*\*([A-H]\d{1,2})\b/gm)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThan(40);
    expect(codes.filter((c, i) => codes.indexOf(c) !== i)).toEqual([]);
  });
});
