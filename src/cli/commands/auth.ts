/**
 * G7 — `toolsearch auth login <server>`, `auth status`, `auth logout <server>`: sign-in to OAuth
 * servers of a config. Credentials live in the state directory ($TOOLSEARCH_STATE_DIR, else
 * $XDG_STATE_HOME/toolsearch or ~/.local/state/toolsearch), owner-only — or, when the config's
 * `toolSearch.sessionStore` (or --session-store, $TOOLSEARCH_SESSION_STORE) names the replicas'
 * Redis, there, so one sign-in serves every replica. Nothing here prints a token.
 */
import { Command } from 'commander';
import { type HttpServerConfig, type HubConfig, isStdioServer, readHubConfig } from '../../mcp/config.js';
import { connectRedisBackend } from '../../gateway/redis/backend.js';
import { SESSION_STORE_ENV, sessionStoreFrom } from '../../gateway/redis/store-url.js';
import { type CredentialBackend, type CredentialSource, fileCredentials } from '../../mcp/remote/oauth/store.js';
import { signIn } from '../../mcp/remote/oauth/login.js';
import { oauthBounds } from '../../mcp/remote/options.js';
import { resolveLimits } from '../../core/limits.js';
import { defaultStateDir } from '../../mcp/state-dir.js';
import { httpTarget } from '../../mcp/url-credentials.js';

interface AuthOptions {
  config: string;
  json?: boolean;
  timeout?: string;
  sessionStore?: string;
}

const STORE_OPTION = [
  '--session-store <url>',
  `keep sign-ins in the replicas' Redis (or ${SESSION_STORE_ENV}; default the config's toolSearch.sessionStore)`,
] as const;

export function authCommand(): Command {
  const auth = new Command('auth').description('sign in to OAuth-protected MCP servers of a config');
  auth
    .command('login <server>')
    .description('open the sign-in page of <server> and keep its tokens (a running gateway picks them up)')
    .requiredOption('-c, --config <file>', 'the MCP servers config that names <server>')
    .option('--timeout <seconds>', 'how long to wait for the browser', '300')
    .option(...STORE_OPTION)
    .action(async (server: string, options: AuthOptions) => {
      const hub = await readHubConfig(options.config);
      const config = httpServer(hub, options.config, server);
      await withCredentials(options, hub, async (credentials) => {
        const store = storeOf(server, config, credentials);
        await signIn({
          server,
          config,
          stateDir: defaultStateDir(),
          store,
          say: (line) => process.stderr.write(`${line}\n`),
          timeoutMs: Number(options.timeout) * 1000,
          bounds: oauthBounds(resolveLimits({ values: hub.toolSearch.limits, source: options.config })),
        });
        process.stderr.write(`Signed in to "${server}". Its tokens are kept in ${store.where}.\n`);
      });
    });
  auth
    .command('status')
    .description('which HTTP servers of the config are signed in (never shows a token)')
    .requiredOption('-c, --config <file>', 'the MCP servers config')
    .option('--json', 'print JSON')
    .option(...STORE_OPTION)
    .action(async (options: AuthOptions) => {
      const hub = await readHubConfig(options.config);
      const rows: ({ server: string } & Awaited<ReturnType<typeof describe>>)[] = [];
      await withCredentials(options, hub, async (credentials) => {
        for (const [server, config] of Object.entries(hub.servers)) {
          if (isStdioServer(config)) continue;
          rows.push({ server, ...(await describe(server, config, credentials)) });
        }
      });
      if (options.json) return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      for (const row of rows)
        process.stdout.write(`${row.server.padEnd(24)} ${row.state}${row.detail ? `  ${row.detail}` : ''}\n`);
    });
  auth
    .command('logout <server>')
    .description("forget <server>'s tokens and client registration")
    .requiredOption('-c, --config <file>', 'the MCP servers config that names <server>')
    .option(...STORE_OPTION)
    .action(async (server: string, options: AuthOptions) => {
      const hub = await readHubConfig(options.config);
      const config = httpServer(hub, options.config, server);
      await withCredentials(options, hub, (credentials) => storeOf(server, config, credentials).clear());
      process.stderr.write(`Signed out of "${server}".\n`);
    });
  return auth;
}

function httpServer(hub: HubConfig, file: string, server: string): HttpServerConfig {
  const config = hub.servers[server];
  if (!config) throw new Error(`${file}: no server "${server}" (servers: ${Object.keys(hub.servers).join(', ')})`);
  if (isStdioServer(config)) throw new Error(`${file}: "${server}" is a stdio server; only HTTP servers sign in`);
  if (config.oauth === false) throw new Error(`${file}: "${server}" has "oauth": false`);
  return config;
}

function storeOf(server: string, config: HttpServerConfig, credentials: CredentialSource): CredentialBackend {
  return credentials(server, httpTarget(config.url, config.headers).url.href);
}

/**
 * Runs `use` with where sign-ins are kept: the Redis named by --session-store, the environment or
 * the config's `toolSearch.sessionStore` (what the gateway reads them from), else the state directory.
 */
async function withCredentials<T>(
  options: AuthOptions,
  hub: HubConfig,
  use: (credentials: CredentialSource) => Promise<T>,
): Promise<T> {
  const url = sessionStoreFrom(options.sessionStore) ?? hub.toolSearch.sessionStore;
  if (url === undefined) return use(fileCredentials(defaultStateDir()));
  const redis = await connectRedisBackend(url);
  try {
    return await use(redis.credentials);
  } finally {
    await redis.close();
  }
}

async function describe(
  server: string,
  config: HttpServerConfig,
  credentials: CredentialSource,
): Promise<{ state: string; detail?: string; expiresInSeconds?: number; refreshable?: boolean }> {
  if (config.oauth === false) return { state: 'no OAuth ("oauth": false)' };
  const saved = await storeOf(server, config, credentials).read();
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
