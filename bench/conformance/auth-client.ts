/**
 * G7 — the client under test for `@modelcontextprotocol/conformance client --suite auth`: our own
 * path end to end. The suite runs `<command> <serverUrl>` with MCP_CONFORMANCE_SCENARIO and, for
 * pre-registration, MCP_CONFORMANCE_CONTEXT ({client_id, client_secret}). We write a config entry
 * for the URL, sign in with `signIn` (what `toolsearch auth login` runs; the mock authorization
 * endpoint redirects at once, so the "browser" follows redirects), then a hub connects with the
 * stored tokens, lists the tools and calls one. Logs go to stderr.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HttpServerConfig, parseHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { signIn } from '../../src/mcp/remote/oauth/login.js';

const url = process.argv[process.argv.length - 1]!;
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as {
  client_id?: string;
  client_secret?: string;
};
const log = (line: string) => process.stderr.write(`[toolsearch ${scenario}] ${line}\n`);
const follow = fileURLToPath(new URL('../../test/fixtures/follow-redirects.mjs', import.meta.url));

const oauth = context.client_id
  ? {
      clientId: context.client_id,
      ...(context.client_secret !== undefined && { clientSecretEnv: 'CONFORMANCE_CLIENT_SECRET' }),
    }
  : true;
const env = {
  ...process.env,
  BROWSER: `${process.execPath} ${follow}`,
  CONFORMANCE_CLIENT_SECRET: context.client_secret ?? '',
};
const config = parseHubConfig({ mcpServers: { conformance: { url, oauth } } }, 'conformance');
const stateDir = mkdtempSync(join(tmpdir(), 'toolsearch-conformance-'));

try {
  await signIn({
    server: 'conformance',
    config: config.servers['conformance'] as HttpServerConfig,
    stateDir,
    say: log,
    env,
    timeoutMs: 20_000,
  });
  const hub = new McpHub(config, { stateDir, reconnect: false }).start();
  await hub.settled();
  const status = hub.status()[0];
  if (status?.state !== 'connected') throw new Error(`not connected: ${status?.state} ${status?.lastError ?? ''}`);
  const tools = hub.catalog.tools.map((tool) => tool.name);
  log(`tools: ${tools.join(', ')}`);
  const first = tools[0]?.replace(/^mcp__conformance__/, '');
  if (first !== undefined) await hub.callTool('conformance', first, {});
  await hub.close();
  process.exit(0);
} catch (error) {
  log(`error: ${(error as Error).message}`);
  process.exit(1);
}
