/**
 * H1/H2 (issue 13): `search` and `inspect` work with no source (the bundled servers, like
 * `serve`), and `inspect` prints the same deferred figure as the `serve` banner for one catalog.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { summarizeGateway } from '../../src/gateway/status/summary.js';
import { serveHttp } from '../fixtures/serve-http.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, cliArgs(...args), { timeout: 60_000, env: cliEnv() });

describe('first commands', () => {
  it('H1: `search` with no --catalog/--config searches the bundled reference servers', async () => {
    const { stdout } = await cli('search', '--query', 'echo a message', '--json');
    expect(JSON.parse(stdout.trim()).matches).toContain('mcp__everything__echo');
  });

  it('H1: `inspect` with no source measures the bundled reference servers', async () => {
    const { stdout } = await cli('inspect', '--json');
    const report = JSON.parse(stdout);
    expect(report.servers).toBe(4);
    expect(report.eagerTokens).toBeGreaterThan(report.deferredTokens);
  });

  it('C12/H3: `search --json` and `inspect` name servers that failed, with the reason (command not found, exit code and the stderr line that says why)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-failed-'));
    const config = join(dir, 'mcp.json');
    const dies = {
      command: process.execPath,
      args: ['-e', 'console.error("missing SUPABASE_TOKEN"); process.exit(3)'],
    };
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { ok: fixtureServer('ok'), supabase: { command: 'toolsearch-test-no-such-command' }, dies },
      }),
    );
    const expected = [
      { server: 'dies', reason: 'could not connect: exited with code 3; stderr: "missing SUPABASE_TOKEN"' },
      { server: 'supabase', reason: 'could not connect: command not found: toolsearch-test-no-such-command' },
    ];
    const search = JSON.parse((await cli('search', '--config', config, '--query', 'ping', '--json')).stdout.trim());
    expect(search.matches).toContain('mcp__ok__ping');
    expect(search.failedServers).toEqual(expected);
    const inspect = await cli('inspect', '--config', config);
    expect(inspect.stdout).toContain(
      'FAILED supabase: could not connect: command not found: toolsearch-test-no-such-command',
    );
    expect(JSON.parse((await cli('inspect', '--config', config, '--json')).stdout).failedServers).toEqual(expected);
    // The logs say it too (stderr).
    expect(inspect.stderr).toMatch(/error "supabase" could not connect: command not found/);
  });

  it('H2: `inspect --config` and the `serve` banner give one deferred figure for one catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-one-figure-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { alpha: fixtureServer('alpha'), beta: fixtureServer('beta') } }),
    );
    const report = JSON.parse((await cli('inspect', '--config', config, '--json')).stdout);
    const served = await serveHttp({ config });
    try {
      const summary = await summarizeGateway(served.stack.gateway);
      expect(summary.tools).toBe(report.tools);
      expect(summary.eagerTokens).toBe(report.eagerTokens);
      expect(summary.deferredTokens).toBe(report.deferredTokens);
      expect(report.modes.find((m: { mode: string }) => m.mode === 'always').tokens).toBe(report.deferredTokens);
      // The auto line compares the same exact count, not a characters / 2.5 estimate.
      expect(report.modes.find((m: { mode: string }) => m.mode === 'auto').reason).not.toMatch(/estimate/);
    } finally {
      await served.stack.close();
    }
  });
});
