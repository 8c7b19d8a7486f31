/**
 * H1 (issue 29): one-shot commands fail loudly. `search` and `inspect` exit non-zero with one
 * line when every configured server failed; an empty `--query` is an error before any server
 * starts; `status` without `--http` asks the local gateway `npm start` runs. The real CLI.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../fixtures/cli.js';
import { cliEnv } from '../fixtures/state.js';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, cliArgs(...args), { timeout: 90_000, env: cliEnv() });
type Failure = { code: number; stdout: string; stderr: string };
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a non-zero exit'),
    (error: Failure) => error,
  ) as Promise<Failure>;

function brokenConfig(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ts-exit-')), 'mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        one: { command: 'toolsearch-test-no-such-command' },
        two: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      },
    }),
  );
  return file;
}

describe('H1 exit codes of the one-shot commands', () => {
  it.each([
    ['search', ['--query', 'read a file']],
    ['inspect', []],
  ])(
    'H1: `%s --config` exits non-zero with one line when every server failed',
    async (command, extra) => {
      const failed = await failure(cli(command, '--config', brokenConfig(), ...extra));
      expect(failed.code).not.toBe(0);
      expect(failed.stdout).toBe('');
      const lines = failed.stderr.split('\n').filter((line) => line.startsWith('toolsearch:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/all 2 MCP servers failed to start: /);
      expect(lines[0]).toMatch(/"one" .*command not found/);
    },
    120_000,
  );

  it('H1: `search --query ""` is an error, before any server is started', async () => {
    for (const query of ['', '   ']) {
      const failed = await failure(cli('search', '--config', brokenConfig(), '--query', query));
      expect(failed.code).not.toBe(0);
      expect(failed.stderr.trim()).toBe(
        'toolsearch: --query is empty: give words to search for, e.g. --query "read a file".',
      );
    }
  }, 120_000);

  it('H3: `status` without --http asks the local gateway address (127.0.0.1:8765)', async () => {
    // Whatever is (or is not) listening there, the command names that address.
    const result = await cli('status').then(
      ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
      (error: Failure) => error,
    );
    expect(`${result.stdout}${result.stderr}`).toContain('127.0.0.1:8765');
  }, 120_000);
});
