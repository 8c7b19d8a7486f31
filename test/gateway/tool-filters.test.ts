import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { referenceServerConfig } from '../../src/mcp/defaults.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { UpstreamError } from '../../src/mcp/errors.js';
import { globToRegExp, ToolRules } from '../../src/mcp/tool-rules.js';
import { httpClient, type TestClient } from '../fixtures/clients.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';
import { announcedNames } from '../fixtures/announced.js';

const TOOLS = {
  allow: ['get-*', 'echo'],
  deny: ['get-env', 'get-tiny-*'],
  override: {
    echo: { description: 'Repeat a zebra phrase back verbatim.', title: 'Parrot' },
    'no-such-tool': { description: 'a typo in the config' },
  },
};

describe('G7 tool rules (unit)', () => {
  it('G7: globs are * and ?, anchored, case-sensitive, every other character literal', () => {
    expect(globToRegExp('get-*').test('get-sum')).toBe(true);
    expect(globToRegExp('get-*').test('xget-sum')).toBe(false);
    expect(globToRegExp('a?c').test('abc')).toBe(true);
    expect(globToRegExp('a.c').test('abc')).toBe(false);
    expect(globToRegExp('Echo').test('echo')).toBe(false);
  });

  it('G7: deny wins over allow; with an allow list, a tool must match it', () => {
    const rules = new ToolRules(TOOLS);
    expect(rules.visibility('get-sum')).toEqual({ visible: true });
    expect(rules.visibility('get-env')).toEqual({ visible: false, reason: 'it matches tools.deny "get-env"' });
    expect(rules.visibility('toggle-simulated-logging')).toMatchObject({ visible: false });
    expect(new ToolRules({ deny: ['x'] }).visibility('anything')).toEqual({ visible: true });
    expect(rules.unusedOverrides(['echo'])).toEqual(['no-such-tool']);
  });

  it('G7: an unknown key in a tools section is a config error naming it', () => {
    expect(() => parseHubConfig({ mcpServers: { s: { command: 'x', tools: { alow: ['*'] } } } }, 'f.json')).toThrow(
      /mcpServers\.s\.tools/,
    );
  });
});

/** server-everything behind the HTTP gateway with a `tools` section; a real SDK client. */
describe('G7 tool filters and overrides behind the gateway', () => {
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let client: TestClient;
  const warnings: string[] = [];
  const configFile = join(mkdtempSync(join(tmpdir(), 'toolsearch-filters-')), 'config.json');

  beforeAll(async () => {
    const everything = { ...referenceServerConfig('everything'), tools: TOOLS };
    writeFileSync(configFile, JSON.stringify({ mcpServers: { everything } }));
    stack = await createGatewayFromConfig({
      config: configFile,
      // The growing list: a found tool's tools/list entry shows the override.
      toolList: 'growing',
      logger: {
        error: (m) => warnings.push(m),
        warn: (m) => warnings.push(m),
        info: () => {},
        debug: () => {},
      },
    });
    http = await startHttpGateway(stack.gateway, { port: 0 });
    await stack.hub.settled(30_000);
    client = await httpClient(http.url);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await http?.close();
    await stack?.close();
  });

  it('G7: hidden tools are not in the catalog, the announcement or any list', async () => {
    const names = stack.hub.catalog.tools.map((t) => t.originalName);
    expect(names).toContain('get-sum');
    expect(names).toContain('echo');
    expect(names).not.toContain('get-env');
    expect(names).not.toContain('get-tiny-image');
    expect(names).not.toContain('trigger-sampling-request');
    const listed = (await client.client.listTools()).tools;
    const announcement = listed.find((t) => t.name === 'tool_search')!.description!;
    expect(announcedNames(announcement)).toContain('mcp__everything__get-sum');
    expect(announcement).not.toContain('get-env');
    expect(announcement).not.toContain('trigger-sampling-request');
  });

  it('G7: search never finds a hidden tool, by keywords, select: or server', async () => {
    const byWords = await client.call('tool_search', { query: 'print environment variables debugging' });
    expect(byWords.text).not.toContain('get-env');
    const bySelect = await client.call('tool_search', { query: 'select:mcp__everything__get-env' });
    expect(bySelect.text).not.toContain('"mcp__everything__get-env"');
    const byServer = await client.call('tool_search', { query: 'mcp__everything', max_results: 50 });
    expect(byServer.text).toContain('mcp__everything__get-sum');
    expect(byServer.text).not.toContain('get-env');
    expect(byServer.text).not.toContain('trigger-sampling-request');
    expect(await client.toolNames()).not.toContain('mcp__everything__get-env');
  });

  it('G7: a call by a hidden name gets a clear error, directly and through call_tool', async () => {
    const direct = await client.call('mcp__everything__get-env');
    expect(direct.isError).toBe(true);
    expect(direct.text).toContain('config hides "get-env"');
    expect(direct.text).toContain('tools.deny "get-env"');
    const wrapped = await client.call('call_tool', {
      name: 'mcp__everything__trigger-sampling-request',
      arguments: {},
    });
    expect(wrapped.isError).toBe(true);
    expect(wrapped.text).toContain('tools.allow');
    // The hub refuses too, for embedders calling it directly.
    await expect(stack.hub.callTool('everything', 'get-env', {})).rejects.toThrow(UpstreamError);
    await expect(stack.hub.callTool('everything', 'get-env', {})).rejects.toThrow(/hides it/);
  });

  it('G7: an override changes what search and clients see, not what the server runs', async () => {
    const found = await client.call('tool_search', { query: 'zebra phrase', max_results: 3 });
    expect(found.text).toContain('mcp__everything__echo');
    const echo = (await client.client.listTools()).tools.find((t) => t.name === 'mcp__everything__echo');
    expect(echo?.description).toBe('Repeat a zebra phrase back verbatim.');
    expect(echo?.title).toBe('Parrot');
    const result = await client.call('mcp__everything__echo', { message: 'still the real echo' });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('still the real echo');
  });

  it('G7: an override naming no listed tool is logged', () => {
    expect(warnings.some((w) => w.includes('tools.override names "no-such-tool"'))).toBe(true);
  });

  it('G7: inspect shows what the config hid', () => {
    const text = execFileSync(process.execPath, cliArgs('inspect', '--config', configFile), {
      encoding: 'utf8',
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    expect(text).toMatch(/hidden by config: everything: \d+ tools? \(/);
    expect(text).toContain('get-env');
    const json = JSON.parse(
      execFileSync(process.execPath, cliArgs('inspect', '--config', configFile, '--json'), {
        encoding: 'utf8',
        env: cliEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      }),
    ) as { hiddenTools: { server: string; tool: string; reason: string }[] };
    expect(json.hiddenTools).toContainEqual({
      server: 'everything',
      tool: 'get-env',
      name: 'mcp__everything__get-env',
      reason: 'it matches tools.deny "get-env"',
    });
  }, 120_000);
});
