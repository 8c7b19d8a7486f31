/**
 * G5/G10 — the trust gate judging listings in slices (so a 20,000-tool listing does not stall the
 * gateway): listings of two servers judged at the same time both land in the pins, and a pins
 * file read while this gateway's own writes are still on their way does not take it back to an
 * older state (the watcher fires for each write), and the pins file is not parsed again while it
 * is the version this handle last read or wrote.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PinFile } from '../../src/mcp/pin-store.js';
import { TrustGate } from '../../src/mcp/trust-gate.js';

const config = (name: string) => ({ command: 'node', args: [`${name}.js`] });
const tools = (prefix: string, count: number, text = 'Does a thing.') =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, description: `${text} (${i})`, inputSchema: {} }));

async function gate(): Promise<{ gate: TrustGate; file: PinFile }> {
  const file = new PinFile(join(mkdtempSync(join(tmpdir(), 'ts-gate-slices-')), 'tool-pins.json'));
  const trust = new TrustGate(file);
  await trust.load([
    { name: 'alpha', config: config('alpha') },
    { name: 'beta', config: config('beta') },
  ]);
  return { gate: trust, file };
}

describe('G5/G10: the trust gate in slices', () => {
  it('G5: two servers judged at the same time, in slices that interleave: both are pinned', async () => {
    const { gate: trust, file } = await gate();
    const [a, b] = await Promise.all([
      trust.review('alpha', config('alpha'), tools('a', 3_000), new Map(), { sliceMs: 1 }),
      trust.review('beta', config('beta'), tools('b', 3_000), new Map(), { sliceMs: 1 }),
    ]);
    expect([a.size, b.size]).toEqual([0, 0]);
    expect(Object.keys(trust.document.servers['alpha']!.tools)).toHaveLength(3_000);
    expect(Object.keys(trust.document.servers['beta']!.tools)).toHaveLength(3_000);
    await trust.flush();
    const stored = await file.read();
    expect(Object.keys(stored.servers['alpha']!.tools)).toHaveLength(3_000);
    expect(Object.keys(stored.servers['beta']!.tools)).toHaveLength(3_000);
    await trust.close();
  });

  it('G10: a change held, then the file read before that hold was written: the hold stays', async () => {
    const { gate: trust } = await gate();
    await trust.review('alpha', config('alpha'), tools('a', 10), new Map());
    await trust.flush();
    const held = await trust.review('alpha', config('alpha'), tools('a', 10, 'Now does another thing.'), new Map());
    expect(held.size).toBe(10);
    // The watcher fired for the first write; the second is still on its way.
    await trust.refresh();
    expect(trust.isHeld('alpha', 'a0')).toBe(true);
    await trust.flush();
    await trust.refresh();
    expect(trust.isHeld('alpha', 'a0')).toBe(true);
    await trust.close();
  });

  it('G5: the pins file is read again only when it changed: a write by another process is seen', async () => {
    const { file } = await gate();
    const first = await file.read();
    expect(await file.read()).toBe(first);
    const written = await file.update((doc) => ({ ...doc, baseline: 'by this handle' }));
    expect(await file.read()).toBe(written);
    // Another process (`toolsearch tools approve`) writes the file: a new version, read again.
    await new PinFile(file.path).update((doc) => ({ ...doc, baseline: 'by another process' }));
    const fresh = await file.read();
    expect(fresh).not.toBe(written);
    expect(fresh.baseline).toBe('by another process');
  });
});
