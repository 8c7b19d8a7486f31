/**
 * G8 probe cost over stdio: a client's `server/discover` probe is answered before any upstream
 * server starts, so a throwaway probe process spawns none; the first real request starts them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** `serve` over stdio with one upstream whose every start appends a line to `counter`. */
function gateway() {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-probe-'));
  const counter = join(dir, 'spawns');
  writeFileSync(counter, '');
  const config = join(dir, 'mcp.json');
  const command = `echo up >> '${counter}'; exec '${process.execPath}' '${FIXTURE_SERVER}'`;
  writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: 'sh', args: ['-c', command] } } }));
  const child = spawn(process.execPath, cliArgs('serve', '--config', config), {
    cwd: repoRoot,
    env: cliEnv(),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    send: (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`),
    answer: (id: number) => out.split('\n').find((line) => line.includes(`"id":${id}`)),
    spawns: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length,
    stop: () => child.kill(),
  };
}

describe('G8: stdio probe cost', () => {
  it('G8: server/discover is answered with no upstream started; the first real request starts them', async () => {
    const g = gateway();
    try {
      g.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: ENVELOPE } });
      await waitFor(() => g.answer(1), 'the discover answer', 30_000);
      expect(g.answer(1)).toContain('2026-07-28');
      expect(g.spawns()).toBe(0);
      g.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } });
      await waitFor(() => g.answer(2), 'the tools/list answer');
      await waitFor(() => g.spawns() === 1, 'the upstream to start');
    } finally {
      g.stop();
    }
  });
});
