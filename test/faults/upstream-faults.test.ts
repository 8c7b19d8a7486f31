/**
 * Fault injection (issue 6): real stdio fixture servers that crash mid-call, hang, start slowly,
 * drop and come back, list malformed schemas, repeat tool names, use names no provider accepts,
 * list 10,000 tools, or write garbage on stdout — behind a real hub and gateway session.
 * Each case checks: no crash, a clear error where one is due, nothing already discovered lost.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderSafeName, qualifyMcpName, toProviderSafeName } from '../../src/core/names.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { createStderrLogger } from '../../src/util/log.js';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { FIXTURE_BASE_TOOLS, FIXTURE_ODD_NAMES, faultyServer, fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';

const logs: string[] = [];
let hub: McpHub;
let gateway: ToolsearchGateway;
let session: TestClient;
/** Found and called before any fault; must survive every one of them. */
const ANCHOR = 'mcp__steady__add';

beforeAll(async () => {
  const config = parseHubConfig({
    mcpServers: {
      steady: fixtureServer('steady'),
      crashy: fixtureServer('crashy'),
      hangs: fixtureServer('hangs', { callTimeoutMs: 300 }),
      slow: fixtureServer('slow', { delayMs: 2_000 }),
      flaky: fixtureServer('flaky'),
      malformed: faultyServer('malformed', ['malformed']),
      dups: faultyServer('dups', ['duplicates']),
      odd: faultyServer('odd', ['odd_names']),
      big: faultyServer('big', [], { toolCount: 10_000 }),
      noisy: faultyServer('noisy', ['garbage']),
    },
  });
  const logger = createStderrLogger('debug', (line) => void logs.push(line));
  hub = new McpHub(config, { reconnect: { initialDelayMs: 100, maxAttempts: 10 }, logger });
  // pendingWaitMs 0: these checks look at what a search says while a server is still connecting.
  // The growing list: "nothing discovered lost" is checked in the session's tools/list.
  gateway = new ToolsearchGateway({
    catalog: hub.catalog,
    upstream: hub,
    logger,
    pendingWaitMs: 0,
    toolList: 'growing',
  });
  hub.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, 'faults');
  session = await connectClient(clientSide);
});

afterAll(async () => {
  await session?.close();
  await gateway?.close();
  await hub?.close();
});

async function load(name: string): Promise<void> {
  const result = await session.call('tool_search', { query: `select:${name}` });
  expect(result.text, `loading ${name}`).toContain(name);
}

async function anchorStillWorks(): Promise<void> {
  expect(await session.toolNames()).toContain(ANCHOR);
  expect((await session.call(ANCHOR, { a: 2, b: 3 })).text).toBe('5');
}

describe('fault injection: upstream servers misbehaving behind the gateway', () => {
  it('A4/C8: a slow-starting server is pending (the search says so), then its tools are found', async () => {
    await waitFor(() => hub.catalog.has(ANCHOR), 'the steady server');
    expect(hub.catalog.pendingServers).toContain('slow');
    const early = await session.call('tool_search', { query: 'select:mcp__slow__ping' });
    expect(early.text).toMatch(/slow/);
    expect(early.text).toMatch(/connecting|pending/i);
    const early2 = await session.call('mcp__slow__ping');
    expect(early2.isError).toBe(true);
    expect(early2.text).toMatch(/still connecting/);
    await load(ANCHOR);
    await anchorStillWorks();
    await waitFor(() => hub.catalog.has('mcp__slow__ping'), 'the slow server', 15_000);
    await load('mcp__slow__ping');
    expect((await session.call('mcp__slow__ping')).text).toBe('pong from slow');
  });

  it('G1: a server crashing mid-call gives a clear error, reconnects, and the session keeps its tools', async () => {
    await hub.settled();
    await load('mcp__crashy__crash');
    await load('mcp__crashy__ping');
    const crashed = await session.call('mcp__crashy__crash');
    expect(crashed.isError).toBe(true);
    expect(crashed.text).toMatch(/Tool "mcp__crashy__crash" failed: MCP server "crashy"/);
    await anchorStillWorks();
    await waitFor(
      async () => (await session.call('mcp__crashy__ping')).text === 'pong from crashy',
      'crashy to come back',
      15_000,
    );
    expect(await session.toolNames()).toEqual(expect.arrayContaining(['mcp__crashy__crash', 'mcp__crashy__ping']));
  });

  it('G1: a hanging call times out with a clear error; the session and the server stay usable', async () => {
    await hub.settled();
    await load('mcp__hangs__sleep');
    const hung = await session.call('mcp__hangs__sleep', { ms: 10_000 });
    expect(hung.isError).toBe(true);
    expect(hung.text).toMatch(/MCP server "hangs" failed to run "sleep": .*timed out/i);
    expect((await session.call('mcp__hangs__sleep', { ms: 1 })).text).toBe('slept 1 ms');
    expect(hub.status().find((s) => s.server === 'hangs')?.state).toBe('connected');
    await anchorStillWorks();
  });

  it('G2/D3: a server that drops and returns: tools removed then re-added, list_changed sent, the discovered tool usable again', async () => {
    await hub.settled();
    await load('mcp__flaky__ping');
    expect((await session.call('mcp__flaky__ping')).text).toBe('pong from flaky');
    const changesBefore = session.listChanged();
    await hub.callTool('flaky', 'die', {});
    await waitFor(() => !hub.catalog.has('mcp__flaky__ping'), 'flaky tools removed');
    // Stale reference stripped from this session's list, with an actionable error meanwhile.
    expect(await session.toolNames()).not.toContain('mcp__flaky__ping');
    const meanwhile = await session.call('mcp__flaky__ping');
    expect(meanwhile.isError).toBe(true);
    expect(meanwhile.text).toMatch(/flaky/);
    await waitFor(() => session.listChanged() > changesBefore, 'list_changed for the removal');
    await waitFor(() => hub.catalog.has('mcp__flaky__ping'), 'flaky to come back', 15_000);
    // One list_changed for the removal, at least one more for the re-add.
    await waitFor(() => session.listChanged() >= changesBefore + 2, 'list_changed for the re-add');
    // The session's discovered set survived: the tool reappears without a new search.
    await waitFor(
      async () => (await session.toolNames()).includes('mcp__flaky__ping'),
      'the tool back in the session list',
    );
    expect((await session.call('mcp__flaky__ping')).text).toBe('pong from flaky');
    await anchorStillWorks();
  });

  it("A1/G1: malformed tool schemas are skipped with a clear logged error; the server's other tools stay", async () => {
    await hub.settled();
    const tools = hub.catalog.serverTools('malformed').map((t) => t.originalName ?? t.name);
    expect(tools.sort()).toEqual([...FIXTURE_BASE_TOOLS].sort());
    expect(hub.status().find((s) => s.server === 'malformed')?.state).toBe('connected');
    for (const bad of ['bad_type', 'bad_string', 'bad_missing', 'bad_properties']) {
      expect(
        logs.some((l) => l.includes(`"malformed": skipping tool "${bad}": not a valid MCP tool (inputSchema`)),
        bad,
      ).toBe(true);
    }
    await load('mcp__malformed__ping');
    expect((await session.call('mcp__malformed__ping')).text).toBe('pong from malformed');
  });

  it('A3/G1: a name listed twice by one server: clear error, first kept, nothing else lost', async () => {
    await hub.settled();
    const tools = hub.catalog.serverTools('dups');
    expect(tools.map((t) => t.originalName ?? t.name).sort()).toEqual([...FIXTURE_BASE_TOOLS].sort());
    expect(hub.catalog.get('mcp__dups__ping')?.description).toMatch(/^Ping the dups/);
    expect(logs.some((l) => l.includes('"dups": skipping tool "ping": the server lists the name "ping" twice'))).toBe(
      true,
    );
  });

  it('A3: names invalid for providers (dots, 120 characters, unicode) are mapped to safe names and callable', async () => {
    await hub.settled();
    for (const odd of FIXTURE_ODD_NAMES) {
      const safe = toProviderSafeName(qualifyMcpName('odd', odd));
      expect(isProviderSafeName(safe)).toBe(true);
      expect(hub.catalog.get(safe)?.originalName).toBe(odd);
      await load(safe);
      const result = await session.call(safe);
      expect(result.text).toBe(`ran ${odd}`);
    }
  });

  it('A4/C4: a server with 10,000 tools: all in the catalog, searchable, deferred, callable', async () => {
    await hub.settled();
    expect(hub.catalog.serverTools('big')).toHaveLength(10_000 + FIXTURE_BASE_TOOLS.length);
    const listed = await session.toolNames();
    expect(listed.filter((n) => n.startsWith('mcp__big__gen_'))).toEqual([]);
    const found = await session.call('tool_search', { query: 'generated tool number 4242', max_results: 3 });
    expect(found.text).toContain('mcp__big__gen_4242');
    expect((await session.call('mcp__big__gen_4242', { n: 1 })).text).toBe('ran gen_4242');
    await load('mcp__big__gen_9999');
    expect((await session.call('mcp__big__gen_9999')).text).toBe('ran gen_9999');
  });

  it("G1: non-JSON garbage on an upstream's stdout is skipped; its tools and calls work", async () => {
    await hub.settled();
    expect(hub.status().find((s) => s.server === 'noisy')?.state).toBe('connected');
    expect(hub.catalog.serverTools('noisy')).toHaveLength(FIXTURE_BASE_TOOLS.length);
    await load('mcp__noisy__add');
    for (let i = 0; i < 5; i++)
      expect((await session.call('mcp__noisy__add', { a: i, b: 1 })).text).toBe(String(i + 1));
  });

  it('D4: after every fault, nothing discovered earlier in the session is lost', async () => {
    const names = await session.toolNames();
    expect(names).toEqual(
      expect.arrayContaining([
        ANCHOR,
        'mcp__slow__ping',
        'mcp__crashy__ping',
        'mcp__hangs__sleep',
        'mcp__flaky__ping',
        'mcp__malformed__ping',
        'mcp__big__gen_9999',
        'mcp__noisy__add',
      ]),
    );
    await anchorStillWorks();
  });
});
