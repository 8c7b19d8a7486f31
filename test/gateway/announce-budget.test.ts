import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
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
