/**
 * `npx tsx bench/gateway-scale.ts` — the gateway's per-request cost at 10,000 deferred tools
 * (issue 11): `tools/list` for a session and a keyword `tool_search`, each repeated on an unchanged
 * catalog (the case the catalog-version caches are for). Prints mean ms per request.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Catalog } from '../src/core/catalog.js';
import { ToolsearchGateway } from '../src/gateway/gateway.js';

const TOOLS = 10_000;
const ROUNDS = 200;
const catalog = new Catalog();
for (let s = 0; s < 20; s++) {
  catalog.setServerTools(
    `server${s}`,
    Array.from({ length: TOOLS / 20 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Tool ${i} of server ${s}: reads, writes and lists records number ${i * 7}.`,
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    })),
  );
}
const gateway = new ToolsearchGateway({ catalog });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await gateway.connect(serverSide, 'scale');
const client = new Client({ name: 'scale', version: '1' });
await client.connect(clientSide);

async function mean(what: string, run: (i: number) => Promise<unknown>): Promise<void> {
  await run(-1); // warm: first index build and first announcement
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await run(i);
  console.log(`${what}: ${((performance.now() - started) / ROUNDS).toFixed(2)} ms mean over ${ROUNDS}`);
}
await mean(`tools/list at ${TOOLS} tools`, () => client.listTools());
await mean(`tool_search (keywords) at ${TOOLS} tools`, (i) =>
  client.callTool({ name: 'tool_search', arguments: { query: `lists records number ${i}` } }),
);
await client.close();
await gateway.close();
