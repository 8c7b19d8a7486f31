import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { stdioGateway } from '../fixtures/stdio-gateway.js';

/**
 * `toolsearch serve --config FILE` over stdio, as an MCP client launches it, in front of fixture
 * servers: one quick, one that delays its handshake. Any non-JSON-RPC byte on stdout would break
 * this client, so the suite also checks stdio hygiene.
 */
describe('G3 gateway over stdio (toolsearch serve --config), dynamic pool', () => {
  let client: TestClient;
  let stderr = '';

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-stdio-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        // G10: quick rewrites a description at run time (retitle) to test list_changed; pinning
        // would hold that change (test/trust covers it), so this server is left out of it.
        mcpServers: { quick: fixtureServer('quick', { trust: 'off' }), slow: fixtureServer('slow', { delayMs: 3000 }) },
        // The growing list: loaded tools join tools/list, whose changes this suite follows.
        toolSearch: { searchWaitMs: 0, toolList: 'growing' },
      }),
    );
    const transport = stdioGateway(['serve', '--config', config, '--log-level', 'info']);
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = await connectClient(transport);
  });
  afterAll(() => client?.close());

  it('C8/A4: while a server is still connecting, search says so; once up, its tools are found', async () => {
    const early = await client.call('tool_search', { query: 'select:mcp__slow__ping' });
    expect(early.text).toMatch(/connecting/i);
    expect(early.text).toContain('slow');
    await waitFor(
      async () => (await client.call('tool_search', { query: 'select:mcp__slow__ping' })).text.includes('Loaded'),
      'the slow server',
    );
    expect(await client.toolNames()).toContain('mcp__slow__ping');
    expect((await client.call('mcp__slow__ping')).text).toBe('pong from slow');
  });

  it('G3: the server-side alwaysLoad tool is listed from the start; logs went to stderr', async () => {
    const names = await client.toolNames();
    expect(names).toEqual(expect.arrayContaining(['tool_search', 'call_tool', 'mcp__quick__pinned']));
    expect(names).not.toContain('mcp__quick__ping');
    expect(stderr).toContain('connected to "quick"');
  });

  it('G2/G4: a tool that keeps its name but changes its description reaches clients with list_changed', async () => {
    // The search's own list_changed (it loads retitle) must arrive first, or it would be taken
    // for the one this test waits for.
    const beforeSearch = client.listChanged();
    await waitFor(
      async () => (await client.call('tool_search', { query: 'select:mcp__quick__retitle' })).text.includes('Loaded'),
      'the quick server',
    );
    await waitFor(() => client.listChanged() > beforeSearch, 'list_changed after the search loaded retitle');
    const before = client.listChanged();
    expect((await client.call('mcp__quick__retitle')).text).toBe('retitled');
    await waitFor(() => client.listChanged() > before, 'list_changed after the description changed');
    const pinnedDescription = async () =>
      (await client.client.listTools()).tools.find((t) => t.name === 'mcp__quick__pinned')?.description ?? '';
    await waitFor(
      async () => (await pinnedDescription()).includes('(rewritten)'),
      'the rewritten description in tools/list',
    );
  });

  it('G2/G3: an upstream that dies mid-session drops out of the list with list_changed, calls fail clearly, and it returns', async () => {
    await client.call('tool_search', { query: 'select:mcp__slow__die' });
    const before = client.listChanged();
    await client.call('mcp__slow__die');
    await waitFor(() => client.listChanged() > before, 'list_changed after the server died');
    await waitFor(
      async () => !(await client.toolNames()).includes('mcp__slow__ping'),
      "the dead server's tools to leave the list",
    );
    const failed = await client.call('mcp__slow__ping');
    expect(failed.isError).toBe(true);
    expect(failed.text).toMatch(/MCP server "slow" is still connecting \(or reconnecting\)/);
    // It reconnects; the session's discovered tools come back with it.
    await waitFor(async () => (await client.toolNames()).includes('mcp__slow__ping'), 'the server to return', 15_000);
    expect((await client.call('mcp__slow__ping')).text).toBe('pong from slow');
  });
});
