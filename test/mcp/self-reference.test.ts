/**
 * G1 (issue 29): which config entries are this gateway. Real files: the repository's own entry
 * point, and a symlink to it as a `node_modules/.bin` link would be.
 */
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NestedGatewayError } from '../../src/mcp/errors.js';
import {
  childGatewayEnv,
  GATEWAY_CHAIN_ENV,
  refuseServingAgain,
  selfReference,
  SelfListedEntries,
} from '../../src/mcp/self-reference.js';
import { parseHubConfig } from '../../src/mcp/config.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(repoRoot, 'src/cli/main.ts');

describe('G1 self-listed entries', () => {
  it.each([
    ['toolsearch', ['serve']],
    ['/usr/local/bin/toolsearch', ['serve', '--config', 'x.json']],
    ['C:\\Users\\me\\AppData\\Roaming\\npm\\toolsearch.cmd', ['serve']],
    ['npx', ['-y', 'toolsearch', 'serve']],
    ['npx', ['--yes', 'toolsearch@0.1.0', 'serve']],
    ['npx', ['--package=toolsearch', 'toolsearch', 'serve']],
    ['npx.cmd', ['-p', 'toolsearch', 'toolsearch', 'serve']],
    ['npm', ['exec', '--', 'toolsearch', 'serve']],
    ['pnpm', ['dlx', 'toolsearch', 'serve']],
    [process.execPath, ['--import', 'tsx', MAIN, 'serve']],
    ['node', ['src/cli/main.ts', 'serve']],
  ])('G1: %s %j is this gateway', (command, args) => {
    expect(selfReference({ command, args, cwd: repoRoot })).toBeDefined();
  });

  it('G1: a path that resolves to the entry point (a bin link) is this gateway', () => {
    const link = join(mkdtempSync(join(tmpdir(), 'ts-self-ref-')), 'toolsearch-link');
    symlinkSync(MAIN, link);
    expect(selfReference({ command: link, args: ['serve'] })).toBeDefined();
    expect(selfReference({ command: 'node', args: [link] })).toBeDefined();
  });

  it.each([
    ['npx', ['-y', '@modelcontextprotocol/server-memory']],
    ['npx', ['-y', 'toolsearch-extra', 'toolsearch']],
    ['node', ['server.js', '--name', 'toolsearch']],
    ['uvx', ['toolsearch']],
    [process.execPath, [join(repoRoot, 'test/fixtures/servers/fixture-server.mjs')]],
  ])('G1: %s %j is not', (command, args) => {
    expect(selfReference({ command, args, cwd: repoRoot })).toBeUndefined();
  });

  it('G1: the filter drops them with one warning each, also across reloads, and keeps the rest', () => {
    const warnings: string[] = [];
    const entries = new SelfListedEntries((line) => warnings.push(line));
    const config = parseHubConfig({
      mcpServers: { me: { command: 'toolsearch', args: ['serve'] }, other: { command: 'node', args: ['s.js'] } },
    });
    expect(Object.keys(entries.filter(config).servers)).toEqual(['other']);
    expect(Object.keys(entries.filter(config).servers)).toEqual(['other']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/skipping server "me"/);
  });

  it('G1: a gateway refuses a config a gateway above it already serves, and serves any other', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-self-chain-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(config, '{"mcpServers": {}}');
    const env = childGatewayEnv(config, {});
    expect(JSON.parse(env[GATEWAY_CHAIN_ENV]!)).toHaveLength(1);
    expect(() => refuseServingAgain(config, env)).toThrow(NestedGatewayError);
    expect(() => refuseServingAgain(join(dir, 'other.json'), env)).not.toThrow();
    // The chain grows down the generations.
    const below = childGatewayEnv(config, env);
    expect(JSON.parse(below[GATEWAY_CHAIN_ENV]!)).toHaveLength(2);
  });
});
