/**
 * E5 over stdio, the everyday session as a behaviour: eight plain requests against
 * `toolsearch serve --mode always` in front of the real bundled servers (a temporary root and
 * memory file, its own state directory), each a search and a call of the tool it needs. The
 * median answer stays short, every tool list keeps the previous one as its prefix, and the session
 * ends carrying at most half of loading every tool. (bench:session prints the same figures.)
 */
import { describe, expect, it } from 'vitest';
import { median } from '../../bench/session-sim.js';
import { runEveryday } from '../../bench/session-stdio.js';
import { cliArgs } from '../fixtures/cli.js';

describe('E5 an everyday session over stdio', () => {
  it('compact answers, prefix-stable lists, and a session that ends at most half of eager', async () => {
    // The gateway starts in a temporary directory with a state directory of its own (runEveryday).
    const r = await runEveryday(cliArgs());
    expect(r.answers).toHaveLength(8);
    expect(median(r.answers)).toBeLessThanOrEqual(300);
    expect(r.prefixKept).toBe(r.prefixChecks);
    expect(r.endTokens).toBeLessThanOrEqual(r.eagerTokens / 2);
    expect(r.endTokens).toBeLessThanOrEqual(r.startTokens + 1.5 * r.calledTokens);
  }, 120_000);
});
