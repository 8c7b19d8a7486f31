/**
 * G5 (issue 32, case 1): a client sending `tool_search` a new multi-megabyte word each time must not
 * grow the gateway's heap. The attack runs against a real `toolsearch serve --http` started with a
 * small heap: before the fix the ranker's per-word memos kept every request alive and the process
 * died of heap exhaustion; now the query cap refuses the word with an error naming the limit, and
 * with the cap raised past the word (the knob) the memos stay bounded and the gateway answers on.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs, REPO_ROOT } from '../fixtures/cli.js';
import { httpClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { cliEnv } from '../fixtures/state.js';
import { waitFor } from '../fixtures/wait.js';

const TOKEN = 'flood-test-token';
/**
 * 3.5 MB words, each new; 60 of them is 210 MB, well past the 128 MiB heap the gateway is given. The
 * heap leaves room for one such search's transient copies (request body, parsed text, lowercased
 * words): with the memos bounded, the gateway lives at 88 MiB and dies at 80 on this machine, so
 * 96 MiB left too little margin under a loaded CI run (it failed once there).
 */
const WORD_CHARS = 3_500_000;
const SEARCHES = 60;
const HEAP_MIB = 128;

function serve(extra: string[]): { child: ChildProcessWithoutNullStreams; out: () => string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-flood-'));
  const config = join(dir, 'mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { fx: fixtureServer('fx') } }));
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_MIB}`,
      ...cliArgs('serve', '--http', '127.0.0.1:0', '--config', config, '--settle-ms', '10000', ...extra),
    ],
    { cwd: REPO_ROOT, env: cliEnv({ TOOLSEARCH_TOKEN: TOKEN }) },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return { child, out: () => out };
}

let running: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  if (running && running.exitCode === null) running.kill('SIGKILL');
});

async function floodAndCheck(extra: string[]): Promise<string[]> {
  const { child, out } = serve(extra);
  running = child;
  const url = (await waitFor(() => /listening on (\S+)/.exec(out())?.[1], 'the gateway to listen', 30_000))!;
  const client = await httpClient(url, { authorization: `Bearer ${TOKEN}` });
  const answers: string[] = [];
  try {
    for (let i = 0; i < SEARCHES; i++) {
      // A new word each time, so no memo entry is ever reused.
      const word = `w${i}q${'x'.repeat(WORD_CHARS)}`;
      const result = await client.call('tool_search', { query: `read ${word} then add ${word.slice(0, 40)} numbers` });
      answers.push(result.text);
    }
    // Still alive and still searching.
    expect((await client.call('tool_search', { query: 'add numbers' })).text).toContain('mcp__fx__add');
  } finally {
    await client.close();
  }
  expect(child.exitCode).toBeNull();
  return answers;
}

describe('G5: a search flood of huge new words', () => {
  it('is refused by the query cap, with an error naming searchQueryChars', async () => {
    const answers = await floodAndCheck([]);
    expect(answers[0]).toMatch(/accepts at most 16384 \(limit searchQueryChars\)/);
  }, 180_000);

  it('with the cap raised past the words, the memos stay bounded and the gateway lives', async () => {
    const answers = await floodAndCheck(['--limit', 'searchQueryChars=4000000']);
    expect(answers.every((a) => !/searchQueryChars/.test(a))).toBe(true);
  }, 300_000);
});
