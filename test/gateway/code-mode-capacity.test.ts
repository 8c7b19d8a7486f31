/**
 * G11 over real HTTP: one client cannot take code mode from everyone. A real `toolsearch serve
 * --http` with code mode, the real server-memory from npm, and a token file of one token per client
 * (sessions/identity.ts: each token is a client). 30 scripts at once from one client: two run, two
 * wait, the rest are refused naming `runsPerClient`, and another client still runs its script; the
 * memory bound refuses a script naming `totalMemoryBytes`; a script firing 1,000 calls at once ends
 * with the call limit. No timings: the test waits on answers and on the gateway's own count.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { DEFAULT_SANDBOX_LIMITS } from '../../src/sandbox/limits.js';
import { runReservation } from '../../src/sandbox/capacity.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { serveHttp, type Served } from '../fixtures/serve-http.js';
import { waitFor } from '../fixtures/wait.js';

function setup(limits: Record<string, number> = {}): { config: string; tokens: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ts-code-capacity-'));
  const config = join(dir, 'mcp.json');
  const tokens = join(dir, 'tokens.txt');
  const memory = referenceServerConfig('memory', { memoryFile: join(dir, 'memory.jsonl') });
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { memory }, toolSearch: { codeMode: { limits }, learning: false } }),
  );
  writeFileSync(tokens, 'token-alice\ntoken-bob\n');
  return { config, tokens };
}

const client = (served: Served, token: string) => httpClient(served.http!.url, { authorization: `Bearer ${token}` });

/** A run_code call the test can cancel; its text, or the error it was cancelled with. */
function cancellableRun(c: TestClient, code: string): { answer: Promise<string>; cancel(): void } {
  const controller = new AbortController();
  const answer = c.client
    .callTool({ name: 'run_code', arguments: { code } }, undefined, { signal: controller.signal, timeout: 600_000 })
    .then(
      (result) => (result.content as { type: string; text?: string }[]).map((x) => x.text ?? '').join('\n'),
      (error: Error) => `cancelled: ${error.message}`,
    );
  return { answer, cancel: () => controller.abort() };
}

describe('G11: code mode’s slots over HTTP, per client', () => {
  it('G11: 30 runs at once from one client: 2 run, 2 wait, 26 are refused naming runsPerClient; another client still gets a slot', async () => {
    const { config, tokens } = setup({ timeoutMs: 600_000 });
    const served = await serveHttp({ config, tokenFile: tokens });
    try {
      const alice = await client(served, 'token-alice');
      const bob = await client(served, 'token-bob');
      const runs = Array.from({ length: 30 }, () => cancellableRun(alice, 'while (true) {}'));
      // The refusals answer at once; the four admitted (two running, two waiting) stay open.
      const answered: string[] = [];
      for (const run of runs) void run.answer.then((text) => answered.push(text));
      await waitFor(() => answered.length >= 26, '26 runs refused', 120_000);
      expect(answered).toHaveLength(26);
      for (const text of answered)
        expect(text).toMatch(/run_code failed: Code mode is busy for this client: .*\(limit runsPerClient = 2\)/);
      expect(served.stack.gateway.codeRuns).toMatchObject({ running: 2, waiting: 2 });
      // Bob is another client (another token): his script runs while Alice's loops hold her share.
      expect((await bob.call('run_code', { code: 'return 40 + 2;' })).text).toBe('42');
      for (const run of runs) run.cancel();
      await Promise.all(runs.map((run) => run.answer));
      await waitFor(() => served.stack.gateway.codeRuns?.running === 0, 'the cancelled runs ended', 120_000);
      expect(served.stack.gateway.codeRuns).toMatchObject({ running: 0, waiting: 0 });
      expect((await alice.call('run_code', { code: 'return 1;' })).text).toBe('1');
      await alice.close();
      await bob.close();
    } finally {
      await served.stack.close();
    }
  }, 300_000);

  it('G11: when the running scripts hold totalMemoryBytes, the next waits queueWaitMs and is refused naming it', async () => {
    // Room for one script's reservation (its engine's ceiling and its thread), not two.
    const one = runReservation(DEFAULT_SANDBOX_LIMITS);
    const { config, tokens } = setup({ timeoutMs: 600_000, totalMemoryBytes: one + 1024, queueWaitMs: 200 });
    const served = await serveHttp({ config, tokenFile: tokens });
    try {
      const alice = await client(served, 'token-alice');
      const bob = await client(served, 'token-bob');
      const loop = cancellableRun(alice, 'while (true) {}');
      await waitFor(() => served.stack.gateway.codeRuns?.running === 1, 'one run started', 120_000);
      const refused = await bob.call('run_code', { code: 'return 1;' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(
        /waited 200 ms for a slot \(limit queueWaitMs\) and the running scripts hold .* \(limit totalMemoryBytes\)/,
      );
      loop.cancel();
      await loop.answer;
      await waitFor(() => served.stack.gateway.codeRuns?.running === 0, 'the loop ended', 120_000);
      expect((await bob.call('run_code', { code: 'return 1;' })).text).toBe('1');
      await alice.close();
      await bob.close();
    } finally {
      await served.stack.close();
    }
  }, 300_000);

  it('G11: a script firing 1,000 calls at once ends with the call limit, and the next script runs', async () => {
    const { config, tokens } = setup();
    const served = await serveHttp({ config, tokenFile: tokens });
    try {
      const alice = await client(served, 'token-alice');
      const storms = await Promise.all(
        Array.from({ length: 3 }, () =>
          alice.call('run_code', {
            code: `await Promise.all(Array.from({ length: 1000 }, () => call('mcp__memory__read_graph', {}))); return 'all';`,
          }),
        ),
      );
      for (const storm of storms)
        expect(storm.text).toBe(
          `run_code failed: Limit maxCalls reached: the script made more than ${DEFAULT_SANDBOX_LIMITS.maxCalls} search() and call() calls.`,
        );
      expect((await alice.call('run_code', { code: 'return 7;' })).text).toBe('7');
      await alice.close();
    } finally {
      await served.stack.close();
    }
  }, 300_000);
});
