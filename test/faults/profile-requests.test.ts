/**
 * G5 with G9 — a server's requests (sampling) reach the session that caused them whichever
 * profile (or the main endpoint) that session belongs to: profiles share one hub, so the hub
 * asks every gateway's router, and the one that owns the call answers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { waitFor } from '../fixtures/wait.js';
import { type CapableClient, capableClient } from '../gateway/fidelity-clients.js';

const TOKEN = 'main-token';
let served: Served;
let clients: CapableClient[] = [];

const open = (path: string, label: string) =>
  capableClient(
    label,
    new StreamableHTTPClientTransport(new URL(`${new URL(served.http!.url).origin}${path}`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ts-profile-requests-'));
  const config = join(dir, 'mcp.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { everything: referenceServerConfig('everything') },
      // No grace: each case's call ended is not "in flight" for the next (attribution by live calls only).
      toolSearch: { mode: 'never', learning: false, limits: { attributionGraceMs: 0 } },
      profiles: { one: { servers: ['everything'] }, two: { servers: ['everything'] } },
    }),
  );
  served = await serveHttp({ config, token: TOKEN });
  await waitFor(
    () => served.stack.hub.status().every((s) => s.state === 'connected'),
    'server-everything to connect',
    20_000,
  );
}, 40_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await served?.stack.close();
});

describe('G5 with G9: server requests find their session in any profile', () => {
  it.each([
    ['the main endpoint', '/mcp'],
    ['profile one', '/mcp/one'],
    ['profile two', '/mcp/two'],
  ])('G5: a sampling caused from %s reaches that client, and only it', async (_what, path) => {
    const caller = await open(path, `caller-${path}`);
    const bystanders = await Promise.all([open('/mcp', 'main'), open('/mcp/one', 'one'), open('/mcp/two', 'two')]);
    clients.push(caller, ...bystanders);
    const secret = `secret of ${path}`;
    const sampled = await caller.call('mcp__everything__trigger-sampling-request', { prompt: secret });
    expect(sampled.text).toContain(`sampled by caller-${path}`);
    expect(caller.sampled.some((text) => text.includes(secret))).toBe(true);
    for (const other of bystanders) expect(other.sampled).toEqual([]);
    await Promise.all([caller, ...bystanders].map((c) => c.close()));
    clients = [];
  });

  it('G5: calls in flight in two profiles: the sampling is refused, never sent to the other profile’s client', async () => {
    const [one, two] = await Promise.all([open('/mcp/one', 'one'), open('/mcp/two', 'two')]);
    clients.push(one, two);
    // In flight for sure once its first progress arrived (a step every 2 s, three steps).
    let progressed = false;
    const busy = two.client.callTool(
      { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 6, steps: 3 } },
      undefined,
      { onprogress: () => (progressed = true) },
    );
    await waitFor(() => progressed, 'the first progress of the long call');
    const sampled = await one.call('mcp__everything__trigger-sampling-request', { prompt: 'private text of one' });
    expect(sampled.text).toMatch(
      /cannot route sampling\/createMessage from "everything": client sessions of several endpoints/,
    );
    await busy;
    expect(two.sampled).toEqual([]);
    expect(one.sampled).toEqual([]);
  });
});
