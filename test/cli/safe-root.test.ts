/**
 * G5 (issue 29): `serve` with no config and no `--root`, started from `/` or the home directory
 * (as desktop apps start servers), does not hand the model that folder: the bundled filesystem
 * server is not started and one line says how to give `--root`; the root in use is logged.
 * Real `toolsearch serve` over stdio with the bundled reference servers and the SDK client.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../fixtures/cli.js';
import { connectClient } from '../fixtures/clients.js';
import { cliEnv } from '../fixtures/state.js';
import { waitFor } from '../fixtures/wait.js';

async function serveFrom(cwd: string, home: string, extra: string[] = []) {
  const state = mkdtempSync(join(tmpdir(), 'ts-safe-root-state-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Started from `cwd` (not the repository), as a desktop app starts it.
    args: cliArgs('serve', '--memory-file', join(state, 'memory.jsonl'), '--settle-ms', '60000', ...extra),
    cwd,
    env: cliEnv({ HOME: home, TOOLSEARCH_STATE_DIR: state }) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = await connectClient(transport);
  const names = await client.toolNames(); // the first request starts the servers
  // Every server's first attempt done: the summary is logged.
  await waitFor(() => /servers: \d+ connected/.test(stderr), 'the start-up summary', 90_000);
  const search = async (query: string) => (await client.call('tool_search', { query, max_results: 10 })).text;
  return { client, names, search, stderr: () => stderr };
}

describe('G5 a safe implicit root', () => {
  it.each([
    ['/', false],
    ['the home directory', true],
  ])(
    'G5: started from %s with no --root, no filesystem tools and one line on how to give --root',
    async (_, fromHome) => {
      const home = mkdtempSync(join(tmpdir(), 'ts-safe-root-home-'));
      const cwd = fromHome ? home : '/';
      const gateway = await serveFrom(cwd, home);
      try {
        expect(gateway.names.some((name) => name.startsWith('mcp__filesystem__'))).toBe(false);
        for (const query of ['list allowed directories', 'write file', 'move file'])
          expect(await gateway.search(query)).not.toContain('mcp__filesystem__');
        // The other bundled servers still serve.
        expect(await gateway.search('echo')).toContain('mcp__everything__echo');
        const lines = gateway.stderr().split('\n');
        const said = lines.filter((line) => line.includes('not starting the bundled filesystem server'));
        expect(said).toHaveLength(1);
        expect(said[0]).toContain('--root <dir>');
        expect(gateway.stderr()).not.toContain('connected to "filesystem"');
      } finally {
        await gateway.client.close();
      }
    },
    150_000,
  );

  it('G5: with --root the filesystem server serves that folder, and the root is logged at start', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ts-safe-root-folder-'));
    const gateway = await serveFrom('/', mkdtempSync(join(tmpdir(), 'ts-safe-root-home-')), ['--root', folder]);
    try {
      expect(await gateway.search('list allowed directories')).toContain('mcp__filesystem__list_allowed_directories');
      expect(gateway.stderr()).toContain(`bundled filesystem server root: ${folder}`);
      expect(gateway.stderr()).not.toContain('not starting the bundled filesystem server');
    } finally {
      await gateway.client.close();
    }
  }, 150_000);
});
