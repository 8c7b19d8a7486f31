/**
 * G7 — `toolsearch auth login <server>`, `auth status`, `auth logout <server>`: sign-in to OAuth
 * servers of a config. Credentials live in the state directory ($TOOLSEARCH_STATE_DIR, else
 * $XDG_STATE_HOME/toolsearch or ~/.local/state/toolsearch), owner-only; nothing here prints a token.
 */
import { Command } from 'commander';
import { type HttpServerConfig, isStdioServer, readHubConfig } from '../../mcp/config.js';
import { CredentialStore } from '../../mcp/remote/oauth/store.js';
import { signIn } from '../../mcp/remote/oauth/login.js';
import { defaultStateDir } from '../../mcp/state-dir.js';
import { httpTarget } from '../../mcp/url-credentials.js';

interface AuthOptions {
  config: string;
  json?: boolean;
  timeout?: string;
}

export function authCommand(): Command {
  const auth = new Command('auth').description('sign in to OAuth-protected MCP servers of a config');
  auth
    .command('login <server>')
    .description('open the sign-in page of <server> and keep its tokens (a running gateway picks them up)')
    .requiredOption('-c, --config <file>', 'the MCP servers config that names <server>')
    .option('--timeout <seconds>', 'how long to wait for the browser', '300')
    .action(async (server: string, options: AuthOptions) => {
      const config = await httpServer(options.config, server);
      await signIn({
        server,
        config,
        stateDir: defaultStateDir(),
        say: (line) => process.stderr.write(`${line}\n`),
        timeoutMs: Number(options.timeout) * 1000,
      });
      process.stderr.write(`Signed in to "${server}".\n`);
    });
  auth
    .command('status')
    .description('which HTTP servers of the config are signed in (never shows a token)')
    .requiredOption('-c, --config <file>', 'the MCP servers config')
    .option('--json', 'print JSON')
    .action(async (options: AuthOptions) => {
      const hub = await readHubConfig(options.config);
      const rows = [];
      for (const [server, config] of Object.entries(hub.servers)) {
        if (isStdioServer(config)) continue;
        rows.push({ server, ...(await describe(server, config)) });
      }
      if (options.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      for (const row of rows)
        process.stdout.write(`${row.server.padEnd(24)} ${row.state}${row.detail ? `  ${row.detail}` : ''}\n`);
    });
  auth
    .command('logout <server>')
    .description("forget <server>'s tokens and client registration")
    .requiredOption('-c, --config <file>', 'the MCP servers config that names <server>')
    .action(async (server: string, options: AuthOptions) => {
      const config = await httpServer(options.config, server);
      await store(server, config).clear();
      process.stderr.write(`Signed out of "${server}".\n`);
    });
  return auth;
}

async function httpServer(file: string, server: string): Promise<HttpServerConfig> {
  const hub = await readHubConfig(file);
  const config = hub.servers[server];
  if (!config) throw new Error(`${file}: no server "${server}" (servers: ${Object.keys(hub.servers).join(', ')})`);
  if (isStdioServer(config)) throw new Error(`${file}: "${server}" is a stdio server; only HTTP servers sign in`);
  if (config.oauth === false) throw new Error(`${file}: "${server}" has "oauth": false`);
  return config;
}

function store(server: string, config: HttpServerConfig): CredentialStore {
  return new CredentialStore(defaultStateDir(), server, httpTarget(config.url, config.headers).url.href);
}

async function describe(
  server: string,
  config: HttpServerConfig,
): Promise<{ state: string; detail?: string; expiresInSeconds?: number; refreshable?: boolean }> {
  if (config.oauth === false) return { state: 'no OAuth ("oauth": false)' };
  const saved = await store(server, config).read();
  if (!saved.tokens) return { state: 'not signed in', detail: `toolsearch auth login ${server} --config …` };
  const refreshable = saved.tokens.refresh_token !== undefined;
  const expiresInSeconds =
    saved.expiresAt !== undefined ? Math.round((saved.expiresAt - Date.now()) / 1000) : undefined;
  const expiry =
    expiresInSeconds === undefined
      ? 'no expiry given'
      : expiresInSeconds > 0
        ? `expires in ${expiresInSeconds} s`
        : 'expired';
  return {
    state: 'signed in',
    detail: `${expiry}${refreshable ? ', refreshable' : ''}`,
    ...(expiresInSeconds !== undefined && { expiresInSeconds }),
    refreshable,
  };
}
