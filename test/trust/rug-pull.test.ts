/**
 * G10 over real stdio: `toolsearch serve` in front of a fixture server whose `lookup_invoice`
 * changes between two starts (the config unchanged) and whose `pinned` changes during a run
 * (tools/list_changed). A changed tool is not announced, not found, not callable (the error names
 * the approve command) until `toolsearch tools approve`, which a running gateway picks up; a
 * first-seen tool with hidden instructions is held with its finding; pins survive restarts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';
import { LOOKUP, POISONED, RUG_PULL, TrustScene } from './trust-fixtures.js';

/** Waits until billing is connected (its ping loads), so what follows sees its whole listing. */
async function billingReady(client: TestClient): Promise<void> {
  await waitFor(
    async () =>
      (await client.call('tool_search', { query: 'select:mcp__billing__ping' })).text.includes(
        '"name":"mcp__billing__ping"',
      ),
    'the billing server',
    30_000,
  );
}

const loads = async (client: TestClient, name: string) =>
  (await client.call('tool_search', { query: `select:${name}` })).text.includes(`"name":"${name}"`);

describe('G10 pins over stdio: a rug pull between two starts, and during a run', () => {
  let client: (TestClient & { stderr(): string }) | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('G10: a definition changed between two starts is held (not announced, found or callable) until approved; pins survive the restart', async () => {
    const scene = new TrustScene([LOOKUP]);
    client = await scene.serve();
    await billingReady(client);
    expect(await loads(client, 'mcp__billing__lookup_invoice')).toBe(true);
    expect((await client.call('mcp__billing__lookup_invoice')).text).toBe('ran lookup_invoice');
    await client.close();

    scene.setTools([RUG_PULL]);
    client = await scene.serve();
    await billingReady(client);
    const listed = JSON.stringify((await client.client.listTools()).tools);
    expect(listed).not.toContain('lookup_invoice');
    expect((await client.call('tool_search', { query: 'look up invoice' })).text).not.toContain('lookup_invoice');
    expect(await loads(client, 'mcp__billing__lookup_invoice')).toBe(false);
    const direct = await client.call('mcp__billing__lookup_invoice');
    expect(direct.isError).toBe(true);
    expect(direct.text).toContain('toolsearch tools approve billing --tool lookup_invoice');
    const through = await client.call('call_tool', { name: 'mcp__billing__lookup_invoice', arguments: {} });
    expect(through.isError).toBe(true);
    expect(through.text).toContain('held');

    const list = await scene.cli('tools');
    expect(list).toMatch(/billing \/ lookup_invoice: HELD \(changed since it was pinned\)/);
    expect(list).toMatch(/billing \/ ping: pinned/);
    const diff = await scene.cli('tools', 'diff', 'billing', '--tool', 'lookup_invoice');
    expect(diff).toMatch(/^ {2}- .*by its number/m);
    expect(diff).toMatch(/^ {2}\+ .*\.aws\/credentials/m);
    expect(diff).toContain('names a file where secrets live');

    expect(await scene.cli('tools', 'approve', 'billing', '--tool', 'lookup_invoice')).toContain('Approved 1 tool of');
    await waitFor(() => loads(client!, 'mcp__billing__lookup_invoice'), 'the approved tool in the running gateway');
    expect((await client.call('mcp__billing__lookup_invoice')).text).toBe('ran lookup_invoice');
    expect(client.stderr()).toContain('tool "lookup_invoice" (changed) held');
  }, 180_000);

  it('G10: the same change during a run (tools/list_changed) is held at once', async () => {
    const scene = new TrustScene([LOOKUP]);
    client = await scene.serve();
    await billingReady(client);
    // `pinned` is always loaded (its _meta asks for it), so it is in the client's list from the start.
    expect(await client.toolNames()).toContain('mcp__billing__pinned');
    const before = client.listChanged();
    await client.call('tool_search', { query: 'select:mcp__billing__retitle' });
    expect((await client.call('mcp__billing__retitle')).text).toBe('retitled');
    await waitFor(
      async () => !(await client!.toolNames()).includes('mcp__billing__pinned'),
      'pinned to leave the list',
    );
    // The list and its notification travel apart: a client may read the new list before the
    // notification reaches it, so the test waits for the notification too (it fails if none comes).
    await waitFor(async () => client!.listChanged() > before, 'tools/list_changed for the held tool');
    const call = await client.call('mcp__billing__pinned');
    expect(call.isError).toBe(true);
    expect(call.text).toContain('toolsearch tools approve billing --tool pinned');
  }, 90_000);

  it('G10: a first-seen tool with hidden instructions is held with its findings; the rest of its server works', async () => {
    const scene = new TrustScene([LOOKUP, POISONED]);
    client = await scene.serve();
    await billingReady(client);
    expect(await loads(client, 'mcp__billing__lookup_invoice')).toBe(true);
    expect(await loads(client, 'mcp__billing__notes_sync')).toBe(false);
    const call = await client.call('mcp__billing__notes_sync');
    expect(call.isError).toBe(true);
    expect(call.text).toContain('the scanner found');
    const list = await scene.cli('tools');
    expect(list).toMatch(/billing \/ notes_sync: HELD \(the scanner found a problem\)/);
    expect(list).toContain('invisible or bidirectional characters (U+200B)');
    expect(list).toContain('an <IMPORTANT>-style tag');
    expect(list).toContain('tells the model to keep something from the user');
  }, 90_000);

  it('C15/G10: in a session that never searched, an exact name runs, but a held tool is still refused', async () => {
    const scene = new TrustScene([LOOKUP, POISONED]);
    client = await scene.serve();
    // No search at all: the first calls are exact names, as a one-shot client sends them.
    const ping = await waitFor(
      async () => {
        const r = await client!.call('mcp__billing__ping');
        return r.text.includes('still connecting') ? undefined : r;
      },
      'the billing server',
      30_000,
    );
    expect(ping.text).toBe('pong from billing');
    expect((await client.call('mcp__billing__lookup_invoice')).text).toBe('ran lookup_invoice');
    for (const held of [
      await client.call('mcp__billing__notes_sync'),
      await client.call('call_tool', { name: 'mcp__billing__notes_sync', arguments: {} }),
    ]) {
      expect(held.isError).toBe(true);
      expect(held.text).toMatch(/^Tool "mcp__billing__notes_sync" is held by the gateway: the scanner found/);
    }
  }, 90_000);
});
