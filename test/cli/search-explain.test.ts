import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);

const CATALOG = [
  {
    id: 'weather/get_forecast',
    server: 'weather',
    name: 'get_forecast',
    description: 'Weather forecast for a city.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    id: 'files/create_directory',
    server: 'files',
    name: 'create_directory',
    description: 'Create a new directory.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    id: 'files/read_file',
    server: 'files',
    name: 'read_file',
    description: 'Read a file.',
    inputSchema: { type: 'object', properties: {} },
  },
];

describe('C11/C12: toolsearch search --explain', () => {
  it('C11: prints the evidence under each hit (terms, fields, expansion, server evidence) and the weak-search servers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-explain-'));
    const file = join(dir, 'catalog.jsonl');
    writeFileSync(file, CATALOG.map((t) => JSON.stringify(t)).join('\n'));
    const { stdout } = await run(
      process.execPath,
      cliArgs('search', '--catalog', file, '--query', 'will it rain in Oslo', '--explain'),
      { env: cliEnv() },
    );
    expect(stdout).toMatch(/1\. weather\/get_forecast/);
    expect(stdout).toMatch(/terms: weather in server\+description .*\[expansion of rain/);
    expect(stdout).toMatch(/mcp__weather — 1 tool: get_forecast/);
    const json = await run(
      process.execPath,
      cliArgs('search', '--catalog', file, '--query', 'make a folder', '--explain', '--json'),
      { env: cliEnv() },
    );
    const line = JSON.parse(json.stdout.trim());
    expect(line.matches[0]).toBe('files/create_directory');
    expect(line.explanations[0].terms.map((t: { origin: string }) => t.origin).join(' ')).toMatch(/synonym of/);
  });
});
