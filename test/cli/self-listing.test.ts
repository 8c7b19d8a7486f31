/**
 * G1 (issue 29): a config that lists the gateway itself (Claude Desktop's file, served as is)
 * starts one gateway, not one per generation. Real `toolsearch serve` over stdio, the SDK client,
 * a real fixture server beside the self-listed entries; processes counted from /proc.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_SOURCE as MAIN, cliArgs } from '../fixtures/cli.js';
import { connectClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';
import { waitFor } from '../fixtures/wait.js';

/** Live processes whose command line holds every one of `parts`. */
function processesWith(...parts: string[]): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return parts.every((part) => cmdline.some((arg) => arg.includes(part)));
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

/** Arguments for `sh -c`, each double-quoted. */
function shellWords(args: readonly string[]): string {
  return args.map((arg) => `"${arg}"`).join(' ');
}

describe.skipIf(process.platform !== 'linux')('G1 a config that lists the gateway itself', () => {
  it('G1: starts one gateway, names each self-listed entry in one warning line, and the other servers still work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-self-listing-'));
    const config = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          fixture: fixtureServer('fixture'),
          // This very gateway, as a clone's client config writes it (recognized by its entry file; never run).
          'self-node': { command: process.execPath, args: ['--import', 'tsx', MAIN, 'serve', '--config', config] },
          // As the published package would be written (recognized by name; never run).
          'self-npx': { command: 'npx', args: ['-y', 'toolsearch@latest', 'serve', '--config', config] },
          // Behind a wrapper the gateway cannot see through: the started gateway refuses.
          'self-wrapped': {
            command: 'sh',
            args: ['-c', `exec "${process.execPath}" ${shellWords(cliArgs('serve', '--config', config))}`],
          },
        },
      }),
    );
    const transport = stdioGateway(['serve', '--config', config, '--settle-ms', '1000'], {
      stateDir: join(dir, 'state'),
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = await connectClient(transport);
    try {
      // Starts the servers (stdio starts them on the first real request) and reaches the fixture.
      const found = await client.call('tool_search', { query: 'ping' });
      expect(found.text).toContain('mcp__fixture__ping');
      const ping = await client.call('mcp__fixture__ping', {});
      expect(ping.isError).not.toBe(true);
      await waitFor(() => stderr.includes('"self-wrapped"'), 'the wrapped entry to be dropped', 60_000);
      // A few seconds for any generation that would have been started to show.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(processesWith('serve', config)).toHaveLength(1);
      const warnings = stderr.split('\n').filter((line) => line.includes('skipping server'));
      expect(warnings).toHaveLength(3);
      for (const name of ['self-node', 'self-npx', 'self-wrapped'])
        expect(warnings.filter((line) => line.includes(`"${name}"`))).toHaveLength(1);
      expect(stderr).not.toMatch(/"self-wrapped".*retrying/);
    } finally {
      await client.close();
    }
    await waitFor(() => processesWith('serve', config).length === 0, 'the gateway to exit', 30_000);
  }, 120_000);
});
