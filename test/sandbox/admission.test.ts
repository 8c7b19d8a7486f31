/**
 * G11 — the sandbox's pool as a whole: a cap on scripts running at once, a per-client share of it,
 * a bounded queue with its own wait limit, and a bound on the memory the running scripts hold
 * together. Each refusal names its knob. (Over real HTTP: test/gateway/code-mode-capacity.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { RunAdmission, type RunRefusal, type RunTicket } from '../../src/sandbox/admission.js';
import {
  DEFAULT_RUN_CAPACITY,
  resolveRunCapacity,
  runReservation,
  splitCodeModeLimits,
} from '../../src/sandbox/capacity.js';
import { CodeSandbox, resolveSandboxLimits } from '../../src/sandbox/index.js';

type Admitted = RunTicket | RunRefusal | { cancelled: true };
const isTicket = (a: Admitted): a is RunTicket => 'release' in a;
const refusal = (a: Admitted) => ('refused' in a ? a.refused : undefined);

function pool(overrides: Partial<typeof DEFAULT_RUN_CAPACITY> = {}, reservation = 1) {
  return new RunAdmission({ ...DEFAULT_RUN_CAPACITY, ...overrides }, reservation);
}

describe('G11: how many scripts run at once', () => {
  it('G11: a client takes at most runsPerClient slots and waits with as many more; the rest is refused naming the knob', async () => {
    const admission = pool({ concurrentRuns: 4, runsPerClient: 2 });
    const first = await Promise.all([admission.admit('a'), admission.admit('a')]);
    expect(first.every(isTicket)).toBe(true);
    const waiting = [admission.admit('a'), admission.admit('a')];
    const refused = await admission.admit('a');
    expect(refusal(refused)).toBe('runsPerClient');
    expect((refused as RunRefusal).message).toMatch(/2 scripts running and 2 waiting \(limit runsPerClient = 2\)/);
    expect(admission.load).toMatchObject({ running: 2, waiting: 2 });
    // Another client still gets a slot at once.
    const other = await admission.admit('b');
    expect(isTicket(other)).toBe(true);
    // A freed slot of a goes to a's first waiting script.
    (first[0] as RunTicket).release();
    expect(isTicket(await waiting[0]!)).toBe(true);
    expect(admission.load).toMatchObject({ running: 3, waiting: 1 });
  });

  it('G11: the queue holds at most queuedRuns; a freed slot goes to the first waiting script that may take it', async () => {
    const admission = pool({ concurrentRuns: 2, runsPerClient: 1, queuedRuns: 2 });
    const a = (await admission.admit('a')) as RunTicket;
    const b = (await admission.admit('b')) as RunTicket;
    const aWaits = admission.admit('a');
    const cWaits = admission.admit('c');
    expect(refusal(await admission.admit('d'))).toBe('queuedRuns');
    // b ends: a may not take it (its share is full), c may.
    b.release();
    expect(isTicket(await cWaits)).toBe(true);
    a.release();
    expect(isTicket(await aWaits)).toBe(true);
  });

  it('G11: a script that waits past queueWaitMs is refused naming the knob; one whose request is cancelled leaves the queue', async () => {
    const admission = pool({ concurrentRuns: 1, queueWaitMs: 50 });
    const held = (await admission.admit('a')) as RunTicket;
    const late = await admission.admit('b');
    expect(refusal(late)).toBe('queueWaitMs');
    expect((late as RunRefusal).message).toMatch(/waited 50 ms for a slot \(limit queueWaitMs\)/);
    const controller = new AbortController();
    const cancelled = admission.admit('c', controller.signal);
    controller.abort();
    expect(await cancelled).toEqual({ cancelled: true });
    expect(admission.load.waiting).toBe(0);
    held.release();
    expect(admission.load.running).toBe(0);
  });

  it('G11: the running scripts’ memory is bounded by totalMemoryBytes: the next waits, and is refused naming it', async () => {
    const admission = pool({ concurrentRuns: 8, totalMemoryBytes: 250, queueWaitMs: 50 }, 100);
    const one = (await admission.admit('a')) as RunTicket;
    expect(isTicket(await admission.admit('b'))).toBe(true);
    const third = await admission.admit('c');
    expect(refusal(third)).toBe('totalMemoryBytes');
    expect((third as RunRefusal).message).toMatch(/hold 200 bytes of the 250 bytes code mode may use/);
    one.release();
    expect(isTicket(await admission.admit('c'))).toBe(true);
  });

  it('G11: every capacity knob has a default and a checked range; one run that cannot fit is a config error', () => {
    expect(resolveRunCapacity({})).toEqual(DEFAULT_RUN_CAPACITY);
    expect(() => resolveRunCapacity({ concurrentRuns: 0 })).toThrow(/concurrentRuns.*whole number/);
    expect(() => resolveRunCapacity({ runsPerClients: 2 })).toThrow(/Unknown code-mode capacity "runsPerClients"/);
    const limits = resolveSandboxLimits({ memoryBytes: 512 * 1024 * 1024 });
    expect(runReservation(limits)).toBeGreaterThan(DEFAULT_RUN_CAPACITY.totalMemoryBytes);
    expect(() => resolveRunCapacity({}, limits)).toThrow(/totalMemoryBytes.*cannot hold one script/);
    // toolSearch.codeMode.limits holds both kinds; each is checked by its own side.
    expect(splitCodeModeLimits({ timeoutMs: 5, concurrentRuns: 3 })).toEqual({
      limits: { timeoutMs: 5 },
      capacity: { concurrentRuns: 3 },
    });
    expect(() => resolveSandboxLimits({ concurentRuns: 3 })).toThrow(/concurrentRuns, runsPerClient/);
  });
});

describe('G11: one script’s memory', () => {
  it('G11: strings and arrays that grow past memoryBytes end the run at memoryBytes (the engine’s memory has a ceiling)', async () => {
    const sandbox = new CodeSandbox({ limits: { memoryBytes: 16 * 1024 * 1024, timeoutMs: 120_000 }, idleWorkers: 0 });
    const host = { search: async () => [], call: async () => ({}) };
    try {
      for (const code of [
        `const a = []; for (let i = 0; i < 300; i++) a.push('x'.repeat(1000000) + i); return a.length;`,
        `const a = []; for (let i = 0; i < 300; i++) a.push(new Array(250000).fill(i)); return a.length;`,
        `return 'x'.repeat(500000000).length;`,
      ]) {
        const outcome = await sandbox.run(code, host);
        expect(outcome, code).toMatchObject({ ok: false, error: { kind: 'limit', limit: 'memoryBytes' } });
      }
    } finally {
      sandbox.close();
    }
  }, 400_000);
});
