/**
 * H1/G7 — `toolsearch demo` (what `npm start` runs) keeps its state in a folder of its own, never
 * in the user's state directory that every clone shares, removes it when it stops, and suggests a
 * stdio command that works from a clone (the package is not on the npm registry). The real CLI.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { stdioCommand } from '../../src/cli/commands/demo.js';
import { cliArgs } from '../fixtures/cli.js';

describe('H1: the demo', () => {
  it("G7: the demo's state stays out of the user's state directory and is removed when it stops", async () => {
    const home = mkdtempSync(join(tmpdir(), 'ts-demo-home-'));
    const userState = join(home, 'state');
    const xdgState = join(home, 'xdg-state');
    const cwd = mkdtempSync(join(tmpdir(), 'ts-demo-cwd-'));
    const child = spawn(process.execPath, cliArgs('demo', '--http', '127.0.0.1:0', '--log-level', 'warn'), {
      cwd,
      env: { ...process.env, HOME: home, TOOLSEARCH_STATE_DIR: userState, XDG_STATE_HOME: xdgState },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    const lines: string[] = [];
    try {
      await new Promise<void>((done, fail) => {
        child.once('exit', (code) => fail(new Error(`demo exited with ${code}: ${lines.join('\n')}`)));
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line.includes('Ctrl-C to stop')) done();
        });
      });
      const text = lines.join('\n');
      expect(text).toMatch(/call_tool → mcp__everything__echo/);
      const state = /The demo keeps its state in (\S+) \(removed when it stops\)\./.exec(text)?.[1];
      expect(state).toBeDefined();
      expect(existsSync(join(state!, 'tool-pins.json'))).toBe(true);
      expect(text).toMatch(/or run "node \S+main\.[jt]s serve" for stdio/);
      expect(text).not.toContain('npx toolsearch');
      child.removeAllListeners('exit');
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT');
      await exited;
      expect(existsSync(state!)).toBe(false);
      expect(existsSync(userState) ? readdirSync(userState) : []).toEqual([]);
      expect(existsSync(xdgState) ? readdirSync(xdgState) : []).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('H1: the suggested stdio command: `toolsearch serve` through the bin, else node with the absolute script path', () => {
    expect(stdioCommand('/usr/local/bin/toolsearch')).toBe('toolsearch serve');
    expect(stdioCommand('/home/you/toolsearch/dist/cli/main.js')).toBe(
      'node /home/you/toolsearch/dist/cli/main.js serve',
    );
    expect(stdioCommand('/home/you/my clone/dist/cli/main.js')).toBe(
      'node "/home/you/my clone/dist/cli/main.js" serve',
    );
  });
});
