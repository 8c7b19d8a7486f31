/**
 * G13 — the connect deadline's rules on a fake clock: an install that moves is not ended, a quiet
 * one is (but a pause of this process alone is not a quiet install), the install has a limit of its
 * own, and from the server's first byte the ordinary connect timeout runs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectDeadline, type ConnectDeadlineError } from '../../src/mcp/connect-deadline.js';

const runner = { runner: 'npx' as const, packageSpec: '@acme/mcp@1.0.0', cacheDir: '/home/u/.npm' };

function deadline(options: { timeoutMs?: number; totalMs?: number } = {}) {
  const watch = { changes: 0, stopped: false, stop: () => void (watch.stopped = true) };
  const expired: ConnectDeadlineError[] = [];
  const long: number[] = [];
  const connect = new ConnectDeadline({
    timeoutMs: options.timeoutMs ?? 1_000,
    install: { runner, totalMs: options.totalMs ?? 60_000, commandLine: 'npx -y @acme/mcp@1.0.0' },
    onExpired: (error) => expired.push(error),
    onLongInstall: (ms) => long.push(ms),
    watch: () => watch,
  });
  return { connect, watch, expired, long };
}

describe('G13: the connect deadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('G13: an install whose cache folder keeps changing runs past the connect timeout; a quiet one is ended', () => {
    const { connect, watch, expired, long } = deadline();
    for (let i = 0; i < 40; i++) {
      watch.changes++;
      vi.advanceTimersByTime(250);
    }
    expect(expired).toEqual([]);
    expect(connect.isInstalling).toBe(true);
    expect(long).toEqual([1_000]);
    vi.advanceTimersByTime(1_000);
    expect(expired.map((e) => e.message)).toEqual([
      'npx made no progress for 1 s while installing @acme/mcp@1.0.0 (no output, no change in /home/u/.npm)',
    ]);
    expect(watch.stopped).toBe(true);
  });

  it('G13: a line on stderr counts as progress', () => {
    const { connect, expired } = deadline();
    for (let i = 0; i < 40; i++) {
      connect.progress();
      vi.advanceTimersByTime(250);
    }
    expect(expired).toEqual([]);
  });

  it('G13: a pause of this process (one late sample) is not a quiet install', () => {
    const { watch, expired } = deadline();
    // The clock jumps 5 s between two samples (this process was busy elsewhere), the install had moved.
    vi.setSystemTime(Date.now() + 5_000);
    vi.advanceTimersByTime(250);
    expect(expired).toEqual([]);
    watch.changes++;
    vi.advanceTimersByTime(250);
    vi.advanceTimersByTime(750);
    expect(expired).toEqual([]);
  });

  it('G13: the install limit ends even a moving install, naming the knob', () => {
    const { watch, expired } = deadline({ totalMs: 3_000 });
    for (let i = 0; i < 20; i++) {
      watch.changes++;
      vi.advanceTimersByTime(250);
    }
    expect(expired).toHaveLength(1);
    expect(expired[0]!.message).toBe(
      'npx was still installing @acme/mcp@1.0.0 after 3 s, the install limit (installTimeoutMs)',
    );
    expect(expired[0]!.fix).toMatch(/^run "npx -y @acme\/mcp@1\.0\.0" once by hand .* raise installTimeoutMs/);
  });

  it("G13: from the server's first byte the connect timeout runs, as for any server", () => {
    const { connect, watch, expired } = deadline({ timeoutMs: 1_000 });
    vi.advanceTimersByTime(500);
    connect.running();
    expect(connect.isInstalling).toBe(false);
    expect(watch.stopped).toBe(true);
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired.map((e) => e.message)).toEqual(['timed out after 1000 ms']);
  });

  it('G1: a server started directly has the plain connect timeout', () => {
    const expired: string[] = [];
    const connect = new ConnectDeadline({ timeoutMs: 400, onExpired: (e) => expired.push(e.message) });
    expect(connect.isInstalling).toBe(false);
    vi.advanceTimersByTime(400);
    expect(expired).toEqual(['timed out after 400 ms']);
  });
});
