/**
 * G8 — MCP Apps through the gateway, with the real `@modelcontextprotocol/server-basic-vanillajs`
 * example server: the host finds the tool, reads its `ui://` resource, and the app's own call by the
 * server's tool name (`get-time`) runs. App-only tools are never shown to the model but stay callable.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_APPS_CAPABILITY, MCP_APPS_EXTENSION } from '../../src/core/visibility.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { announcedNames } from '../fixtures/announced.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// The package exports only its server module; its bin (dist/index.js) sits beside it.
const basicApp = join(dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')), 'index.js');

function text(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('G8: MCP Apps through the gateway (server-basic-vanillajs)', () => {
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let host: Client;

  beforeAll(async () => {
    stack = await createGatewayFromConfig({
      config: parseHubConfig(
        {
          mcpServers: {
            basic: { command: process.execPath, args: [basicApp, '--stdio'] },
            apps: { command: process.execPath, args: [join(here, '../fixtures/servers/apps-server.mjs')] },
            fixture: { command: process.execPath, args: [join(here, '../fixtures/servers/fixture-server.mjs')] },
          },
          // The default (fixed) list: a tool with an app view still joins it when a search names it,
          // because a host finds the ui:// link in the tool's tools/list entry.
        },
        'test',
      ),
    });
    http = await startHttpGateway(stack.gateway, { port: 0 });
    await stack.hub.settled();
    // A host that renders MCP Apps declares the ui extension.
    host = new Client(
      { name: 'apps-host', version: '1.0.0' },
      { capabilities: { extensions: { [MCP_APPS_EXTENSION]: MCP_APPS_CAPABILITY } } as never },
    );
    await host.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await http?.close();
    await stack?.close();
  });

  it('G8: tool found → ui:// resource read → the app calls the tool by its own name', async () => {
    const before = (await host.listTools()).tools.map((t) => t.name);
    const search = await host.callTool({ name: 'tool_search', arguments: { query: 'get the current time' } });
    expect(text(search)).toContain('with an app view; call it by its own name');
    expect(text(search)).toContain('mcp__basic__get-time');
    const after = (await host.listTools()).tools;
    // Appended: the list the host had stays its prefix.
    expect(after.slice(0, before.length).map((t) => t.name)).toEqual(before);
    const listed = after.find((t) => t.name === 'mcp__basic__get-time');
    const resourceUri = (listed?._meta?.['ui'] as { resourceUri?: string } | undefined)?.resourceUri;
    expect(resourceUri).toMatch(/^ui:\/\//);

    const page = await host.readResource({ uri: resourceUri! });
    expect(page.contents[0]?.mimeType).toBe('text/html;profile=mcp-app');
    expect(String((page.contents[0] as { text?: string }).text)).toContain('<html');

    // The app inside the host knows only its server's name for the tool.
    const byAppName = await host.callTool({ name: 'get-time', arguments: {} });
    expect(byAppName.isError).toBeFalsy();
    expect(text(byAppName).length).toBeGreaterThan(0);
    // The model calls it by its gateway name, as the host needs to render the view.
    const byName = await host.callTool({ name: 'mcp__basic__get-time', arguments: {} });
    expect(byName.isError).toBeFalsy();
  });

  it('E5: under the fixed list a tool without an app view does not join the list', async () => {
    const search = await host.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__fixture__ping' } });
    expect(text(search)).toContain('{"name":"mcp__fixture__ping"');
    expect((await host.listTools()).tools.map((t) => t.name)).not.toContain('mcp__fixture__ping');
  });

  it('G8: an app-only tool is never announced, listed or searched, yet the app can call it', async () => {
    const tools = (await host.listTools()).tools;
    expect(tools.map((t) => t.name)).not.toContain('mcp__apps__refresh_chart');
    const searchTool = tools.find((t) => t.name === 'tool_search');
    expect(announcedNames(searchTool?.description)).toContain('mcp__apps__show_chart');
    expect(searchTool?.description).not.toContain('refresh_chart');

    const search = await host.callTool({ name: 'tool_search', arguments: { query: 'refresh chart data' } });
    expect(text(search)).not.toContain('mcp__apps__refresh_chart');
    const select = await host.callTool({
      name: 'tool_search',
      arguments: { query: 'select:mcp__apps__refresh_chart' },
    });
    expect(text(select)).not.toContain('"name":"mcp__apps__refresh_chart"');

    expect(text(await host.callTool({ name: 'refresh_chart', arguments: {} }))).toBe('chart refreshed');
    expect(text(await host.callTool({ name: 'mcp__apps__refresh_chart', arguments: {} }))).toBe('chart refreshed');
  });

  it('G8: an upstream name two servers share is refused with the names to choose from', async () => {
    const result = await host.callTool({ name: 'ping', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('mcp__apps__ping');
    expect(text(result)).toContain('mcp__fixture__ping');
  });

  it('G8: upstream servers see the ui extension declared', async () => {
    const result = await host.callTool({ name: 'client_extensions', arguments: {} });
    expect(JSON.parse(text(result))).toHaveProperty([MCP_APPS_EXTENSION]);
  });
});
