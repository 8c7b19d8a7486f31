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

const login = () =>
  signIn({
    server: 'conformance',
    config: config.servers['conformance'] as HttpServerConfig,
    stateDir,
    say: log,
    env,
    timeoutMs: 20_000,
  });

/** Wait until the hub is connected again (it watches the credentials a sign-in writes). */
async function connected(hub: McpHub): Promise<void> {
  for (let i = 0; i < 100 && hub.status()[0]?.state !== 'connected'; i++) await new Promise((r) => setTimeout(r, 100));
  const status = hub.status()[0];
  if (status?.state !== 'connected') throw new Error(`not connected: ${status?.state} ${status?.lastError ?? ''}`);
}

try {
  await login();
  const hub = new McpHub(config, { stateDir, reconnect: false }).start();
  await hub.settled();
  await connected(hub);
  const tools = hub.catalog.tools.map((tool) => tool.name);
  log(`tools: ${tools.join(', ')}`);
  const first = tools[0]?.replace(/^mcp__conformance__/, '');
  if (first !== undefined) {
    try {
      await hub.callTool('conformance', first, {});
    } catch (error) {
      // A 403 insufficient_scope turns the server to "needs sign-in" with the wider scope: sign in
      // again (as a user would run `auth login`) and retry once; never more.
      if (!/needs sign-in/.test((error as Error).message)) throw error;
      log('step-up: signing in again with the wider scope');
      await login();
      await connected(hub);
      await hub.callTool('conformance', first, {});
    }
  }
  await hub.close();
  process.exit(0);
} catch (error) {
  log(`error: ${(error as Error).message}`);
  process.exit(1);
}
