import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolvePackageBin } from '../../src/mcp/defaults.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);

describe('H1 search --config (live servers)', () => {
  it('H1/C1: `toolsearch search --config` searches the live tools of a real MCP server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-search-'));
    const config = join(dir, 'mcp.json');
    const memory = resolvePackageBin('@modelcontextprotocol/server-memory');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: join(dir, 'm.json') } },
        },
      }),
    );
    const { stdout } = await run(
      process.execPath,
      cliArgs('search', '--config', config, '--query', 'create entities in the knowledge graph', '--json'),
      { env: cliEnv() },
    );
    const line = JSON.parse(stdout.trim());
    expect(line.matches[0]).toBe('mcp__memory__create_entities');
    expect(line.totalDeferred).toBeGreaterThan(5);
    const select = await run(
      process.execPath,
      cliArgs('search', '--config', config, '--query', 'select:mcp__memory__read_graph,mcp__memory__nope', '--json'),
      { env: cliEnv() },
    );
    expect(JSON.parse(select.stdout.trim())).toMatchObject({
      matches: ['mcp__memory__read_graph'],
      notFound: ['mcp__memory__nope'],
    });
  });
});
