// H4 CI check, run from a directory where toolsearch is installed: start the installed
// `toolsearch serve` over stdio (bundled servers), search once right after start, load and call a
// tool, exit 0 on success. Uses the MCP SDK that the installed package depends on.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = process.argv[2];
const client = new Client({ name: 'ci-roundtrip', version: '1.0.0' });
const transport = new StdioClientTransport({ command: bin, args: ['serve', '--log-level', 'warn'], stderr: 'inherit' });
const fail = (message) => {
  console.error(`roundtrip: ${message}`);
  process.exitCode = 1;
};
try {
  await client.connect(transport);
  const listed = (await client.listTools()).tools.map((t) => t.name);
  if (!listed.includes('tool_search')) fail(`tools/list has no tool_search: ${listed.join(', ')}`);
  const search = await client.callTool({ name: 'tool_search', arguments: { query: 'echo a message' } });
  const text = search.content.map((c) => c.text ?? '').join('\n');
  if (!text.includes('mcp__everything__echo')) fail(`the first search did not load echo:\n${text}`);
  const echo = await client.callTool({ name: 'mcp__everything__echo', arguments: { message: 'hello from CI' } });
  const echoed = echo.content.map((c) => c.text ?? '').join('\n');
  if (!echoed.includes('hello from CI')) fail(`echo answered: ${echoed}`);
  if (!process.exitCode) console.log(`roundtrip ok: ${listed.length} tools listed, echo loaded and called`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  await client.close().catch(() => undefined);
}
