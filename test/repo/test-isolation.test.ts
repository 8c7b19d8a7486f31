/**
 * G7 for the test suite itself: tests never write into the user's home or toolsearch state. The
 * run's globalSetup (test/setup/isolated-home.ts) gives the tests a temp home and checks the
 * user's state at the end; this file checks, from inside a test worker, that the net is in
 * place and that a gateway spawned the way the tests spawn one keeps its state where it is told.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { getDefaultEnvironment as sdkDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { getDefaultEnvironment as sdkV1DefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, inject, it } from 'vitest';
import { defaultCacheDir } from '../../src/embeddings/cache.js';
import { defaultStateDir } from '../../src/mcp/state-dir.js';
import { connectClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { freshStateDir } from '../fixtures/state.js';
import { stdioGateway, stdioGatewayParams } from '../fixtures/stdio-gateway.js';
import { waitFor } from '../fixtures/wait.js';

const inside = (dir: string, path: string) => !relative(dir, path).startsWith('..');

describe('G7 tests keep out of the user home', () => {
  const userHome = inject('userHome');

  it('G7: the test process has a temp home; its state and cache directories are under it', () => {
    expect(homedir()).not.toBe(userHome);
    expect(inside(homedir(), defaultStateDir())).toBe(true);
    expect(inside(homedir(), defaultCacheDir())).toBe(true);
    for (const dir of inject('userToolsearchDirs')) expect(inside(homedir(), dir)).toBe(false);
  });

  it('G7: a process spawned with only the SDK default environment still gets the temp home', () => {
    expect(sdkDefaultEnvironment()['HOME']).toBe(homedir());
    expect(sdkV1DefaultEnvironment()['HOME']).toBe(homedir());
  });

  it('G7: the stdio gateway fixture passes a state directory of its own to each child', () => {
    const a = stdioGatewayParams(['serve']).env['TOOLSEARCH_STATE_DIR'];
    const b = stdioGatewayParams(['serve']).env['TOOLSEARCH_STATE_DIR'];
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
    expect(a).not.toBe(defaultStateDir());
  });

  it('G7: a spawned stdio gateway writes what it learns about servers into the directory it was given', async () => {
    const stateDir = freshStateDir('isolation');
    const config = join(freshStateDir('isolation-config'), 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { fx: fixtureServer('fx') } }));
    const client = await connectClient(
      stdioGateway(['serve', '--config', config, '--log-level', 'silent'], { stateDir }),
    );
    try {
      // Over stdio the servers start with the first request.
      await client.toolNames();
      await waitFor(() => existsSync(join(stateDir, 'servers.json')), 'servers.json in the given directory', 30_000);
      expect(readdirSync(stateDir)).toContain('servers.json');
    } finally {
      await client.close();
    }
  }, 60_000);
});
