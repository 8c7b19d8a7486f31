/**
 * H1 (issue 29): `serve --help` leads with what a user needs (config, address, root, token); the
 * options for HTTP deployments, search, and operations come after, each under its heading. No help
 * text names a requirement code. The real CLI.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../fixtures/cli.js';
import { cliEnv } from '../fixtures/state.js';

const run = promisify(execFile);
const help = async (...command: string[]) =>
  (await run(process.execPath, cliArgs(...command, '--help'), { env: cliEnv(), timeout: 60_000 })).stdout;

/** The option flags of one help section, in order. */
function section(text: string, heading: string): string[] {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const body = text.slice(start + heading.length + 2).split('\n\n')[0]!;
  return [...body.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
}

describe('H1 help', () => {
  it('H1: serve --help puts --config, --http, --root and the token first; HTTP, search and operations options after', async () => {
    const text = await help('serve');
    const headings = [...text.matchAll(/^(\S[^\n]*):$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Options', 'HTTP deployment', 'Search', 'Operations and limits']);
    expect(section(text, 'Options:').slice(0, 5)).toEqual(['--config', '--http', '--root', '--token-file', '--token']);
    expect(section(text, 'HTTP deployment:')).toContain('--trust-proxy');
    expect(section(text, 'Search:')).toContain('--embeddings-url');
    expect(section(text, 'Operations and limits:')).toEqual(
      expect.arrayContaining(['--limit', '--metrics', '--audit-log', '--settle-ms']),
    );
    expect(section(text, 'Options:')).not.toContain('--embeddings-url');
  }, 90_000);

  it('H1: demo --help leads the same way, with its own --http default', async () => {
    const text = await help('demo');
    expect(section(text, 'Options:').slice(0, 2)).toEqual(['--config', '--http']);
    expect(text).toMatch(/--http <host:port>\s+address to serve on \(default:\s+"127\.0\.0\.1:8765"\)/);
  }, 90_000);

  it('H1: no help text names a requirement code (C8, G5, …)', async () => {
    for (const command of [
      [],
      ['serve'],
      ['demo'],
      ['search'],
      ['inspect'],
      ['status'],
      ['auth'],
      ['learned'],
      ['import'],
      ['add'],
      ['remove'],
      ['doctor'],
    ])
      expect(await help(...command), command.join(' ')).not.toMatch(/\b[A-H]\d{1,2}\b/);
  }, 180_000);
});
