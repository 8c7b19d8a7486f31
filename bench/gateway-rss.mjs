/**
 * `node --expose-gc bench/gateway-rss.mjs [copies]` (after `npm run build`) — the gateway process's
 * RSS with Smithery's tools (× copies, servers renamed) indexed, from the built package: plain Node,
 * no tsx loader in the process (bench/gateway-scale.ts runs it; its own children carry tsx). Read
 * after a GC and one idle second (the freed pages' release settled).
 * Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Catalog } from '../dist/core/catalog.js';
import { ToolsearchGateway } from '../dist/gateway/gateway.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DATA = process.env.TOOLSEARCH_DATA ?? resolve(HERE, '../../shared/data/tool-retrieval');
const copies = Number(process.argv[2] ?? 5);
const byServer = new Map();
for (const line of readFileSync(join(DATA, 'smithery', 'catalog.jsonl'), 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const t = JSON.parse(line);
  const list = byServer.get(t.server) ?? [];
  if (!list.some((x) => x.name === t.name))
    list.push({ name: t.name, description: t.description, inputSchema: t.inputSchema });
  byServer.set(t.server, list);
}
const catalog = new Catalog();
for (let copy = 0; copy < copies; copy++)
  for (const [server, list] of byServer) catalog.setServerTools(copy === 0 ? server : `${server}-copy${copy}`, list);
byServer.clear();
const gateway = new ToolsearchGateway({ catalog });
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await gateway.connect(serverSide, 'rss');
const client = new Client({ name: 'rss', version: '1' });
await client.connect(clientSide);
await client.listTools();
for (const query of ['weather forecast', 'send a message to a slack channel', 'create a github issue'])
  await client.callTool({ name: 'tool_search', arguments: { query } });
globalThis.gc?.();
// V8 hands the pages a GC freed back to the OS on a background thread: read RSS once that settled
// (immediately after gc() it still counts them, 25–35 MB at 50k tools, varying run to run).
await new Promise((resolve) => setTimeout(resolve, 1000));
const m = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({ tools: catalog.tools.length, rssMb: m.rss / 1e6, heapMb: m.heapUsed / 1e6, externalMb: (m.external + m.arrayBuffers) / 1e6 })}\n`,
);
await client.close();
await gateway.close();
