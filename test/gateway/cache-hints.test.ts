/**
 * G12 — cache hints (SEP-2549) with the official v2 client pinned to 2026-07-28, over HTTP:
 * - two profiles: each one's lists are `private`, with its own tools and its own TTL;
 * - a gateway with one endpoint: its lists are the same for every client, so `public`; a resource
 *   read stays `private`; while a server still connects the TTL is the short one;
 * - upstream: a 2026-07-28 server's short `ttlMs` re-lists it without any notification, and what
 *   changed goes through the pins (a changed tool is held, a new one pinned); a hostile TTL is
 *   bounded (0: no re-list timer; 1e15: the max).
 * No timed assertions: every change is waited for as a condition.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { DEFAULT_LIST_TTL } from '../../src/gateway/tools/cache-hints.js';
import { type Served, serveHttp } from '../fixtures/serve-http.js';
import { ERA_SERVER, fixtureServer, PEER_SERVER } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

/** The era server's TTL and the floor this test lowers to reach it (knobs, so no test waits 30 s). */
const ERA_TTL_MS = 300;
const FLOOR_MS = 100;

function eraServer(name: string, env: Record<string, string>) {
  return { command: process.execPath, args: [ERA_SERVER, 'stdio', 'modern', name], env };
}

async function pinnedClient(url: string): Promise<Client> {
  const client = new Client(
    { name: 'cache-hints', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

/** A list as the server sent it (the client's own response cache bypassed). */
const fresh = { cacheMode: 'bypass' } as const;

function writeConfig(dir: string, config: unknown): string {
  const path = join(dir, 'mcp.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

describe('G12 two profiles and an upstream TTL', () => {
  let served: Served;
  let base: string;
  let toolsFile: string;
  let listLog: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-cache-hints-'));
    toolsFile = join(dir, 'era-tools.txt');
    listLog = join(dir, 'era-lists.log');
    const config = writeConfig(dir, {
      mcpServers: {
        alpha: fixtureServer('alpha'),
        era: eraServer('era', { ERA_TTL_MS: String(ERA_TTL_MS), ERA_TOOLS_FILE: toolsFile, ERA_LIST_LOG: listLog }),
      },
      toolSearch: { mode: 'never', limits: { listTtlFloorMs: FLOOR_MS } },
      profiles: { one: { servers: ['alpha'] }, two: { servers: ['era'] } },
    });
    served = await serveHttp({ config });
    await waitFor(
      () => served.stack.hub.status().every((s) => s.state === 'connected'),
      'both servers to connect',
      30_000,
    );
    base = new URL(served.http!.url).origin;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await served?.stack.close();
  });
  const open = async (path: string) => {
    const client = await pinnedClient(`${base}${path}`);
    clients.push(client);
    return client;
  };

  it('G12: two profiles get private lists with different tools', async () => {
    const one = await (await open('/mcp/one')).listTools({}, fresh);
    const two = await (await open('/mcp/two')).listTools({}, fresh);
    expect(one.cacheScope).toBe('private');
    expect(two.cacheScope).toBe('private');
    const names = (r: typeof one) => r.tools.map((t) => t.name);
    expect(names(one)).toContain('mcp__alpha__ping');
    expect(names(one).some((n) => n.startsWith('mcp__era__'))).toBe(false);
    expect(names(two)).toContain('mcp__era__era_echo');
    expect(names(two).some((n) => n.startsWith('mcp__alpha__'))).toBe(false);
    // Settled: the minute, except where the profile's own upstream gave a shorter TTL.
    expect(one.ttlMs).toBe(DEFAULT_LIST_TTL.settledMs);
    expect(two.ttlMs).toBe(ERA_TTL_MS);
    // The main endpoint of a gateway with profiles is one view among several: private too.
    const main = await (await open('/mcp')).listTools({}, fresh);
    expect(main.cacheScope).toBe('private');
    const prompts = await clients[0]!.listPrompts({}, fresh);
    expect(prompts.cacheScope).toBe('private');
    expect(typeof prompts.ttlMs).toBe('number');
    // A 2025 session: no such fields in its revision.
    const legacy = new Client(
      { name: 'cache-hints-2025', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    await legacy.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/one`)));
    clients.push(legacy);
    const session = (await legacy.listTools({}, fresh)) as Record<string, unknown>;
    expect(session['ttlMs']).toBeUndefined();
    expect(session['cacheScope']).toBeUndefined();
  });

  it('G12: an upstream’s short ttlMs brings a changed list in without any notification; changes go through the pins', async () => {
    const listsBefore = readFileSync(listLog, 'utf8').split('\n').filter(Boolean).length;
    // A new tool, and era_echo changed: nothing tells the gateway (the server sends no list_changed).
    writeFileSync(toolsFile, 'era_late|A tool listed later\nera_echo|Echo a message back, changed\n');
    const catalog = served.stack.hub.catalog;
    await waitFor(() => catalog.has('mcp__era__era_late'), 'the TTL re-list to bring era_late in', 30_000);
    expect(readFileSync(listLog, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(listsBefore);
    // The changed definition is held, as after a list_changed: gone from the catalog until approved.
    await waitFor(() => !catalog.has('mcp__era__era_echo'), 'the changed era_echo to be held', 30_000);
    expect(served.stack.trust?.isHeld('era', 'era_echo')).toBe(true);
    // And a 2026 client of the profile sees it without a listen stream.
    const two = clients[1]!;
    await waitFor(
      async () => (await two.listTools({}, fresh)).tools.some((t) => t.name === 'mcp__era__era_late'),
      'profile two to list era_late',
      30_000,
    );
  });
});

describe('G12 one endpoint, a server still connecting, and hostile TTLs', () => {
  let served: Served;
  let base: string;
  let client: Client;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-cache-hints-single-'));
    const config = writeConfig(dir, {
      mcpServers: {
        alpha: fixtureServer('alpha'),
        docs: { command: process.execPath, args: [PEER_SERVER], env: { PEER_TEMPLATES: 'doc://{id}' } },
        zero: eraServer('zero', { ERA_TTL_MS: '0' }),
        huge: eraServer('huge', { ERA_TTL_MS: '1000000000000000' }),
        // Still connecting for the whole test: its handshake waits ten minutes.
        slow: fixtureServer('slow', { delayMs: 600_000, timeoutMs: 600_000 }),
      },
      toolSearch: { mode: 'never', limits: { listTtlMaxMs: 3_600_000 } },
    });
    served = await serveHttp({ config, settleMs: 0 });
    await waitFor(
      () =>
        ['alpha', 'docs', 'zero', 'huge'].every(
          (name) => served.stack.hub.status().find((s) => s.server === name)?.state === 'connected',
        ),
      'every server but slow to connect',
      30_000,
    );
    base = new URL(served.http!.url).origin;
    client = await pinnedClient(`${base}/mcp`);
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await served?.stack.close();
  });

  it('G12: one endpoint: lists are public; a read is private; while a server connects the TTL is short', async () => {
    expect(served.stack.hub.catalog.pendingServers).toContain('slow');
    const tools = await client.listTools({}, fresh);
    expect(tools.cacheScope).toBe('public');
    expect(tools.ttlMs).toBe(DEFAULT_LIST_TTL.connectingMs);
    expect(tools.tools.map((t) => t.name)).toContain('mcp__alpha__ping');
    const templates = await client.listResourceTemplates({}, fresh);
    expect(templates.cacheScope).toBe('public');
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain('doc://{id}');
    expect((await client.listResources({}, fresh)).cacheScope).toBe('public');
    // A read is the upstream's answer (it may depend on whose credentials asked): private, and with
    // no TTL from a 2025-era server, immediately stale.
    const read = await client.readResource({ uri: 'doc://7' }, fresh);
    expect(read.contents.length).toBeGreaterThan(0);
    expect(read.cacheScope).toBe('private');
    expect(read.ttlMs).toBe(0);
  });

  it('G5/G12: a TTL of 0 arms no re-list; 1e15 is cut to listTtlMaxMs', () => {
    const hub = served.stack.hub;
    expect(hub.listTtlMs('tools', new Set(['zero']))).toBeUndefined();
    expect(hub.listTtlMs('tools', new Set(['huge']))).toBe(3_600_000);
    expect(DEFAULT_LIMITS.listTtlMaxMs).toBeLessThan(2 ** 31 - 1);
  });
});
