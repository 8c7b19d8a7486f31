/**
 * G13: the servers file as `import`, `add` and `remove` write it while a gateway (or an editor, or
 * another toolsearch) reads and writes it too: never half a file, never over another program's
 * change, a link followed, the file's mode kept, never a file the gateway refuses.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConcurrentChangeError, ServersFileError } from '../../src/mcp/movein/errors.js';
import { MAX_ATTEMPTS, updateServersFile, withServers, withoutServer } from '../../src/mcp/movein/servers-file.js';
import { waitFor } from '../fixtures/wait.js';

const dir = () => mkdtempSync(join(tmpdir(), 'ts-servers-file-'));
const value = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const other = { mcpServers: { theirs: { command: 'theirs' } } };

describe('G13 writing the servers file', () => {
  it('G13: a change another program saves between our read and our write is never overwritten: the edit runs again on its file', async () => {
    const file = join(dir(), 'servers.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'a' } } }));
    let runs = 0;
    await updateServersFile(file, (current) => {
      runs++;
      // The first time, another program saves the file while we work.
      if (runs === 1) writeFileSync(file, `${JSON.stringify(other, null, 2)}\n`);
      return { text: withServers(current, [['ours', { command: 'ours' }]]), result: {} };
    });
    expect(runs).toBe(2);
    expect(value(file)).toEqual({ mcpServers: { theirs: { command: 'theirs' }, ours: { command: 'ours' } } });
  });

  it("G13: a file that keeps changing is given up on after a few tries with one clear line; the other program's file stays whole", async () => {
    const folder = dir();
    const file = join(folder, 'servers.json');
    writeFileSync(file, '{"mcpServers": {}}');
    let runs = 0;
    const attempt = updateServersFile(file, (current) => {
      runs++;
      writeFileSync(file, JSON.stringify({ mcpServers: { theirs: { command: `v${runs}` } } }));
      return { text: withServers(current, [['ours', { command: 'ours' }]]), result: {} };
    });
    await expect(attempt).rejects.toThrow(ConcurrentChangeError);
    await expect(attempt).rejects.toThrow(
      `${file} was changed by another program while toolsearch was writing it (${MAX_ATTEMPTS} tries); nothing was written: run the command again once it is quiet`,
    );
    expect(runs).toBe(MAX_ATTEMPTS);
    expect(value(file)).toEqual({ mcpServers: { theirs: { command: `v${MAX_ATTEMPTS}` } } });
    // No temporary file is left behind.
    expect(readdirSync(folder)).toEqual(['servers.json']);
  });

  it('G13: a reader in another process never sees half a file while entries are added and removed', async () => {
    const file = join(dir(), 'servers.json');
    writeFileSync(file, JSON.stringify({ toolSearch: { mode: 'always' }, mcpServers: {} }));
    // Reads the file as fast as it can until told to stop; prints how many reads parsed and how many did not.
    const reader = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); let ok = 0, bad = 0, stop = false;
         process.stdin.on('data', () => { stop = true; });
         process.stdout.write('ready\\n');
         (function loop() {
           for (let i = 0; i < 50; i++) { try { JSON.parse(fs.readFileSync(process.argv[1], 'utf8')); ok++; } catch { bad++; } }
           if (stop) { process.stdout.write(JSON.stringify({ ok, bad })); process.exit(0); }
           setImmediate(loop);
         })();`,
        file,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let output = '';
    reader.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.startsWith('ready\n'), 'the reader to start', 30_000);
    const big = { command: 'node', args: Array.from({ length: 400 }, (_, i) => `--argument-${i}`) };
    for (let round = 0; round < 40; round++) {
      await updateServersFile(file, (current) => ({ text: withServers(current, [[`s${round}`, big]]), result: {} }));
      await updateServersFile(file, (current) => ({ text: withoutServer(current, `s${round}`), result: {} }));
    }
    reader.stdin.write('stop\n');
    await new Promise((resolve) => reader.once('exit', resolve));
    const counts = JSON.parse(output.slice('ready\n'.length)) as { ok: number; bad: number };
    expect(counts.bad).toBe(0);
    expect(counts.ok).toBeGreaterThan(0);
    expect(value(file)).toEqual({ toolSearch: { mode: 'always' }, mcpServers: {} });
  });

  it('G13: a link is followed (the file it points to changes, the link stays); the mode is kept; a new file is owner-only', async () => {
    const folder = dir();
    const real = join(folder, 'real.json');
    writeFileSync(real, '{"mcpServers": {}}\n');
    chmodSync(real, 0o640);
    const link = join(folder, 'servers.json');
    symlinkSync(real, link);
    await updateServersFile(link, (current) => ({ text: withServers(current, [['a', { command: 'a' }]]), result: {} }));
    expect(statSync(link, { throwIfNoEntry: false })?.isFile()).toBe(true);
    expect(readdirSync(folder).sort()).toEqual(['real.json', 'servers.json']);
    expect(value(real)).toEqual({ mcpServers: { a: { command: 'a' } } });
    expect(statSync(real).mode & 0o777).toBe(0o640);
    const fresh = join(folder, 'deeper', 'new.json');
    await updateServersFile(fresh, (current) => ({
      text: withServers(current, [['a', { command: 'a' }]]),
      result: {},
    }));
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
  });

  it('G13: a change that would make a file the gateway refuses is not written', async () => {
    const file = join(dir(), 'servers.json');
    const before = '{\n  "mcpServers": {\n    "a": { "command": "a" }\n  }\n}\n';
    writeFileSync(file, before);
    const attempt = updateServersFile(file, (current) => ({
      text: withServers(current, [['bad__name', { command: 'x' }]]),
      result: {},
    }));
    await expect(attempt).rejects.toThrow(ServersFileError);
    await expect(attempt).rejects.toThrow(
      /the change would make a file the gateway refuses \(.*"__".*\); nothing was written/,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('G13: entries go into the section the file has (VS Code\'s "servers"), every other byte kept', async () => {
    const file = join(dir(), 'servers.json');
    const before =
      '{\n    "servers": {\n        "a": {"command": "a"}\n    },\n    "toolSearch": {"mode": "auto"}\n}\n';
    writeFileSync(file, before);
    await updateServersFile(file, (current) => ({ text: withServers(current, [['b', { command: 'b' }]]), result: {} }));
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n    "servers": {\n        "a": {"command": "a"},\n        "b": {\n            "command": "b"\n        }\n    },\n    "toolSearch": {"mode": "auto"}\n}\n',
    );
  });
});
