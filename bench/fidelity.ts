/**
 * `npx tsx bench/fidelity.ts` — what a capable MCP client (SDK `Client` with sampling, elicitation
 * and roots) gets from server-everything directly vs through the gateway (Streamable HTTP, mode
 * `never` so every tool is listed). Prints tool counts and per-field counts, whether each tool is
 * identical but for its name (input schema compared without `$schema`, which the gateway drops),
 * capabilities, and whether resources, templates and prompts are identical.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { startHttpGateway } from '../src/gateway/transports/http/server.js';
import { createGatewayFromConfig } from '../src/gateway/create.js';
import { parseHubConfig } from '../src/mcp/config.js';
import { referenceServerConfig } from '../src/mcp/defaults.js';
import { waitFor } from '../test/fixtures/wait.js';
import { capableClient } from '../test/gateway/fidelity-clients.js';

const FIELDS = ['title', 'annotations', 'outputSchema', 'icons', 'execution', '_meta'] as const;
const server = referenceServerConfig('everything') as { command: string; args: string[] };
const hasConditionalTools = (tools: Tool[]) => tools.some((t) => t.name.endsWith('trigger-sampling-request'));

const direct = await capableClient('direct', new StdioClientTransport({ ...server, stderr: 'pipe' }));
/** The tools once the capability-dependent ones (registered just after initialize) are in. */
async function fullList(list: () => Promise<Tool[]>): Promise<Tool[]> {
  await waitFor(async () => hasConditionalTools(await list()), 'the conditional tools');
  return list();
}
const directTools = await fullList(async () => (await direct.client.listTools()).tools);
const stack = await createGatewayFromConfig({
  config: parseHubConfig({ mcpServers: { everything: server } }, 'bench'),
  gateway: { mode: 'never' },
});
const http = await startHttpGateway(stack.gateway, { port: 0 });
await stack.hub.settled();
const gateway = await capableClient('gateway', new StreamableHTTPClientTransport(new URL(http.url)));
const gatewayTools = await fullList(async () =>
  (await gateway.client.listTools()).tools.filter((t) => t.name.startsWith('mcp__')),
);

const withoutDialect = (tool: Tool) => {
  const { $schema: _dialect, ...inputSchema } = tool.inputSchema as Record<string, unknown>;
  return { ...tool, name: '', inputSchema };
};
/** JSON with object keys sorted at every depth: equal values, equal text. */
const stable = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(stable)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
        )
      : value;
const sameJson = (a: unknown, b: unknown) => JSON.stringify(stable(a)) === JSON.stringify(stable(b));
const identical = directTools.filter((d) => {
  const through = gatewayTools.find((t) => t.name === `mcp__everything__${d.name}`);
  return through !== undefined && sameJson(withoutDialect(through), withoutDialect(d));
}).length;

console.log('command: npx tsx bench/fidelity.ts');
console.log(
  `tools listed: direct ${directTools.length}, through the gateway ${gatewayTools.length}; identical but for the name: ${identical}/${directTools.length}`,
);
for (const field of FIELDS) {
  const count = (tools: Tool[]) => tools.filter((t) => t[field] !== undefined).length;
  console.log(`  tools with ${field}: direct ${count(directTools)}, gateway ${count(gatewayTools)}`);
}
const caps = (c: typeof direct) =>
  Object.keys(c.client.getServerCapabilities() ?? {})
    .sort()
    .join(', ');
console.log(`capabilities: direct [${caps(direct)}], gateway [${caps(gateway)}]`);
const lists = [
  ['resources', (c: typeof direct) => c.client.listResources().then((r) => r.resources)],
  ['resource templates', (c: typeof direct) => c.client.listResourceTemplates().then((r) => r.resourceTemplates)],
  ['prompts', (c: typeof direct) => c.client.listPrompts().then((r) => r.prompts)],
] as const;
for (const [what, list] of lists) {
  const [d, g] = await Promise.all([list(direct), list(gateway)]);
  console.log(
    `${what}: direct ${d.length}, gateway ${g.length}, identical: ${JSON.stringify(d) === JSON.stringify(g)}`,
  );
}
await Promise.allSettled([gateway.close(), direct.close()]);
await http.close();
await stack.close();
