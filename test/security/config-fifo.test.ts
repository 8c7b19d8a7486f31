/**
 * G5/G7 (issue 32 item 12): a FIFO at the config path is refused without blocking — at start-up,
 * and on a live reload of a running `toolsearch serve --http`, which then still stops on SIGTERM.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHubConfig } from '../../src/mcp/config.js';
import { cliArgs, REPO_ROOT } from '../fixtures/cli.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { cliEnv } from '../fixtures/state.js';
import { waitFor } from '../fixtures/wait.js';

describe('G5: a FIFO at the config path', () => {
  it('is refused at once by the config reader', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'ts-fifo-')), 'mcp.json');
    execFileSync('mkfifo', [fifo]);
    await expect(readHubConfig(fifo)).rejects.toThrow(/not a regular file/);
  });

  it('a reload onto a FIFO is refused, and SIGTERM still stops the gateway', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-fifo-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { fx: fixtureServer('fx') } }));
    const child = spawn(process.execPath, cliArgs('serve', '--http', '127.0.0.1:0', '--config', config), {
      cwd: REPO_ROOT,
      env: cliEnv({ TOOLSEARCH_TOKEN: 'fifo-token' }),
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await waitFor(() => /listening on/.test(output), 'the gateway to listen', 30_000);
      rmSync(config);
      execFileSync('mkfifo', [config]);
      await waitFor(() => /not a regular file/.test(output), 'the reload to be refused', 30_000);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      expect(child.signalCode ?? child.exitCode).not.toBeNull();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 90_000);
});
