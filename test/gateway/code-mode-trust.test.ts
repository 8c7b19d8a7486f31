/**
 * G11 × G10 over real HTTP and stdio: a script's `search()` and `call()` go through the session's
 * own search and call path, so what the trust gate holds (a definition changed since it was
 * pinned, a first-seen tool with hidden instructions) and what a policy keeps from a client
 * (`allow: ["read"]`, per profile or for the whole gateway) is neither found nor callable from
 * `run_code`, with an error that says why, while the tools it may use work.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { waitFor } from '../fixtures/wait.js';
import { DELETE, LOOKUP, POISONED, RUG_PULL, TrustScene } from '../trust/trust-fixtures.js';

const TOKEN = 'code-mode-trust-token';

/** Runs `code` with `run_code`; its return value, parsed (the run must not fail). */
async function script(client: TestClient, code: string): Promise<Record<string, unknown>> {
  const result = await client.call('run_code', { code });
  expect(result.isError, result.text).not.toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
}

/** What a script's search and select find of `names`, and what each `call(name, {})` did. */
function probeScript(query: string, names: readonly string[]): string {
  return `
const found = (await search(${JSON.stringify(query)}, { maxResults: 10 })).map((h) => h.name);
const selected = (await search(${JSON.stringify(`select:${names.join(',')}`)})).map((h) => h.name);
const calls = {};
for (const name of ${JSON.stringify(names)}) {
  try { calls[name] = 'ran: ' + JSON.stringify(await call(name, {})); } catch (e) { calls[name] = e.message; }
}
return { found, selected, calls };
`;
}

interface Probe {
  found: string[];
  selected: string[];
  calls: Record<string, string>;
}

async function probe(client: TestClient, query: string, names: readonly string[]): Promise<Probe> {
  return (await script(client, probeScript(query, names))) as unknown as Probe;
}

const lookup = 'mcp__billing__lookup_invoice';
const remove = 'mcp__billing__delete_invoice';
const notes = 'mcp__billing__notes_sync';

describe('G11 × G10: run_code over HTTP respects the trust gate and policy', () => {
  const clients: TestClient[] = [];
  let served: Served | undefined;
  const stop = async () => {
    for (const client of clients.splice(0)) await client.close();
    await served?.http?.close();
    await served?.stack.close();
    served = undefined;
  };
  afterEach(stop);
  const start = async (scene: TrustScene) => {
    // The in-process gateway keeps its pins in the scene's state directory, as `scene.cli` does.
    process.env['TOOLSEARCH_STATE_DIR'] = scene.stateDir;
    served = await serveHttp({ config: scene.config, token: TOKEN });
    const stack = served.stack;
    await waitFor(() => stack.hub.status().every((s) => s.state === 'connected'), 'billing to connect', 30_000);
    return new URL(served.http!.url).origin;
  };
  const connect = async (url: string) => {
    const client = await httpClient(url, { authorization: `Bearer ${TOKEN}` });
    clients.push(client);
    return client;
  };

  it('G10/G11: a tool held by the trust gate (changed since pinned, or poisoned on first sight) is neither found nor callable by a script', async () => {
    const scene = new TrustScene([LOOKUP], { codeMode: true });
    let main = await connect(`${await start(scene)}/mcp`);
    expect((await probe(main, 'look up invoice', [lookup])).calls[lookup]).toBe('ran: "ran lookup_invoice"');
    await stop();

    scene.setTools([RUG_PULL, POISONED]);
    main = await connect(`${await start(scene)}/mcp`);
    const held = await probe(main, 'look up invoice sync notes', [lookup, notes]);
    expect(held.found).not.toContain(lookup);
    expect(held.found).not.toContain(notes);
    expect(held.selected).toEqual([]);
    // The gateway's own message, as is (the tool named once).
    expect(held.calls[lookup]).toMatch(
      /^Tool "mcp__billing__lookup_invoice" is held by the gateway: its definition changed since it was pinned\./,
    );
    expect(held.calls[lookup]).toContain('toolsearch tools approve billing --tool lookup_invoice');
    expect(held.calls[notes]).toContain(`Tool "${notes}" is held by the gateway: the scanner found`);
    expect(held.calls[notes]).toContain('toolsearch tools approve billing --tool notes_sync');
    // The model's own search agrees with the script's.
    expect((await main.call('tool_search', { query: 'look up invoice' })).text).not.toContain('lookup_invoice');

    expect(await scene.cli('tools', 'approve', 'billing', '--tool', 'lookup_invoice')).toContain('Approved 1 tool');
    await waitFor(
      async () => (await probe(main, 'look up invoice', [lookup])).calls[lookup] === 'ran: "ran lookup_invoice"',
      'the approved tool callable from a script',
    );
    const approved = await probe(main, 'look up invoice', [lookup, notes]);
    expect(approved.found).toContain(lookup);
    expect(approved.calls[notes]).toContain('the scanner found');
  }, 180_000);

  it('G10/G11: an allow ["read"] profile cannot find or call a destructive tool from a script while reads work', async () => {
    const scene = new TrustScene(
      [LOOKUP, DELETE],
      { codeMode: true },
      { profiles: { readers: { servers: ['billing'], allow: ['read'] } } },
    );
    const base = await start(scene);
    const readers = await connect(`${base}/mcp/readers`);
    const seen = await probe(readers, 'invoice', [remove, lookup]);
    expect(seen.found).toContain(lookup);
    expect(seen.found).not.toContain(remove);
    expect(seen.selected).toEqual([lookup]);
    expect(seen.calls[remove]).toMatch(/may not be used here: it is destructive.*profile "readers" allows only read/);
    expect(seen.calls[lookup]).toBe('ran: "ran lookup_invoice"');
    // Nor by the server's own name, which scripts may use.
    const own = await probe(readers, 'invoice', ['delete_invoice']);
    expect(own.calls['delete_invoice']).not.toMatch(/^ran/);

    // The main endpoint has no such policy: the same script runs the tool there.
    const main = await connect(`${base}/mcp`);
    expect((await probe(main, 'invoice', [remove])).calls[remove]).toBe('ran: "ran delete_invoice"');
  }, 90_000);
});

describe('G11 × G10: run_code over stdio respects toolSearch.allow and the trust gate', () => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('G10/G11: with toolSearch.allow ["read"] a script cannot find or call a destructive or held tool; a read works', async () => {
    const scene = new TrustScene([LOOKUP, DELETE, POISONED], { codeMode: true, allow: ['read'] });
    const served = await scene.serve();
    client = served;
    await waitFor(
      async () => (await probe(served, 'invoice', [lookup])).calls[lookup] === 'ran: "ran lookup_invoice"',
      'the billing server',
      60_000,
    );
    const seen = await probe(served, 'invoice notes', [remove, notes, lookup]);
    expect(seen.found).toContain(lookup);
    expect(seen.found).not.toContain(remove);
    expect(seen.found).not.toContain(notes);
    expect(seen.selected).toEqual([lookup]);
    expect(seen.calls[remove]).toMatch(/may not be used here: it is destructive.*toolSearch.allow/);
    expect(seen.calls[notes]).toContain('is held by the gateway: the scanner found');
  }, 90_000);
});
