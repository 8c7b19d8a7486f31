/**
 * G9 — a profile sees and reaches only its servers' resources, templates and prompts (not only
 * their tools): two copies of the real server-everything, profile `one` over alpha, `two` over
 * beta, over real Streamable HTTP with the SDK client.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';

const TOKEN = 'token';
let served: Served;
const clients: Record<'main' | 'one' | 'two', TestClient> = {} as never;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ts-profile-features-'));
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { alpha: referenceServerConfig('everything'), beta: referenceServerConfig('everything') },
      toolSearch: { learning: false },
      profiles: { one: { servers: ['alpha'] }, two: { servers: ['beta'] } },
    }),
  );
  served = await serveHttp({ config, token: TOKEN, settleMs: 30_000 });
  await waitFor(() => served.stack.hub.status().every((s) => s.state === 'connected'), 'both copies', 30_000);
  const origin = new URL(served.http!.url).origin;
  const headers = { authorization: `Bearer ${TOKEN}` };
  clients.main = await httpClient(`${origin}/mcp`, headers);
  clients.one = await httpClient(`${origin}/mcp/one`, headers);
  clients.two = await httpClient(`${origin}/mcp/two`, headers);
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c?.close()));
  await served?.stack.close();
});

const uris = async (client: TestClient) => (await client.client.listResources()).resources.map((r) => r.uri);
const templates = async (client: TestClient) =>
  (await client.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
const prompts = async (client: TestClient) => (await client.client.listPrompts()).prompts.map((p) => p.name);

describe('G9: a profile’s resources and prompts are its servers’ only', () => {
  it('G9: lists: the main endpoint sees both copies; each profile only its server’s', async () => {
    const all = await uris(clients.main);
    expect(all.some((u) => u.startsWith('toolsearch://beta/'))).toBe(true);
    expect(all.some((u) => u.startsWith('demo://'))).toBe(true);
    const one = await uris(clients.one);
    expect(one.length).toBeGreaterThan(0);
    expect(one.filter((u) => u.startsWith('toolsearch://'))).toEqual([]);
    const two = await uris(clients.two);
    expect(two.length).toBe(one.length);
    // Beta's copies keep the names the clash rule gave them (alpha is first in the config).
    expect(two.every((u) => u.startsWith('toolsearch://beta/'))).toBe(true);
    expect((await templates(clients.one)).some((t) => t.startsWith('toolsearch://beta/'))).toBe(false);
    expect((await templates(clients.two)).every((t) => t.startsWith('toolsearch://beta/'))).toBe(true);
    expect(await prompts(clients.main)).toEqual(expect.arrayContaining(['simple-prompt', 'beta__simple-prompt']));
    expect((await prompts(clients.one)).filter((p) => p.startsWith('beta__'))).toEqual([]);
    expect((await prompts(clients.two)).every((p) => p.startsWith('beta__'))).toBe(true);
  });

  it('G9: reads, prompts and completions of another profile’s server are refused, not forwarded', async () => {
    const doc = (await uris(clients.one)).find((u) => u.startsWith('demo://resource/static/document/'))!;
    expect((await clients.one.client.readResource({ uri: doc })).contents[0]?.uri).toBe(doc);
    await expect(clients.one.client.readResource({ uri: `toolsearch://beta/${doc}` })).rejects.toThrow();
    await expect(clients.two.client.readResource({ uri: doc })).rejects.toThrow();
    // A URI only a template names goes to a server of the profile's own (beta's own template here).
    expect((await clients.two.client.readResource({ uri: 'demo://resource/dynamic/text/7' })).contents).toHaveLength(1);
    const beta = await clients.two.client.readResource({ uri: `toolsearch://beta/${doc}` });
    expect(beta.contents.length).toBeGreaterThan(0);
    await expect(clients.one.client.getPrompt({ name: 'beta__simple-prompt' })).rejects.toThrow();
    expect((await clients.two.client.getPrompt({ name: 'beta__simple-prompt' })).messages.length).toBeGreaterThan(0);
    await expect(
      clients.one.client.complete({
        ref: { type: 'ref/prompt', name: 'beta__completable-prompt' },
        argument: { name: 'department', value: 'E' },
      }),
    ).rejects.toThrow();
  });
});
