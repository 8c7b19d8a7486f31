/**
 * H1/G3 — `toolsearch serve`: the MCP gateway over stdio (default) or Streamable HTTP.
 * With no `--config` it fronts the reference servers installed with the package.
 */
import { Command, InvalidArgumentError } from 'commander';
import { LIMIT_NAMES, type LimitName } from '../../core/limits.js';
import { defaultHubConfig } from '../../mcp/defaults.js';
import { loadCatalogFromConfig } from '../../mcp/load.js';
import { refuseServingAgain } from '../../mcp/self-reference.js';
import { logFilesystemRoot } from '../default-root.js';
import { addInspectPoolLoader } from './inspect.js';
import { type InstallTimeoutFlag, installTimeoutOption, parsePositiveInt, parseToolList } from '../options.js';
import type { ToolListMode } from '../../core/session-policy.js';
import { collectTrustedProxies, parseHostPort, parseLimitOption, resolveTokens } from './serve-flags.js';
import { createStderrLogger, isLogLevel, type LogLevel, type Logger } from '../../util/log.js';
import { createGatewayFromConfig, serveSessionSettings, type GatewayStack } from '../../gateway/create.js';
import { readHubConfig } from '../../mcp/config.js';
import { addEmbeddingsOptions, embeddingsFromFlags, type EmbeddingsFlags } from '../embeddings-options.js';
import { isLoopbackHost, startHttpGateway, type RunningHttpGateway } from '../../gateway/transports/http/server.js';
import { UnauthenticatedBindError } from '../../gateway/errors.js';
import { serveStdio } from '../../gateway/transports/stdio.js';
import { HEALTH_PATH, STATUS_PATH, statusRoutes } from '../../gateway/status/routes.js';
import { GATEWAY_SERVER_INFO } from '../../gateway/gateway.js';
import {
  REDIS_PASSWORD_ENV,
  REDIS_PASSWORD_FILE_ENV,
  SESSION_STORE_ENV,
  sessionStoreFrom,
} from '../../gateway/redis/store-url.js';
import { formatSummary, summarizeGateway } from '../../gateway/status/summary.js';
import { GatewayMetrics } from '../../gateway/status/metrics.js';
import { startMetricsListener } from '../../gateway/status/metrics-listener.js';
import { GatewayActivity } from '../../gateway/status/activity.js';
import { profileEndpoints, type ProfileEndpoints } from '../../gateway/profiles/http.js';

export interface ServeOptions extends EmbeddingsFlags, InstallTimeoutFlag {
  config?: string;
  http?: string;
  token?: string;
  logLevel: LogLevel;
  root?: string;
  memoryFile?: string;
  mode?: string;
  /** E4: `--deferred-token-budget`: tokens for tool_search + announcement + call_tool. */
  deferredTokenBudget?: number;
  /** G11: `--code-mode`: offer `run_code`. */
  codeMode?: boolean;
  /** E5: `--tool-list fixed|growing`, over the config's `toolSearch.toolList`. */
  toolList?: ToolListMode;
  allowOrigin: string[];
  allowHost: string[];
  /** G5: `--trust-proxy`: proxies whose X-Forwarded-For names the client. */
  trustProxy?: string[];
  sessionStore?: string;
  /** G5: `--token-file`: the bearer token is the file's first line (kept out of the process list). */
  tokenFile?: string;
  /** G5: `--limit NAME=VALUE` overrides, parsed. */
  limit?: Partial<Record<LimitName, number>>;
  /** G5: serve beyond loopback without a token. */
  dangerouslyAllowUnauthenticated?: boolean;
  /** How long the banner waits for servers before printing them as pending. */
  settleMs: number;
  /** G9: `--metrics HOST:PORT`, a listener of its own for /metrics. */
  metrics?: string;
  /** G9: `--audit-log FILE` ("-" for stderr). */
  auditLog?: string;
  /** G9: `--trace`: OpenTelemetry spans (needs @opentelemetry/api and a registered SDK). */
  trace?: boolean;
  /** G9: `--profile <name>`: on stdio, serve only this profile's servers and tools. */
  profile?: string;
  /** G7: `--no-watch`: reload on SIGHUP only, not on every save. */
  watch?: boolean;
  /** C13: `--no-learning`: searches do not learn from calls (overrides toolSearch.learning). */
  learning?: boolean;
  /** C13: `--learned-file FILE`: where learned search evidence is kept. */
  learnedFile?: string;
}

function parseLogLevel(value: string): LogLevel {
  if (!isLogLevel(value)) throw new InvalidArgumentError('expected silent, error, warn, info or debug');
  return value;
}

/** The `--http` flag: `serve` has no default (stdio), `demo` has one. */
export interface HttpFlag {
  readonly description: string;
  readonly defaultValue?: string;
}

/**
 * The options of `serve` (and `demo`), in help order: what a user needs first (config, address,
 * root, token), then groups for HTTP deployments, search, and operations and limits.
 */
export function addServeOptions(command: Command, http: HttpFlag): Command {
  command
    .option(
      '-c, --config <file>',
      'MCP servers config ({"mcpServers": …}, Claude Desktop format); default: the bundled reference servers',
    )
    .option('--http <host:port>', http.description, http.defaultValue)
    .option(
      '--root <dir>',
      'folder the bundled filesystem server may read and write (default: the current directory, unless that is / or your home directory)',
    )
    .option('--token-file <file>', 'HTTP: read the bearer token from this file (one per line: one per client)')
    .option(
      '--token <token>',
      'HTTP: require "Authorization: Bearer <token>"; visible in the process list, prefer TOOLSEARCH_TOKEN or --token-file',
    )
    .option(
      '--log-level <level>',
      'silent | error | warn | info | debug (logs go to stderr)',
      parseLogLevel,
      'info' as LogLevel,
    )
    .option('--profile <name>', 'stdio: serve only this profile of the config (HTTP serves each at /mcp/<name>)')
    .option('--mode <mode>', 'deferral mode: always | never | auto | auto:N (overrides the config)')
    .option('--memory-file <file>', 'knowledge-graph file of the bundled memory server')
    .option(
      '--tool-list <mode>',
      'fixed (default: found tools are called through call_tool) | growing (found tools join the tool list); overrides the config',
      parseToolList,
    )
    .option(
      '--code-mode',
      'offer run_code: a sandboxed JavaScript body that can search and call tools; only its return value reaches the model',
    );
  command
    .optionsGroup('HTTP deployment:')
    .option(
      '--allow-origin <origin>',
      'HTTP: allow this browser Origin besides loopback (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      '--allow-host <host>',
      'HTTP: accept this Host header besides loopback names (repeatable; for a proxy in front)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      '--trust-proxy <addresses>',
      'HTTP: behind these reverse proxies the client is the address in X-Forwarded-For (IPs, CIDR ranges, loopback, linklocal, uniquelocal; comma-separated, repeatable): keys the initialize rate limit',
      collectTrustedProxies,
      [] as string[],
    )
    .option(
      '--session-store <url>',
      `HTTP: share sessions between replicas in Redis, redis[s]://HOST:PORT[/DB] (or ${SESSION_STORE_ENV}; password: ${REDIS_PASSWORD_ENV} or ${REDIS_PASSWORD_FILE_ENV})`,
    )
    .option(
      '--dangerously-allow-unauthenticated',
      'HTTP: allow binding beyond loopback WITHOUT a token (anyone who reaches the port can call every tool)',
    );
  command
    .optionsGroup('Search:')
    .option(
      '--deferred-token-budget <tokens>',
      'tokens for tool_search + its announcement + call_tool on every tools/list (default 2000; overrides the config)',
      parsePositiveInt,
    )
    .option('--no-learning', 'do not learn from use (a search followed by a call); overrides toolSearch.learning')
    .option('--learned-file <file>', 'where learned search evidence is kept (default: the user state directory)');
  addEmbeddingsOptions(command);
  return command
    .optionsGroup('Operations and limits:')
    .option(
      '--limit <name=value>',
      `a limit (repeatable), e.g. sessions=200, idleSessionTimeoutMs=600000; names: ${LIMIT_NAMES.join(', ')}`,
      parseLimitOption,
    )
    .option('--metrics <host:port>', 'serve Prometheus /metrics on a listener of its own (loopback by default)')
    .option(
      '--audit-log <file>',
      'JSON Lines audit log of calls, searches, sign-ins and reloads ("-" for stderr; overrides toolSearch.audit)',
    )
    .option('--trace', 'OpenTelemetry spans through @opentelemetry/api (to the tracer provider the process registers)')
    .option('--no-watch', 'do not reload the --config file when it changes (SIGHUP still reloads it)')
    .option('--settle-ms <ms>', 'how long to wait for servers before printing the summary', (v) => Number(v), 10_000)
    .addOption(installTimeoutOption())
    .optionsGroup('Options:');
}

export function serveCommand(): Command {
  return addServeOptions(
    new Command('serve').description(
      'Run the MCP gateway: tool_search + discovered tools in front of your MCP servers',
    ),
    { description: 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (host defaults to 127.0.0.1)' },
  ).action(async (options: ServeOptions) => {
    await runServe(options);
  });
}

/**
 * Start the stack; in HTTP mode resolves once listening and the banner is printed.
 * H4: everything that can fail at startup (address, token, config, port) fails before any
 * upstream server is spawned, so a failed start leaves no child process behind.
 */
export async function runServe(
  options: ServeOptions,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<{ stack: GatewayStack; http?: RunningHttpGateway; metricsUrl?: string }> {
  const logger = createStderrLogger(options.logLevel);
  // G1: a config that lists this gateway behind a wrapper: the gateway it started refuses here.
  if (options.config !== undefined) refuseServingAgain(options.config);
  const embeddings = embeddingsFromFlags(options);
  // G5: refuse an unsafe bind before any server is spawned.
  const bind =
    options.http === undefined ? undefined : { ...parseHostPort(options.http), token: await resolveTokens(options) };
  if (bind && bind.token === undefined && !isLoopbackHost(bind.host) && !options.dangerouslyAllowUnauthenticated)
    throw new UnauthenticatedBindError(bind.host);
  // G6: flag, then environment, then (in createGatewayFromConfig) the config's toolSearch.sessionStore.
  const sessionStore = sessionStoreFrom(options.sessionStore);
  // G5: with the bundled servers, say which folder the filesystem server may write (or why none).
  if (options.config === undefined) logFilesystemRoot(logger, options.root);
  const stack = await createGatewayFromConfig({
    ...(embeddings !== undefined && { embeddings }),
    ...(options.config !== undefined && { config: options.config }),
    ...(options.root !== undefined && { root: options.root }),
    ...(options.codeMode === true && { codeMode: true }),
    ...(options.toolList !== undefined && { toolList: options.toolList }),
    ...(options.memoryFile !== undefined && { memoryFile: options.memoryFile }),
    ...(options.installTimeoutMs !== undefined && { hub: { installTimeoutMs: options.installTimeoutMs } }),
    ...((options.mode !== undefined || options.deferredTokenBudget !== undefined) && {
      gateway: {
        ...(options.mode !== undefined && { mode: options.mode }),
        ...(options.deferredTokenBudget !== undefined && { deferredTokenBudget: options.deferredTokenBudget }),
      },
    }),
    // Stdio has one client: its sessions stay in memory.
    sessionStore: options.http === undefined ? null : sessionStore,
    // G7: stdio too reads sign-ins from the store its HTTP replicas would share.
    ...(sessionStore !== undefined && { credentialStore: sessionStore }),
    ...(options.limit !== undefined && { limits: options.limit }),
    ...(options.auditLog !== undefined && { audit: { file: options.auditLog } }),
    ...(options.trace === true && { tracing: true }),
    // H4: servers start only once the port is bound.
    startHub: false,
    // G7: a saved config file applies without a restart (`--no-watch`: on SIGHUP only).
    watchConfig: options.watch !== false,
    // C13: serve learns from use unless told not to (flag, then config).
    learningByDefault: true,
    trustByDefault: true,
    ...(options.learning === false
      ? { learning: null }
      : options.learnedFile !== undefined && { learning: { path: options.learnedFile } }),
    logger,
  });
  let http: RunningHttpGateway | undefined;
  let served: GatewayStack['gateway'];
  try {
    served = stdioGateway(stack, options.profile);
  } catch (error) {
    await stack.close();
    throw error;
  }
  // G9: Prometheus metrics on the HTTP gateway (with the token), or on their own listener.
  const metrics =
    bind !== undefined || options.metrics !== undefined
      ? new GatewayMetrics({
          gateway: stack.gateway,
          servers: () => stack.hub.status(),
          ...(stack.audit && { audit: stack.audit }),
        })
      : undefined;
  const closeMetrics = stack.close.bind(stack);
  stack.close = async () => {
    await closeMetrics();
    metrics?.close();
  };
  let metricsUrl: string | undefined;
  if (metrics && options.metrics !== undefined) {
    try {
      // G3: the gateway's token in stdio mode too, and the main listener's Host/Origin rules.
      const token = bind ? bind.token : await resolveTokens(options);
      const listener = await startMetricsListener(metrics, {
        ...parseHostPort(options.metrics),
        ...(token !== undefined && { token }),
        allowHost: options.allowHost ?? [],
        allowOrigin: options.allowOrigin ?? [],
        ...(options.dangerouslyAllowUnauthenticated === true && { allowUnauthenticated: true }),
      });
      const closeRest = stack.close;
      stack.close = async () => {
        await listener.close();
        await closeRest();
      };
      metricsUrl = listener.url;
      logger.info(`metrics: ${listener.url}`);
    } catch (error) {
      await stack.close();
      throw error;
    }
  }
  if (bind !== undefined) {
    const { host, port, token } = bind;
    const activity = new GatewayActivity(stack.gateway.operations.events);
    // H3: /healthz and the status page, under the same Origin, Host and token rules as /mcp.
    const endpointOptions = {
      host,
      maxSessions: stack.limits.sessions,
      maxBodyBytes: stack.limits.requestBodyBytes,
      idleSessionTimeoutMs: stack.limits.idleSessionTimeoutMs,
      maxStreamQueuedBytes: stack.limits.streamQueuedBytes,
      initializeRate: { perMinute: stack.limits.initializePerMinute, burst: stack.limits.initializeBurst },
      ...(options.dangerouslyAllowUnauthenticated === true && { allowUnauthenticated: true }),
      allowedOrigins: options.allowOrigin,
      allowedHosts: options.allowHost,
      ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
      logger,
      ...(token !== undefined && { token }),
    };
    let profiles: ProfileEndpoints | undefined;
    const routes = statusRoutes(
      {
        gateway: stack.gateway,
        servers: () => stack.hub.status(),
        sessions: () => http?.sessionCount() ?? 0,
        ...(metrics && { metrics }),
        config: () => stack.reloader?.status(),
        activity,
        profiles: () => profiles?.status() ?? [],
        ...(stack.trust && { pins: () => stack.trust!.document }),
        privateProfiles: () => profiles?.withOwnToken() ?? [],
      },
      GATEWAY_SERVER_INFO.version,
    );
    try {
      // G9: each profile at /mcp/<name>, on this port, before the status routes.
      profiles = profileEndpoints(stack.profiles, endpointOptions, routes);
      const endpoints = profiles;
      const closeRest = stack.close;
      stack.close = async () => {
        await endpoints.close();
        await closeRest();
      };
      http = await startHttpGateway(stack.gateway, {
        ...endpointOptions,
        routes: endpoints.routes,
        port,
        ...(metrics && { observe: (server) => metrics.observeHttp(server) }),
      });
    } catch (error) {
      await stack.close();
      throw error;
    }
  }
  // G8: over stdio the upstream servers start on the first real request (a client's era probe spawns none).
  if (bind !== undefined) stack.hub.start();
  const shutdown = () => {
    void stack.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  onReloadSignal(stack, logger);
  // Whatever ends the process, spawned servers must not outlive it.
  process.once('exit', () => stack.hub.terminateNow());

  if (bind === undefined || http === undefined) {
    // stdio: stdout is JSON-RPC only; the summary goes to the log.
    const startServers = () => {
      stack.hub.start();
      void stack.hub.settled(options.settleMs).then(async () => logSummary(logger, stack));
    };
    await serveStdio(served, { onFirstRequest: startServers, logger });
    await stack.close();
    return { stack, ...(metricsUrl !== undefined && { metricsUrl }) };
  }
  const { host, token } = bind;
  if (token === undefined && !isLoopbackHost(host) && options.dangerouslyAllowUnauthenticated) {
    logger.warn(
      `serving on ${host} WITHOUT a token (--dangerously-allow-unauthenticated): anyone who can reach it can call every tool`,
    );
  }
  const shared = stack.redis ? `, sessions shared in ${stack.redis.display}` : '';
  out(`toolsearch gateway listening on ${http.url}${token !== undefined ? ' (bearer token required)' : ''}${shared}\n`);
  out(`status page: ${new URL(STATUS_PATH, http.url).href} (health: ${new URL(HEALTH_PATH, http.url).href})\n`);
  const running = http;
  const closeStack = stack.close.bind(stack);
  stack.close = async () => {
    await running.close();
    await closeStack();
  };
  await stack.hub.settled(options.settleMs);
  out(`${formatSummary(await summarizeGateway(stack.gateway))}\n`);
  return { stack, http, ...(metricsUrl !== undefined && { metricsUrl }) };
}

/**
 * G7: SIGHUP reloads the config file (and no longer ends the process, its default). The handler
 * leaves with the stack, so a process that serves several stacks in turn (tests) does not pile them up.
 */
function onReloadSignal(stack: GatewayStack, logger: Logger): void {
  if (process.platform === 'win32') return;
  const onSignal = () => {
    if (!stack.reloader) return logger.warn('SIGHUP: nothing to reload (no --config file; the bundled servers run)');
    logger.info('SIGHUP: reloading the config');
    void stack.reloader.reload('signal');
  };
  process.on('SIGHUP', onSignal);
  const close = stack.close.bind(stack);
  stack.close = async () => {
    process.off('SIGHUP', onSignal);
    await close();
  };
}

/** G9: the gateway stdio serves: the whole one, or a profile's (`--profile`). */
function stdioGateway(stack: GatewayStack, name: string | undefined): GatewayStack['gateway'] {
  if (name === undefined) return stack.gateway;
  const profile = stack.profiles.get(name);
  if (!profile) {
    const known = stack.profiles.list.map((p) => p.name);
    throw new InvalidArgumentError(
      `--profile ${name}: no such profile in the config${known.length > 0 ? ` (profiles: ${known.join(', ')})` : ''}`,
    );
  }
  // G7: a reload may change this profile (its sessions follow) but not remove it from under the client.
  stack.profiles.pin(name);
  return profile.gateway;
}

async function logSummary(logger: Logger, stack: GatewayStack): Promise<void> {
  for (const line of formatSummary(await summarizeGateway(stack.gateway)).split('\n')) logger.info(line);
}

/**
 * H1: `inspect --config FILE` measures live MCP servers. Registered from here because the hub is
 * this module's concern; inspect only knows its pool-loader hook.
 */
export function addLiveConfigToInspect(inspect: Command): Command {
  addInspectPoolLoader(async (options) => {
    if (typeof options['catalog'] === 'string') return undefined;
    const logger = createStderrLogger('warn');
    // No source given: the bundled reference servers, as `serve` uses.
    const config = typeof options['config'] === 'string' ? await readHubConfig(options['config']) : defaultHubConfig();
    const loaded = await loadCatalogFromConfig(config, { logger, requireAServer: true });
    return { pool: loaded.catalog, close: loaded.close, settings: serveSessionSettings(config.toolSearch) };
  });
  return inspect.option(
    '-c, --config <file>',
    'live MCP servers from a config ({"mcpServers": …}; default: the bundled reference servers); slow ones are reported pending',
  );
}

export { parseHostPort, parseLimitOption, resolveToken } from './serve-flags.js';
