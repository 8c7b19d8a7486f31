/**
 * Wiring for `toolsearch serve` and for embedders: config (or the embedded reference servers)
 * → hub → gateway. Connection happens in the background; the gateway serves at once and reports
 * slow servers as pending (C8).
 */
import { resolveLimits, type Limits } from '../core/limits.js';
import type { ToolListMode } from '../core/session-policy.js';
import type { SessionAssumptions } from '../core/session-cost.js';
import { isStdioServer, readHubConfig, type HubConfig, type ToolSearchConfig } from '../mcp/config.js';
import { ConfigReloader, describeReload, type ReloadPart } from '../mcp/config-reloader.js';
import { defaultHubConfig, type DefaultServersOptions } from '../mcp/defaults.js';
import { McpHub, type HubOptions } from '../mcp/hub.js';
import { silentLogger, type Logger } from '../util/log.js';
import { ToolsearchGateway, type GatewayOptions } from './gateway.js';
import { type CodeModeOption, codeModeSandbox } from './tools/run-code.js';
import { operatorRoots } from '../mcp/operator-roots.js';
import { connectRedisBackend, type RedisBackend } from './redis/backend.js';
import { defaultGatewaySearcher } from './tools/search.js';
import { embeddingGatewaySearcher } from './tools/embeddings.js';
import type { EmbeddingsConfig } from '../core/embeddings-config.js';
import { AuditLog, auditOptions, type AuditOptions } from './status/audit.js';
import { Operations } from './status/operations.js';
import { loadTracer } from './status/tracing.js';
import { parseProfiles } from './profiles/config.js';
import { Profiles } from './profiles/profiles.js';
import { profilesReloadPart } from './profiles/reload.js';
import { VERSION } from '../util/version.js';
import { resolveLearning, type LearningSettings } from '../usage/settings.js';
import { Learner } from '../usage/learner.js';
import { LearnedFileStore } from '../usage/file-store.js';
import { profileLearnedPath } from '../usage/paths.js';
import { TrustGate } from '../mcp/trust-gate.js';
import { SessionStoreConfigError } from './errors.js';
import { defaultPinsPath, PinFile } from '../mcp/pin-store.js';
import { resolveTrust } from '../mcp/trust-config.js';

export interface GatewayFromConfigOptions extends DefaultServersOptions {
  /** A config file path or a validated config; absent: the embedded reference servers. */
  config?: string | HubConfig;
  logger?: Logger;
  hub?: Omit<HubOptions, 'logger' | 'limits'>;
  gateway?: Omit<GatewayOptions, 'catalog' | 'upstream' | 'logger'>;
  /**
   * G6: a shared session store URL (`redis://HOST:PORT[/DB]`), overriding the config's
   * `toolSearch.sessionStore`; `null` keeps sessions in memory whatever the config says (stdio).
   */
  sessionStore?: string | null;
  /**
   * G7: a Redis for sign-in credentials when sessions stay in memory (`sessionStore: null`, a
   * stdio process): the URL a replica of the same config would use (flag, environment), so both
   * share one sign-in. Default: the session store's, else the config's `toolSearch.sessionStore`.
   * Without a session store it is connected only when the config has a remote server.
   */
  credentialStore?: string;
  /** G5 limit overrides (the CLI's `--limit`), applied over the config's `toolSearch.limits`. */
  limits?: Partial<Limits>;
  /** C10: an embedding server, overriding the config's `toolSearch.embeddings`; `null` turns it off. */
  embeddings?: EmbeddingsConfig | null;
  /**
   * Start connecting the upstream servers now (default). `false` leaves that to the caller's
   * `hub.start()`: `serve --http` binds its port first, so a busy port spawns no server.
   */
  startHub?: boolean;
  /** G11: `serve --code-mode`: offer `run_code` whatever the config says (its limits still apply). */
  codeMode?: boolean;
  /** E5: `serve --tool-list`: the session tool-list mode, overriding the config's (default `fixed`). */
  toolList?: ToolListMode;
  /** G9: the audit log, overriding the config's `toolSearch.audit`; `null` turns it off. */
  audit?: AuditOptions | null;
  /**
   * G9: OpenTelemetry spans through `@opentelemetry/api` (an optional peer; without it, no spans).
   * Default: the config's `toolSearch.tracing`, else off.
   */
  tracing?: boolean;
  /**
   * G7: watch the config file and reload it on change (`serve` does). With a file config the
   * stack always has a `reloader` (SIGHUP calls its `reload()`); this only starts the watch.
   */
  watchConfig?: boolean | { debounceMs?: number };
  /**
   * C13: learn from use, overriding the config's `toolSearch.learning`; `null` turns it off.
   * Without either, `learningByDefault` decides (`serve` sets it; the library default is off).
   */
  learning?: LearningSettings | null;
  learningByDefault?: boolean;
  /**
   * G10: pin tool definitions and hold changed or flagged ones when the config's `toolSearch.trust`
   * says nothing (`serve` sets it; the library default is off).
   */
  trustByDefault?: boolean;
}

export interface GatewayStack {
  hub: McpHub;
  gateway: ToolsearchGateway;
  /** The Redis behind a shared session store, when one is configured. */
  redis?: RedisBackend;
  /** The limits in force (defaults < config < options). */
  limits: Limits;
  /** G9: the audit log, when one is configured. */
  audit?: AuditLog;
  /** G7: with a config file, what reloads it (`reload()`, `onReload`, `status()`). */
  reloader?: ConfigReloader;
  /** C13: what searches learned, when learning is on. */
  learner?: Learner;
  /** G9: the config's profiles (`/mcp/<name>`, `serve --profile`); empty without any. */
  profiles: Profiles;
  /** G10: the trust gate (pins, holds), when trust is on. */
  trust?: TrustGate;
  close(): Promise<void>;
}

export async function createGatewayFromConfig(options: GatewayFromConfigOptions = {}): Promise<GatewayStack> {
  const logger = options.logger ?? silentLogger;
  const config =
    typeof options.config === 'string'
      ? await readHubConfig(options.config)
      : (options.config ?? defaultHubConfig(options));
  const limits = resolveLimits(
    { values: config.toolSearch.limits, source: config.source },
    { values: options.limits, source: 'the command line' },
  );
  const toolSearch = config.toolSearch;
  // E5: `serve --tool-list` over the config's choice.
  const toolList = options.toolList ?? toolSearch.toolList;
  const storeUrl = options.sessionStore === null ? undefined : (options.sessionStore ?? toolSearch.sessionStore);
  // G7: sign-ins live where the replicas' sessions do (one `auth login` for all of them), and a
  // stdio process of the same config, its sessions in memory, reads them there too — connecting
  // only when the config has a remote server (one of stdio servers alone has nothing to sign in).
  const remote = Object.values(config.servers).some((server) => !isStdioServer(server));
  const credentialUrl = storeUrl ?? (remote ? (options.credentialStore ?? toolSearch.sessionStore) : undefined);
  const connection =
    credentialUrl !== undefined
      ? await connectRedisBackend(credentialUrl, {
          logger,
          // G5: stored sessions and DELETE tombstones live as long as an idle session may (not 24 h).
          ...(limits.idleSessionTimeoutMs > 0 && { ttlSeconds: Math.ceil(limits.idleSessionTimeoutMs / 1000) }),
        })
      : undefined;
  /** Sessions, the bus and learning: only with a session store. */
  const redis = storeUrl !== undefined ? connection : undefined;
  const trust = await trustGate(config, options, redis, logger).catch(async (error: unknown) => {
    await connection?.close();
    throw error;
  });
  const hub = new McpHub(config, {
    ...(connection && { credentials: connection.credentials }),
    ...(trust && { trust }),
    ...(resolveTrust(config.toolSearch.trust, false).markResults && { markResults: true }),
    ...options.hub,
    logger,
    limits,
  });
  const embeddings = options.embeddings === null ? undefined : (options.embeddings ?? toolSearch.embeddings);
  const searcher = embeddings ? embeddingGatewaySearcher(embeddings, hub.catalog, logger, limits) : undefined;
  const tracing = options.tracing ?? toolSearch['tracing'] === true;
  const tracer = tracing ? await loadTracer('toolsearch', VERSION) : undefined;
  if (tracing && !tracer) logger.warn('tracing is on but @opentelemetry/api is not installed: no spans');
  const operations = new Operations({ ...(tracer && { tracer }) });
  // G10 → G9: every hold and approval reaches the audit log and the metrics.
  trust?.onEvent((event) => operations.events.emit({ type: 'trust', ...event }));
  const auditConfig =
    options.audit === null
      ? undefined
      : (options.audit ??
        (toolSearch['audit'] !== undefined ? auditOptions(toolSearch['audit'], config.source) : undefined));
  const audit = auditConfig && new AuditLog(operations.events, { logger, ...auditConfig });
  const learning = resolveLearning(toolSearch.learning, options.learning, options.learningByDefault === true);
  // C13: replicas sharing a Redis store learn together; one gateway keeps a file; each profile (G9)
  // learns apart from the others, since its users and tools are its own.
  const learnerFor = (profile?: string) => {
    if (!learning) return undefined;
    const store = redis
      ? redis.learnedStore(learning.limits.total * 4, profile)
      : new LearnedFileStore(
          profile === undefined ? learning.path : profileLearnedPath(learning.path, profile),
          logger,
        );
    // A large log's rebuild runs after the search that finds it due, not inside it (C13).
    return new Learner({
      store,
      limits: learning.limits,
      logger,
      ranking: { defer: deferAfterSearch },
      ...(learning.lessonsPerHour !== undefined && { lessonsPerHour: learning.lessonsPerHour }),
      ...(learning.identities !== undefined && { identities: learning.identities }),
    });
  };
  const learner = learnerFor();
  const codeMode = codeModeOption(toolSearch.codeMode, options.codeMode === true).codeMode;
  const codeSandbox = codeMode !== undefined && codeMode !== false ? codeModeSandbox(codeMode) : undefined;
  const common = {
    ...(toolSearch.mode !== undefined && { mode: toolSearch.mode }),
    ...(toolSearch.contextWindow !== undefined && { contextWindow: toolSearch.contextWindow }),
    ...(toolSearch.deferredTokenBudget !== undefined && { deferredTokenBudget: toolSearch.deferredTokenBudget }),
    ...(toolSearch.searchWaitMs !== undefined && { pendingWaitMs: toolSearch.searchWaitMs }),
    ...(toolList !== undefined && { toolList }),
    ...(toolSearch.workingSet !== undefined && { workingSet: toolSearch.workingSet }),
    ...(toolSearch.sessionCost !== undefined && { sessionCost: toolSearch.sessionCost }),
    operatorRoots: operatorRoots(config, options.root),
    attributionGraceMs: limits.attributionGraceMs,
    parkedAttributionMs: limits.parkedAttributionMs,
    subscriptionsPerSession: limits.subscriptionsPerSession,
    // G11: one sandbox for the gateway and its profiles: its slots and memory bound are the process's.
    ...(codeSandbox && { codeMode: { sandbox: codeSandbox } }),
    searchQueryChars: limits.searchQueryChars,
    argumentSchemaParts: limits.argumentSchemaParts,
  };
  const gateway = new ToolsearchGateway({
    searcher: searcher ?? defaultGatewaySearcher(limits, learner?.ranking),
    ...(learner && { learner }),
    ...common,
    ...(redis && { sessions: redis.sessions, bus: redis.bus }),
    // G12: with profiles, one endpoint's lists are not every client's (cache-hints.ts).
    endpointViews: () => profiles.list.length > 0,
    ...options.gateway,
    catalog: hub.catalog,
    upstream: hub,
    logger,
    operations,
  });
  // G9: profiles share the hub and the events; each has its own catalog view, gateway and (in-memory) sessions.
  const profiles = new Profiles(
    parseProfiles(config.profiles, config.source, Object.keys(config.servers)),
    hub.catalog,
    operations,
    (catalog, profileOperations, profile, scope) => {
      const profileLearner = learnerFor(profile.name);
      return new ToolsearchGateway({
        searcher: embeddings
          ? embeddingGatewaySearcher(embeddings, catalog, logger, limits)
          : defaultGatewaySearcher(limits, profileLearner?.ranking),
        ...(profileLearner && { learner: profileLearner }),
        ...common,
        // G6/G9: with a shared store, a profile's sessions resume on any replica (apart from /mcp's).
        ...redis?.profileSessions(profile.name),
        servers: scope,
        endpointViews: () => true,
        catalog,
        upstream: hub,
        logger,
        operations: profileOperations,
      });
    },
  );
  if (options.startHub !== false) hub.start();
  const reloader =
    typeof options.config === 'string'
      ? configReloader(options, options.config, hub, logger, [profilesReloadPart(profiles)])
      : undefined;
  // G7 → G9: every reload, applied or refused, reaches the audit log and whoever else listens.
  reloader?.onReload((event) =>
    operations.events.emit({
      type: 'reload',
      outcome: event.ok ? 'ok' : 'failed',
      source: event.source,
      detail: event.ok ? describeReload(event) : event.error!,
    }),
  );
  return {
    hub,
    gateway,
    ...(redis && { redis }),
    limits,
    ...(audit && { audit }),
    ...(reloader && { reloader }),
    ...(learner && { learner }),
    ...(trust && { trust }),
    profiles,
    close: async () => {
      reloader?.close();
      await profiles.close();
      await gateway.close();
      codeSandbox?.close();
      await audit?.close();
      await hub.close();
      await trust?.close();
      await connection?.close();
    },
  };
}

/** G10: the trust gate over the state directory's pins file, or the replicas' Redis (loaded, or, Redis being down, loading: the hub starts its servers once it is). */
async function trustGate(
  config: HubConfig,
  options: GatewayFromConfigOptions,
  redis: RedisBackend | undefined,
  logger: Logger,
): Promise<TrustGate | undefined> {
  const settings = resolveTrust(config.toolSearch.trust, options.trustByDefault === true);
  if (!settings.enabled) return undefined;
  // G10/G6: pins another Redis client could rewrite are signed; without the secret, no start.
  const unsigned = redis?.pins.problem;
  if (unsigned !== undefined) throw new SessionStoreConfigError(unsigned);
  const backend = redis?.pins ?? new PinFile(defaultPinsPath(options.hub?.stateDir));
  const gate = new TrustGate(backend, { newServers: settings.newServers, logger });
  const written = config.unexpanded ?? config.servers;
  const servers = Object.keys(config.servers).map((name) => ({ name, config: written[name] ?? config.servers[name]! }));
  // G6: a Redis down at start delays the servers (as it delays every request), not the gateway; a pins file must read.
  await (redis ? gate.loadOrRetry(servers) : gate.load(servers));
  return gate;
}

function configReloader(
  options: GatewayFromConfigOptions,
  path: string,
  hub: McpHub,
  logger: Logger,
  parts: readonly ReloadPart[],
): ConfigReloader {
  const watch = options.watchConfig;
  const debounceMs = typeof watch === 'object' ? watch.debounceMs : undefined;
  const reloader = new ConfigReloader(path, hub, {
    logger,
    parts,
    ...(debounceMs !== undefined && { debounceMs }),
  });
  if (watch) reloader.watch();
  return reloader;
}

/** Runs `work` once the current request's handling is done (C13's deferred rebuild). */
function deferAfterSearch(work: () => void): void {
  setImmediate(work);
}

/** E5/G11: what a config says about the sessions it serves (`inspect --config` estimates for those). */
export function serveSessionSettings(toolSearch: ToolSearchConfig): {
  toolList?: ToolListMode;
  codeMode?: CodeModeOption;
  sessionCost?: SessionAssumptions;
} {
  return {
    ...(toolSearch.toolList !== undefined && { toolList: toolSearch.toolList }),
    ...(toolSearch.sessionCost !== undefined && { sessionCost: toolSearch.sessionCost }),
    ...codeModeOption(toolSearch.codeMode, false),
  };
}

/** G11: the config's `codeMode` (a boolean or {enabled, limits}), switched on by `--code-mode`. */
function codeModeOption(config: ToolSearchConfig['codeMode'], flag: boolean): { codeMode?: CodeModeOption } {
  if (config === undefined || typeof config === 'boolean') return flag || config === true ? { codeMode: true } : {};
  if (config.enabled === false && !flag) return {};
  return { codeMode: { limits: config.limits ?? {} } };
}
