/**
 * `toolsearch demo` (what `npm start` runs): the gateway over HTTP on 127.0.0.1 in front of the
 * bundled reference servers, a summary with the token figure, and a short live round trip
 * (search → load → call) made by a real MCP client so the user sees it work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
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
      const state = useOwnState();
      const { http } = await runServe({
        ...options,
        http: options.http ?? DEMO_ADDRESS,
        memoryFile: options.memoryFile ?? join(state, 'memory.jsonl'),
      });
      if (!http) return;
      if (options.roundTrip) await roundTrip(http.url, options.token ?? process.env['TOOLSEARCH_TOKEN']);
      process.stdout.write(
        `\nThe demo keeps its state in ${state} (removed when it stops).` +
          `\nAdd it to an MCP client as {"type": "http", "url": "${http.url}"}` +
          ` — or run "${stdioCommand()}" for stdio. Ctrl-C to stop.\n`,
      );
    });
}

/**
 * The demo's state (pinned definitions, learned searches, what it learns about servers, the
 * memory server's file) goes to a temporary folder of its own, removed when it stops: a demo run
 * from any clone must not add to the state of the gateway a user runs for real, which every clone
 * and every run of `npm start` used to share (one user's had grown to 20,000 pins).
 */
function useOwnState(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolsearch-demo-'));
  process.env['TOOLSEARCH_STATE_DIR'] = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The stdio command that works where the demo ran. Through the `toolsearch` bin (a global
 * install): `toolsearch serve`. Otherwise (`npm start` in a clone, `node dist/cli/main.js demo`)
 * there is no `toolsearch` on the PATH, and the package is not on the npm registry, so `npx
 * toolsearch` would not find it: Node with this very file, by its absolute path, works from anywhere.
 */
export function stdioCommand(script: string | undefined = process.argv[1]): string {
  if (script === undefined || basename(script) === 'toolsearch') return 'toolsearch serve';
  const path = resolve(script);
  return `node ${/^[\w./@:+-]+$/.test(path) ? path : JSON.stringify(path)} serve`;
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
