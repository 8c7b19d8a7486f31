/**
 * H4: a start that cannot work fails fast with one clear line and a non-zero exit, before any
 * upstream server is spawned (no orphan child processes).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveHttp } from '../fixtures/serve-http.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(process.execPath, cliArgs(...args), { timeout: 60_000, env: cliEnv() }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** A config whose only server writes a marker file the moment it is spawned. */
function markerConfig(): { config: string; marker: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-startup-'));
  const marker = join(dir, 'spawned');
  const config = join(dir, 'mcp.json');
  const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); setInterval(() => {}, 1000);`;
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { marker: { command: process.execPath, args: ['-e', script] } } }),
  );
  return { config, marker };
}

function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '');
}

describe('H4 startup failures', () => {
  it('H4: a busy port (a second gateway on the same address) exits 1 with one line and spawns no server', async () => {
    const first = await serveHttp({ settleMs: 0 });
    try {
      const { config, marker } = markerConfig();
      const second = await cli(['serve', '--http', `127.0.0.1:${first.http!.port}`, '--config', config]);
      expect(second.code).toBe(1);
      expect(errorLines(second.stderr)).toEqual([
        expect.stringMatching(/^toolsearch: cannot listen on 127\.0\.0\.1:\d+: the port is in use/),
      ]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await first.stack.close();
    }
  });

  it('H4: an address that is not local exits 1 with one line and spawns no server', async () => {
    const { config, marker } = markerConfig();
    const result = await cli(['serve', '--http', '192.0.2.1:8765', '--token', 'secret', '--config', config]);
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([
      expect.stringMatching(/^toolsearch: cannot listen on 192\.0\.2\.1:8765: no such local address/),
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('H4: a malformed --http value and a bad config each exit 1 with one line', async () => {
    const bad = await cli(['serve', '--http', 'not-an-address']);
    expect(bad.code).toBe(1);
    expect(errorLines(bad.stderr)).toEqual([expect.stringContaining('expected HOST:PORT or PORT')]);
    const dir = mkdtempSync(join(tmpdir(), 'ts-startup-'));
    writeFileSync(join(dir, 'broken.json'), '{ "mcpServers": ');
    const config = await cli(['serve', '--http', '127.0.0.1:0', '--config', join(dir, 'broken.json')]);
    expect(config.code).toBe(1);
    expect(errorLines(config.stderr)).toEqual([
      expect.stringMatching(/^toolsearch: Invalid MCP config .*broken\.json: not valid JSON/),
    ]);
  });
});
