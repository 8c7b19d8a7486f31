/**
 * `toolsearch demo` (what `npm start` runs): the gateway over HTTP on 127.0.0.1 in front of the
 * bundled reference servers, a summary with the token figure, and a short live round trip
 * (search → load → call) made by a real MCP client so the user sees it work.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Command } from 'commander';
import { addServeOptions, runServe, type ServeOptions } from './serve.js';
import { errorMessage } from '../../util/errors.js';
import { VERSION } from '../../util/version.js';
import { LOCAL_GATEWAY_ADDRESS } from '../options.js';
import { plural } from '../../core/plural.js';

export const DEMO_ADDRESS = LOCAL_GATEWAY_ADDRESS;

export function demoCommand(): Command {
  return addServeOptions(
    new Command('demo').description(
      `Run the gateway over HTTP (default ${DEMO_ADDRESS}) in front of the bundled reference servers, with a live round trip`,
    ),
    { description: 'address to serve on', defaultValue: DEMO_ADDRESS },
  )
    .option('--no-round-trip', 'skip the example search and call')
    .action(async (options: ServeOptions & { roundTrip: boolean }) => {
      const { http } = await runServe({ ...options, http: options.http ?? DEMO_ADDRESS });
      if (!http) return;
      if (options.roundTrip) await roundTrip(http.url, options.token ?? process.env['TOOLSEARCH_TOKEN']);
      process.stdout.write(
        `\nAdd it to an MCP client as {"type": "http", "url": "${http.url}"}` +
          ` — or run "${stdioCommand()}" for stdio. Ctrl-C to stop.\n`,
      );
    });
}

/**
 * The stdio command that works where the demo ran: started by npm (`npm start` in a clone, `npx`)
 * there is no `toolsearch` on the PATH before a global install, but `npx toolsearch serve` runs the
 * clone's own bin (and, unlike `npm run serve`, prints nothing of npm's on stdout, the JSON-RPC channel).
 */
function stdioCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env['npm_lifecycle_event'] !== undefined ? 'npx toolsearch serve' : 'toolsearch serve';
}

async function roundTrip(url: string, token: string | undefined): Promise<void> {
  const client = new Client({ name: 'toolsearch-demo', version: VERSION });
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
  );
  const say = (text: string) => process.stdout.write(`${text}\n`);
  try {
    await client.connect(transport);
    const before = await client.listTools();
    say(
      `\nround trip: a new session lists ${plural(before.tools.length, 'tool')}: ${before.tools.map((t) => t.name).join(', ')}`,
    );
    const search = await client.callTool({ name: 'tool_search', arguments: { query: 'echo message' } });
    const first = (search.content as { type: string; text?: string }[])[0];
    say(`tool_search "echo message" → ${first?.text ?? ''}`);
    // Ask again rather than trust the client's cache: a growing list changes with a search.
    const after = await client.listTools(undefined, { cacheMode: 'refresh' });
    say(`after the search the session lists ${plural(after.tools.length, 'tool')}`);
    const echo = /\bmcp__[\w-]+__echo\b/.exec(first?.text ?? '')?.[0];
    if (echo) {
      // The default fixed list never shows found tools: they run through call_tool.
      const direct = after.tools.some((t) => t.name === echo);
      const args = { message: 'hello through the gateway' };
      const result = await client.callTool(
        direct ? { name: echo, arguments: args } : { name: 'call_tool', arguments: { name: echo, arguments: args } },
      );
      const text = (result.content as { type: string; text?: string }[])[0]?.text;
      say(
        `${direct ? '' : 'call_tool → '}${echo}({message: "hello through the gateway"}) → ${text ?? JSON.stringify(result)}`,
      );
    }
  } catch (error) {
    say(`round trip failed: ${errorMessage(error)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}
