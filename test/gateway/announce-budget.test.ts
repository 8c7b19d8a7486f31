import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { Learner } from '../../src/usage/learner.js';
import { ToolsearchGateway } from '../../src/gateway/gateway.js';
import { searchToolSpec } from '../../src/core/search-tool.js';
import { toolDefinitionJson } from '../../src/core/tool.js';
import { CALL_TOOL_TOKENS, callToolDefinition, SEARCH_TOOL_TOKENS } from '../../src/gateway/tools/definitions.js';

/** `servers` upstream servers of `perServer` tools each. */
function bigCatalog(servers: number, perServer: number): Catalog {
  const catalog = new Catalog();
  for (let s = 0; s < servers; s++)
    catalog.setServerTools(
      `provider-${s}-mcp-server`,
      Array.from({ length: perServer }, (_, i) => ({
        name: `operation_${i}`,
        description: `Operation ${i} of provider ${s}.`,
        inputSchema: { type: 'object', properties: {} },
      })),
    );
  return catalog;
}

async function deferredToolsTokens(gateway: ToolsearchGateway): Promise<{ tokens: number; description: string }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, 'budget');
  const client = new Client({ name: 'budget', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  const carried = tools.filter((t) => t.name === 'tool_search' || t.name === 'call_tool');
  expect(carried).toHaveLength(2);
  const tokens = carried.reduce(
    (sum, t) =>
      sum + encode(JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema })).length,
    0,
  );
  return { tokens, description: carried[0]!.description ?? '' };
}

describe('E4 gateway: tool_search + announcement + call_tool within the budget', () => {
  it("E4: the pinned token counts of tool_search and call_tool are their o200k counts (update them when a definition's text changes)", () => {
    expect(encode(toolDefinitionJson(searchToolSpec())).length).toBe(SEARCH_TOOL_TOKENS);
    expect(encode(toolDefinitionJson(callToolDefinition() as Parameters<typeof toolDefinitionJson>[0])).length).toBe(
      CALL_TOOL_TOKENS,
    );
  });

  it('E4: 400 servers × 25 tools (10,000) fit the default 2,000 tokens; the rest line names the remainder', async () => {
    const gateway = new ToolsearchGateway({ catalog: bigCatalog(400, 25) });
    const { tokens, description } = await deferredToolsTokens(gateway);
    expect(tokens).toBeLessThanOrEqual(2_000);
    expect(description).toMatch(/… and \d+ more servers: search by what the tool does/);
    await gateway.close();
  });

  it('E4: a configured budget is honoured', async () => {
    const gateway = new ToolsearchGateway({ catalog: bigCatalog(400, 25), deferredTokenBudget: 800 });
    const { tokens } = await deferredToolsTokens(gateway);
    expect(tokens).toBeLessThanOrEqual(800);
    await gateway.close();
  });
});

/** A client session on `gateway` (in memory). */
async function session(gateway: ToolsearchGateway, id: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide, id);
  const client = new Client({ name: id, version: '1' });
  await client.connect(clientSide);
  return client;
}

async function announcement(client: Client): Promise<string> {
  const { tools } = await client.listTools();
  return tools.find((t) => t.name === 'tool_search')?.description ?? '';
}

/** The server lines of a grouped announcement, in order. */
function namedServers(description: string): string[] {
  return [...description.matchAll(/^(mcp__[\w-]+): \d+ tools?$/gm)].map((m) => m[1]!);
}

describe('E4 gateway: which servers the budget names', () => {
  // 400 servers of 25 tools: by size they tie, so the alphabetical first ones are named.
  const LATE = 'provider-99-mcp-server';

  it('E4/E5: loading a tool never reorders the announcement (it heads the prompt: the cached prefix survives)', async () => {
    const gateway = new ToolsearchGateway({ catalog: bigCatalog(400, 25) });
    const a = await session(gateway, 'a');
    const b = await session(gateway, 'b');
    const before = await announcement(a);
    expect(namedServers(before)).not.toContain(`mcp__${LATE}`);
    expect(await announcement(a)).toBe(before); // nothing changed: same prefix

    await a.callTool({ name: 'tool_search', arguments: { query: `select:mcp__${LATE}__operation_1` } });
    const after = await announcement(a);
    expect(after).toBe(before);
    expect(after).toMatch(/… and \d+ more servers/);
    expect(await announcement(b)).toBe(before);
    await a.close();
    await b.close();
    await gateway.close();
  });

  it('E4: within the budget every server is named in the same order, whatever the session loaded', async () => {
    const gateway = new ToolsearchGateway({ catalog: bigCatalog(10, 3) });
    const a = await session(gateway, 'a');
    const before = await announcement(a);
    await a.callTool({ name: 'tool_search', arguments: { query: 'select:mcp__provider-9-mcp-server__operation_1' } });
    expect(await announcement(a)).toBe(before);
    await a.close();
    await gateway.close();
  });

  it('E4/C13: servers that learned searches led to are named before the rest, read once per catalog version', async () => {
    const learner = new Learner();
    learner.record('run operation ninety nine', `mcp__${LATE}__operation_2`);
    const catalog = bigCatalog(400, 25);
    const gateway = new ToolsearchGateway({ catalog, learner });
    const a = await session(gateway, 'a');
    const first = await announcement(a);
    expect(namedServers(first)[0]).toBe(`mcp__${LATE}`);
    // More evidence for another server does not move the text until the catalog changes.
    learner.record('provider 98', 'mcp__provider-98-mcp-server__operation_0');
    learner.record('provider 98 again', 'mcp__provider-98-mcp-server__operation_0');
    expect(await announcement(a)).toBe(first);
    catalog.setServerTools('one-more-server', [{ name: 'x', description: 'x', inputSchema: { type: 'object' } }]);
    expect(namedServers(await announcement(a))[0]).toBe('mcp__provider-98-mcp-server');
    await a.close();
    await gateway.close();
  });
});
