/**
 * G10 over real HTTP: per-tool policy from annotations. A profile with `"allow": ["read"]` cannot
 * find, select or call a destructive tool (clear error) while its reads work, and the main endpoint
 * still has both; `toolSearch.allow` does the same for every client of a gateway.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { waitFor } from '../fixtures/wait.js';
import { DELETE, LOOKUP, POISONED, TrustScene } from './trust-fixtures.js';

const TOKEN = 'trust-policy-token';

const loads = async (client: TestClient, name: string) =>
  (await client.call('tool_search', { query: `select:${name}` })).text.includes(`"name":"${name}"`);

async function start(scene: TrustScene): Promise<{ served: Served; base: string }> {
  const served = await serveHttp({ config: scene.config, token: TOKEN });
  await waitFor(() => served.stack.hub.status().every((s) => s.state === 'connected'), 'billing to connect', 30_000);
  return { served, base: new URL(served.http!.url).origin };
}

describe('G10 policy classes over HTTP', () => {
  const clients: TestClient[] = [];
  let served: Served | undefined;
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await served?.http?.close();
    await served?.stack.close();
    served = undefined;
  });
  const connect = async (url: string) => {
    const client = await httpClient(url, { authorization: `Bearer ${TOKEN}` });
    clients.push(client);
    return client;
  };

  it('G10: an allow ["read"] profile cannot find or call a destructive tool while reads work', async () => {
    const scene = new TrustScene(
      [LOOKUP, DELETE],
      {},
      { profiles: { readers: { servers: ['billing'], allow: ['read'] } } },
    );
    const started = await start(scene);
    served = started.served;
    const readers = await connect(`${started.base}/mcp/readers`);
    const search = await readers.call('tool_search', { query: 'invoice' });
    expect(search.text).toContain('lookup_invoice');
    expect(search.text).not.toContain('delete_invoice');
    // G10/C15: the answer says the search was narrowed, how much and why (without the hidden name).
    expect(search.text).toMatch(
      /^Left out by policy: 1 more tool matches but is not offered to this client \(it: it is destructive, and profile "readers" allows only read\)\.$/m,
    );
    // So does browsing the server: its hidden tools are counted, never named.
    const browse = (await readers.call('tool_search', { query: 'mcp__billing' })).text;
    expect(browse).toMatch(/^Left out by policy: \d+ more tools match but are not offered to this client/m);
    expect(browse).not.toContain('delete_invoice');
    expect(await loads(readers, 'mcp__billing__delete_invoice')).toBe(false);
    expect((await readers.call('tool_search', { query: 'select:mcp__billing__delete_invoice' })).text).toContain(
      'mcp__billing__delete_invoice: may not be used here: it is destructive',
    );
    for (const call of [
      await readers.call('mcp__billing__delete_invoice'),
      await readers.call('call_tool', { name: 'mcp__billing__delete_invoice', arguments: {} }),
    ]) {
      expect(call.isError).toBe(true);
      expect(call.text).toMatch(/may not be used here: it is destructive.*profile "readers" allows only read/);
    }
    // The fixture's own tools say nothing about themselves: the cautious reading keeps them out too.
    expect((await readers.call('mcp__billing__ping')).text).toMatch(/may not be used here.*gives no annotations/);
    expect(await loads(readers, 'mcp__billing__lookup_invoice')).toBe(true);
    expect((await readers.call('mcp__billing__lookup_invoice')).text).toBe('ran lookup_invoice');

    const main = await connect(`${started.base}/mcp`);
    expect(await loads(main, 'mcp__billing__delete_invoice')).toBe(true);
    expect((await main.call('mcp__billing__delete_invoice')).text).toBe('ran delete_invoice');
  }, 90_000);

  it('G10: toolSearch.allow ["read"] applies to every client of the gateway', async () => {
    const scene = new TrustScene([LOOKUP, DELETE], { allow: ['read'] });
    const started = await start(scene);
    served = started.served;
    const main = await connect(`${started.base}/mcp`);
    const search = (await main.call('tool_search', { query: 'invoice' })).text;
    expect(search).not.toContain('delete_invoice');
    expect(search).toMatch(
      /^Left out by policy: 1 more tool matches but is not offered to this client \(it: it is destructive, and this gateway \(toolSearch\.allow\) allows only read\)\.$/m,
    );
    const call = await main.call('mcp__billing__delete_invoice');
    expect(call.isError).toBe(true);
    expect(call.text).toMatch(/may not be used here: it is destructive.*toolSearch.allow/);
    expect((await main.call('call_tool', { name: 'mcp__billing__lookup_invoice', arguments: {} })).text).toBe(
      'ran lookup_invoice',
    );
  }, 90_000);

  it('G10: the status data lists held tools with why, findings, the diff and the approve command', async () => {
    const scene = new TrustScene([LOOKUP, POISONED]);
    const started = await start(scene);
    served = started.served;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const status = (await (await fetch(`${started.base}/status.json`, { headers: auth })).json()) as {
      held: { server: string; tool: string; why: string; findings: string[]; diff: string[]; approve: string }[];
    };
    const held = status.held.find((h) => h.server === 'billing' && h.tool === 'notes_sync');
    expect(held?.why).toContain('the scanner found');
    expect(held?.findings.join('\n')).toContain('high: invisible or bidirectional characters (U+200B)');
    expect(held?.diff.some((line) => line.startsWith('+ ') && line.includes('<IMPORTANT>'))).toBe(true);
    expect(held?.approve).toMatch(/^toolsearch tools approve billing --tool notes_sync --hash sha256:[0-9a-f]{64}$/);
    expect(await (await fetch(`${started.base}/status`)).text()).toContain('id="held-panel"');
  }, 90_000);
});
