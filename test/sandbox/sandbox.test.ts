/**
 * G11: the sandbox alone — QuickJS in a worker thread with a host of two plain functions; each
 * limit ends its own run with an error that names it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  CodeSandbox,
  describeFailure,
  resolveSandboxLimits,
  type RunOutcome,
  type SandboxCalls,
} from '../../src/sandbox/index.js';

const host: SandboxCalls = {
  search: async (query, options) => [{ name: `found_${query}`, maxResults: options.maxResults ?? null }],
  call: async (name, args) => {
    if (name === 'broken') throw new Error('the tool broke');
    if (name === 'huge') return 'x'.repeat(2 * 1024 * 1024);
    return { name, args };
  },
};

const sandbox = new CodeSandbox({ limits: { timeoutMs: 5000, memoryBytes: 16 * 1024 * 1024 } });
/**
 * The limits other than time are tested where time cannot end the run first: a memory bomb or a
 * call storm takes CPU to reach its limit, and on a busy machine that took longer than 5 s.
 */
const untimed = new CodeSandbox({ limits: { timeoutMs: 10 * 60_000, memoryBytes: 16 * 1024 * 1024 } });
afterAll(() => {
  sandbox.close();
  untimed.close();
});

function value(outcome: RunOutcome): unknown {
  if (!outcome.ok) throw new Error(`run failed: ${describeFailure(outcome.error)}`);
  return JSON.parse(outcome.json);
}

describe('G11 sandbox', () => {
  it('runs an async body: search, call (also in parallel), console.log, return value', async () => {
    const outcome = await sandbox.run(
      `const hits = await search('files', { maxResults: 2 });
       console.log('found', hits.length, { first: hits[0].name });
       const [a, b] = await Promise.all([call('one', { x: 1 }), call('two')]);
       return { hits, a, b };`,
      host,
    );
    expect(value(outcome)).toEqual({
      hits: [{ name: 'found_files', maxResults: 2 }],
      a: { name: 'one', args: { x: 1 } },
      b: { name: 'two', args: {} },
    });
    expect(outcome.logs).toEqual(['found 1 {"first":"found_files"}']);
    expect(outcome.stats.calls).toBe(3);
  });

  it('returns null when the script returns nothing', async () => {
    expect(value(await sandbox.run('const a = 1;', host))).toBeNull();
  });

  it('a thrown error names the script line; a failed call is catchable', async () => {
    const outcome = await sandbox.run('const a = 1;\n\nthrow new Error("boom");', host);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ kind: 'script', line: 3 });
    expect(describeFailure(outcome.error)).toBe('Error: boom (script line 3)');
    const caught = await sandbox.run(`try { await call('broken'); } catch (e) { return e.message; }`, host);
    expect(value(caught)).toBe('the tool broke');
  });

  it('has no host access: no process, require, fetch, Deno, XMLHttpRequest, timers or modules', async () => {
    const outcome = await sandbox.run(
      `return [typeof process, typeof require, typeof fetch, typeof Deno, typeof XMLHttpRequest,
               typeof setTimeout, typeof setInterval, typeof std, typeof os, typeof module, typeof globalThis.Buffer];`,
      host,
    );
    expect(value(outcome)).toEqual(Array(11).fill('undefined'));
    const imported = await sandbox.run(`const fs = await import('fs'); return typeof fs;`, host);
    expect(imported.ok).toBe(false);
  });

  it('an endless loop ends at timeoutMs', async () => {
    const quick = new CodeSandbox({ limits: { timeoutMs: 1500 }, idleWorkers: 0 });
    const outcome = await quick.run('while (true) {}', host);
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'limit', limit: 'timeoutMs' } });
    if (!outcome.ok) expect(outcome.error.message).toContain('timeoutMs');
  });

  it('a memory bomb ends at memoryBytes', async () => {
    const outcome = await untimed.run(`const a = []; for (;;) a.push({ i: a.length, s: 'y' + a.length });`, host);
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'limit', limit: 'memoryBytes' } });
  });

  it('a storm of 5,000 calls ends at maxCalls, even when the script catches the error', async () => {
    const outcome = await untimed.run(
      `for (let i = 0; i < 5000; i++) { try { await call('one', { i }); } catch {} } return 'went on';`,
      host,
    );
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'limit', limit: 'maxCalls' } });
    expect(outcome.stats.calls).toBe(100);
  });

  it('a call result over maxCallResultBytes is a catchable error; a return over maxReturnBytes ends the run', async () => {
    const big = await sandbox.run(`try { await call('huge'); return 'no'; } catch (e) { return e.message; }`, host);
    expect(value(big)).toContain('maxCallResultBytes');
    const returned = await sandbox.run(`return 'z'.repeat(100000);`, host);
    expect(returned).toMatchObject({ ok: false, error: { kind: 'limit', limit: 'maxReturnBytes' } });
  });

  it('console output past maxLogBytes is cut with a note', async () => {
    const small = new CodeSandbox({ limits: { maxLogBytes: 50 }, idleWorkers: 0 });
    const outcome = await small.run(`for (let i = 0; i < 20; i++) console.log('line ' + i); return 1;`, host);
    expect(outcome.ok).toBe(true);
    expect(outcome.logs.length).toBeLessThan(20);
    expect(outcome.logs.at(-1)).toContain('maxLogBytes');
  });

  it('deep recursion is a script error, not a crash', async () => {
    const outcome = await sandbox.run('function f() { return f() + 1; }\nreturn f();', host);
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'script' } });
    expect(value(await sandbox.run('return 2;', host))).toBe(2);
  });

  it('cancelling ends the run', async () => {
    const controller = new AbortController();
    const running = sandbox.run('while (true) {}', host, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect(await running).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });

  it('reports each call as it starts (for progress)', async () => {
    const seen: string[] = [];
    await sandbox.run(`await search('a'); await call('b');`, host, {
      onCall: (event) => seen.push(`${event.kind}:${event.subject}:${event.count}`),
    });
    expect(seen).toEqual(['search:a:1', 'call:b:2']);
  });

  it('nothing of one run is left for the next (a reused worker gives each run a fresh engine)', async () => {
    const one = new CodeSandbox({ idleWorkers: 1 });
    try {
      expect(value(await one.run('globalThis.leftover = 1; Object.prototype.polluted = 2; return 1;', host))).toBe(1);
      expect(value(await one.run('return [typeof leftover, typeof ({}).polluted];', host))).toEqual([
        'undefined',
        'undefined',
      ]);
      // After a run ended by a limit, the next run still works.
      await one.run('for (let i = 0; i < 500; i++) await call("one"); return 0;', host);
      expect(value(await one.run('return "still here";', host))).toBe('still here');
    } finally {
      one.close();
    }
  });

  it('every limit has a checked knob', () => {
    expect(resolveSandboxLimits({ maxCalls: 5 }).maxCalls).toBe(5);
    expect(() => resolveSandboxLimits({ maxCalls: 0 })).toThrow(/maxCalls/);
    expect(() => resolveSandboxLimits({ timeoutMs: 'long' })).toThrow(/timeoutMs/);
    expect(() => resolveSandboxLimits({ cpu: 1 })).toThrow(/Unknown code-mode limit "cpu"/);
  });
});
