import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHubConfig, readHubConfig } from '../../src/mcp/config.js';
import { McpConfigError } from '../../src/mcp/errors.js';
import { defaultHubConfig, resolvePackageBin } from '../../src/mcp/defaults.js';

const dir = mkdtempSync(join(tmpdir(), 'toolsearch-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function configError(promise: Promise<unknown>): Promise<McpConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpConfigError);
  return error as McpConfigError;
}

describe('G1 config validation', () => {
  it('G1: accepts a Claude Desktop config with stdio and HTTP servers and unknown extra keys', () => {
    const config = parseHubConfig({
      mcpServers: {
        fs: { command: 'node', args: ['x.js'], env: { A: '1' }, cwd: '/tmp', autoApprove: [] },
        remote: { url: 'http://127.0.0.1:9/mcp', headers: { authorization: 'Bearer x' } },
        off: { command: 'node', disabled: true },
      },
      toolSearch: { mode: 'auto:5', alwaysLoad: ['mcp__fs__read'] },
    });
    expect(Object.keys(config.servers)).toEqual(['fs', 'remote']);
    expect(config.toolSearch.mode).toBe('auto:5');
  });

  it('G1: accepts the VS Code "servers" key', () => {
    expect(Object.keys(parseHubConfig({ servers: { a: { type: 'stdio', command: 'node' } } }).servers)).toEqual(['a']);
  });

  it('G1: a wrong type names the file and the key', async () => {
    const path = file(
      'bad-args.json',
      JSON.stringify({ mcpServers: { github: { command: 'node', args: 'not-a-list' } } }),
    );
    const error = await configError(readHubConfig(path));
    expect(error.message).toContain(path);
    expect(error.key).toBe('mcpServers.github.args');
    expect(error.message).toContain('"mcpServers.github.args"');
  });

  it('G1: a missing mcpServers key is named', async () => {
    const error = await configError(readHubConfig(file('empty.json', '{}')));
    expect(error.key).toBe('mcpServers');
  });

  it('G1: invalid JSON and unreadable files name the file', async () => {
    const broken = file('broken.json', '{"mcpServers": ');
    expect((await configError(readHubConfig(broken))).message).toMatch(/broken\.json.*not valid JSON/);
    expect((await configError(readHubConfig(join(dir, 'missing.json')))).message).toMatch(/missing\.json.*ENOENT/);
  });

  it('G1: a bad mode and a server name with "__" are rejected with their keys', () => {
    expect(() => parseHubConfig({ mcpServers: {}, toolSearch: { mode: 'sometimes' } }, 'c.json')).toThrow(
      /c\.json at "toolSearch\.mode"/,
    );
    expect(() => parseHubConfig({ mcpServers: { a__b: { command: 'x' } } }, 'c.json')).toThrow(
      /"mcpServers\.a__b".*"__"/,
    );
  });

  it('G1: the embedded default resolves the reference servers from package.json bin, run with this node', () => {
    expect(resolvePackageBin('@modelcontextprotocol/server-memory')).toMatch(/server-memory[/\\]dist[/\\]index\.js$/);
    const config = defaultHubConfig({ root: dir });
    expect(Object.keys(config.servers).sort()).toEqual(['everything', 'filesystem', 'memory', 'sequential-thinking']);
    expect(config.servers['filesystem']).toMatchObject({ command: process.execPath, args: [expect.any(String), dir] });
  });
});
