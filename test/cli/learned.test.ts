import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LearnedFileStore } from '../../src/usage/file-store.js';
import { LearnedLog } from '../../src/search/learned/log.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, cliArgs(...args), { env: cliEnv() });

const CATALOG = [
  { id: 'tracker/open_ticket', server: 'tracker', name: 'open_ticket', description: 'Open a ticket in the tracker.' },
  { id: 'files/read_file', server: 'files', name: 'read_file', description: 'Read a file from disk.' },
  { id: 'weather/forecast', server: 'weather', name: 'forecast', description: 'Weather forecast for a city.' },
].map((t) => ({ ...t, inputSchema: { type: 'object', properties: {} } }));

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'ts-learned-cli-'));
}

describe('C13: toolsearch learned show / forget', { timeout: 90_000 }, () => {
  it('C13: show lists tools with learned evidence (one tool with --tool); forget --tool drops one, --all everything', async () => {
    const file = join(dir(), 'learned.json');
    const log = new LearnedLog();
    log.record({ query: 'file a bug for the login page', tool: 'mcp__tracker__open_ticket', at: Date.UTC(2026, 0, 2) });
    log.record({ query: 'file a bug for the login page', tool: 'mcp__tracker__open_ticket', at: Date.UTC(2026, 0, 3) });
    log.record({ query: 'open the config', tool: 'mcp__files__read_file', at: Date.UTC(2026, 0, 1) });
    new LearnedFileStore(file).save(log);

    const all = (await cli('learned', 'show', '--file', file)).stdout;
    expect(all).toMatch(/mcp__tracker__open_ticket: 2 search\(es\), 1 distinct, last 2026-01-03/);
    expect(all).toMatch(/terms: .*login/);
    // C14: the tracker's words were used by two (anonymous) sources; the file reader's by one.
    expect(all).toMatch(/open_ticket: .*\n.*terms: .*\n\s+lifts it: .*login/);
    expect(all).toMatch(/read_file: .*\n.*terms: .*\n\s+lifts it: nothing yet/);
    expect(all).toMatch(/mcp__files__read_file: 1 search/);
    const one = (await cli('learned', 'show', '--file', file, '--tool', 'mcp__files__read_file', '--json')).stdout;
    expect(
      one
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).tool),
    ).toEqual(['mcp__files__read_file']);

    expect((await cli('learned', 'forget', '--file', file, '--tool', 'mcp__files__read_file')).stdout).toMatch(
      /Forgot/,
    );
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).tools)).toEqual(['mcp__tracker__open_ticket']);
    await expect(cli('learned', 'forget', '--file', file)).rejects.toMatchObject({ stderr: /--tool NAME or --all/ });
    await cli('learned', 'forget', '--file', file, '--all');
    expect((await cli('learned', 'show', '--file', file)).stdout).toMatch(/Nothing learned yet/);
  });
});

describe('C13: toolsearch search --usage-log', { timeout: 90_000 }, () => {
  it('C13: earlier {query, tool} pairs (name or catalog id) are learned before answering; explain says so', async () => {
    const d = dir();
    const catalog = join(d, 'catalog.jsonl');
    writeFileSync(catalog, CATALOG.map((t) => JSON.stringify(t)).join('\n'));
    const usage = join(d, 'usage.jsonl');
    writeFileSync(
      usage,
      [
        // A complaint whose words name no tool ("file a bug …" now finds the tracker by itself, C14).
        { query: 'the login page will not load a file', tool: 'tracker/open_ticket' },
        { query: 'the login page will not load a file any more', tool: 'mcp__tracker__open_ticket' },
        { query: 'will it rain tomorrow', tool: 'weather/forecast' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const args = ['search', '--catalog', catalog, '--query', 'the login page will not load a file', '--json'];
    const plain = JSON.parse((await cli(...args)).stdout);
    expect(plain.matches[0]).toBe('files/read_file');
    const learned = JSON.parse((await cli(...args, '--usage-log', usage)).stdout);
    expect(learned.matches[0]).toBe('tracker/open_ticket');
    const explained = (await cli(...args.slice(0, -1), '--usage-log', usage, '--explain')).stdout;
    expect(explained).toMatch(/learned: \d earlier search(es)? like this led here/);

    writeFileSync(usage, JSON.stringify({ query: 'x', tool: 'nope' }));
    await expect(cli(...args, '--usage-log', usage)).rejects.toMatchObject({ stderr: /no tool "nope"/ });
  });
});
