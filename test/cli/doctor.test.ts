/**
 * G13 — `toolsearch doctor`: starts each server once and prints one plain line per server
 * (connected with N tools, installing and for how long, or failed with the reason and the fix);
 * exits non-zero when a server failed. The CLI as a child process, real servers over stdio, a
 * fixture npx for installs (no network).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../fixtures/cli.js';
import { brokenInstall, fixtureRunner } from '../fixtures/runners.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { cliEnv } from '../fixtures/state.js';
import { doctorLine } from '../../src/cli/commands/doctor.js';

const run = promisify(execFile);

async function doctor(args: string[], cwd?: string): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs('doctor', ...args), {
      timeout: 120_000,
      env: cliEnv(),
      ...(cwd !== undefined && { cwd }),
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('G13: toolsearch doctor', () => {
  it('G13: with no config it checks the bundled servers: one line each, exit 0', async () => {
    const runner = fixtureRunner();
    const { stdout, code } = await doctor([], runner.dir);
    expect(code).toBe(0);
    expect(
      stdout
        .split('\n')
        .filter((l) => l.endsWith('tools') || l.endsWith('tool'))
        .sort(),
    ).toEqual([
      'everything: connected, 17 tools',
      'filesystem: connected, 14 tools',
      'memory: connected, 9 tools',
      'sequential-thinking: connected, 1 tool',
    ]);
    expect(stdout).toContain('4 of 4 servers connected');
  });

  it('G13: a config with an install, a broken npx cache and a missing command: the real errors and their fixes, exit 2', async () => {
    const runner = fixtureRunner();
    const broken = brokenInstall(runner, 'broken-pkg@1.0.0');
    const config = join(runner.dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          // Installs for longer than its connect timeout: doctor waits for the install.
          fresh: runner.server('fresh-pkg@1.0.0', { RUNNER_STEPS: '40' }, { timeoutMs: 3_000 }),
          broken: runner.server('broken-pkg@1.0.0'),
          missing: { command: 'toolsearch-test-no-such-command' },
          plain: fixtureServer('plain'),
        },
      }),
    );
    const { stdout, stderr, code } = await doctor(['--config', config]);
    expect(code).toBe(2);
    const lines = stdout.trim().split('\n');
    expect(lines).toContain('fresh: connected, 10 tools');
    expect(lines).toContain('plain: connected, 10 tools');
    expect(lines).toContain(
      'missing: failed: could not connect: command not found: toolsearch-test-no-such-command (fix: install toolsearch-test-no-such-command, or give its full path as "command")',
    );
    const brokenLine = lines.find((l) => l.startsWith('broken: '));
    expect(brokenLine).toMatch(
      new RegExp(
        `^broken: failed: could not connect: a broken npx cache \\(an install that was cut off\\?\\): clear it with rm -rf ${broken}, and npx installs it again; exited with code 1; stderr: "Error \\[ERR_MODULE_NOT_FOUND\\]: Cannot find package 'ajv'`,
      ),
    );
    expect(brokenLine).not.toContain('Node.js v');
    expect(lines.at(-1)).toBe('2 of 4 servers connected, 2 failed');
    expect(stderr).toContain('those started through a package runner may install first');
  });

  it('G13: with --timeout, a server still installing is reported with how long, left to finish, exit 3', async () => {
    const runner = fixtureRunner();
    const config = join(runner.dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { slow: runner.server('slow-pkg@1.0.0', { RUNNER_GO_FILE: join(runner.dir, 'go') }) },
      }),
    );
    const { stdout, code } = await doctor(['--config', config, '--timeout', '1']);
    expect(code).toBe(3);
    expect(stdout).toMatch(
      /^slow: installing through npx \(\d+ s so far\); left to finish in the background: run doctor again later$/m,
    );
    writeFileSync(join(runner.dir, 'go'), '');
  });

  it('G13: a line escapes control characters a server wrote', () => {
    const line = doctorLine(
      {
        server: 'evil',
        state: 'failed',
        tools: 0,
        attempts: 1,
        reconnects: 0,
        since: 0,
        lastError: 'could not connect: exited with code 1; stderr: "\u001b[2Jgone\rforged"',
      },
      0,
    );
    expect(line).toBe('evil: failed: could not connect: exited with code 1; stderr: "\\u001b[2Jgone\\rforged"');
  });
});
