import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { ToolsearchGateway, type UpstreamCaller } from '../../src/gateway/gateway.js';
import { bearerChecker, isOriginAllowed } from '../../src/gateway/transports/http/server.js';
import { InMemorySessionStore } from '../../src/gateway/sessions/store.js';
import { UpstreamError } from '../../src/mcp/errors.js';
import { parseHostPort } from '../../src/cli/commands/serve.js';
import { connectClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';

function catalog(): Catalog {
  const c = new Catalog([
    {
      name: 'weather',
      description: 'Get the weather forecast for a city.',
      defer: true,
      handler: ({ city }) => `sunny in ${String(city)}`,
    },
    { name: 'clock', description: 'Current time.', handler: () => 'noon' },
  ]);
  c.setServerTools('remote', [
    {
      name: 'lookup',
      description: 'Look up a record in the remote database.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
    },
  ]);
  return c;
}

async function session(gateway: ToolsearchGateway, id: string) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, id);
  return connectClient(clientSide);
}

const failingUpstream: UpstreamCaller = {
  callTool: async (server) => {
    throw new UpstreamError(server, 'is not connected (reconnecting after: connection closed)');
  },
};

describe('G3 gateway units (in-memory transport)', () => {
  it('A2/D3: local deferred tools are searchable and run their handler once loaded', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream: failingUpstream });
    const client = await session(gateway, 's1');
    expect(await client.toolNames()).toEqual(['tool_search', 'call_tool', 'clock']);
    await client.call('tool_search', { query: 'select:weather' });
    expect((await client.call('weather', { city: 'Oslo' })).text).toBe('sunny in Oslo');
    await client.close();
    await gateway.close();
  });

  it('G3: an upstream failure comes back as a tool error naming the server and why', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), upstream: failingUpstream });
    const client = await session(gateway, 's2');
    await client.call('tool_search', { query: 'select:mcp__remote__lookup' });
    const result = await client.call('mcp__remote__lookup', { id: '1' });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('MCP server "remote" is not connected (reconnecting');
    await client.close();
    await gateway.close();
  });

  it('B1: mode "never" lists every tool and no search tool; a bad mode is an error', async () => {
    const gateway = new ToolsearchGateway({ catalog: catalog(), mode: 'never' });
    const client = await session(gateway, 's3');
    expect((await client.toolNames()).sort()).toEqual(['clock', 'mcp__remote__lookup', 'weather']);
    await client.close();
    await gateway.close();
    expect(() => new ToolsearchGateway({ catalog: catalog(), mode: 'sometimes' })).toThrow(/Invalid tool search mode/);
  });

  it('B1/B3: auto:N defers only when the deferrable schemas pass N% of the context window', () => {
    expect(new ToolsearchGateway({ catalog: catalog(), mode: 'auto:10' }).deferred().size).toBe(0);
    expect(new ToolsearchGateway({ catalog: catalog(), mode: 'auto:1', contextWindow: 1_000 }).deferred().size).toBe(2);
  });

  it('G3/E2: a catalog change sends list_changed to every live session; vanished tools leave the list', async () => {
    const c = catalog();
    // The growing list: the search loads into the session's list, which the catalog change then shrinks.
    const gateway = new ToolsearchGateway({ catalog: c, toolList: 'growing' });
    const a = await session(gateway, 'a');
    const b = await session(gateway, 'b');
    await a.call('tool_search', { query: 'select:mcp__remote__lookup' });
    c.removeServer('remote', { pending: true });
    // a: one for its search, one for the catalog change; b: the catalog change only.
    await waitFor(() => a.listChanged() >= 2 && b.listChanged() >= 1, 'list_changed in both sessions');
    expect(b.listChanged()).toBe(1);
    expect(await a.toolNames()).not.toContain('mcp__remote__lookup');
    const search = await a.call('tool_search', { query: 'lookup record' });
    expect(search.text).toMatch(/remote/);
    await a.close();
    await b.close();
    await gateway.close();
  });
});

describe('G3 HTTP guards and helpers', () => {
  it('G3: Origin — absent or loopback allowed, foreign rejected unless listed', () => {
    expect(isOriginAllowed(undefined, [])).toBe(true);
    expect(isOriginAllowed('http://localhost:3000', [])).toBe(true);
    expect(isOriginAllowed('http://127.0.0.1:8765', [])).toBe(true);
    expect(isOriginAllowed('http://[::1]:1', [])).toBe(true);
    expect(isOriginAllowed('https://evil.example', [])).toBe(false);
    expect(isOriginAllowed('null', [])).toBe(false);
    expect(isOriginAllowed('https://app.example', ['https://app.example'])).toBe(true);
  });

  it('G3: bearer token check', () => {
    const check = bearerChecker('t0k');
    expect(check('Bearer t0k')).toBe(true);
    expect(check('bearer t0k')).toBe(true);
    expect(check('Bearer t0K')).toBe(false);
    expect(check(undefined)).toBe(false);
    expect(check('t0k')).toBe(false);
  });

  it('H1: --http accepts HOST:PORT or PORT (host 127.0.0.1)', () => {
    expect(parseHostPort('8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseHostPort('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseHostPort('[::1]:9')).toEqual({ host: '::1', port: 9 });
    expect(() => parseHostPort('localhost:99999')).toThrow(/HOST:PORT/);
  });

  it('D4: the in-memory session store keeps sessions apart and reports only new names', async () => {
    const store = new InMemorySessionStore();
    expect(await store.addDiscovered('x', ['a', 'b'])).toEqual(['a', 'b']);
    expect(await store.addDiscovered('x', ['b', 'c'])).toEqual(['c']);
    expect(await store.get('y')).toBeUndefined();
    await store.delete('x');
    expect(await store.get('x')).toBeUndefined();
  });
});
