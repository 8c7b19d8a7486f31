/**
 * G6 — `serve --session-store redis://…`: the ioredis connections, the shared session store and
 * the notification bus in one piece, so scale-out needs no code. ioredis is an optional peer
 * dependency, loaded here only when a Redis store is asked for; without it the error says what to
 * install.
 */
import { readFileSync } from 'node:fs';
import { silentLogger, type Logger } from '../../util/log.js';
import { SessionStoreConfigError } from '../errors.js';
import { RedisNotificationBus, type RedisPublisher, type RedisSubscriber } from './bus.js';
import type { CredentialSource } from '../../mcp/remote/oauth/store.js';
import { redisCredentials } from './credentials.js';
import { pinSecretFromEnv, RedisPins } from './pins.js';
import { RedisLearnedStore, type RedisStreamClient } from './learned-store.js';
import { watchRedisHealth, type RedisEventSource } from './health.js';
import { RedisSessionStore, type RedisEvalClient } from './store.js';
import { parseSessionStoreUrl, redisPasswordFromEnv } from './store-url.js';

export interface RedisBackend {
  sessions: RedisSessionStore;
  bus: RedisNotificationBus;
  /** `redis://host:port/db`, no credentials. */
  display: string;
  /**
   * C13: learned search shared by the replicas (a stream keeping the last `maxOps` changes); with
   * a profile (G9), that profile's own stream.
   */
  learnedStore(maxOps: number, profile?: string): RedisLearnedStore;
  /** G7: sign-in credentials every replica shares (one `auth login` for all of them). */
  credentials: CredentialSource;
  /** G10: tool pins every replica shares (one approval for all of them). */
  pins: RedisPins;
  /**
   * G9: a profile's sessions and bus: keys under `<prefix>profile:<name>:session:` and the channel
   * `<prefix>events:profile:<name>`, so its sessions resume on any replica and stay apart from
   * the main endpoint's and other profiles'.
   */
  profileSessions(profile: string): { sessions: RedisSessionStore; bus: RedisNotificationBus };
  close(): Promise<void>;
}

export interface RedisBackendOptions {
  logger?: Logger;
  /** Key prefix; the pub/sub channel is `<prefix>events`. Default `toolsearch:`. */
  prefix?: string;
  ttlSeconds?: number;
  env?: NodeJS.ProcessEnv;
  /** How ioredis is loaded (tests replace it). */
  loadIoredis?: () => Promise<unknown>;
}

/** The parts of an ioredis client used here. */
type RedisClient = RedisEvalClient &
  RedisStreamClient &
  RedisPublisher &
  RedisSubscriber &
  RedisEventSource & {
    duplicate(): RedisClient;
    disconnect(): void;
  };
type RedisConstructor = new (options: Record<string, unknown>) => RedisClient;

/**
 * Commands wait while ioredis reconnects: 10 attempts 100, 200, … 1000 ms apart ≈ 5.5 s, then fail
 * (the HTTP gateway answers 503). OUTAGE_EFFECT in redis-health.ts says so to the operator.
 */
const MAX_RETRIES_PER_REQUEST = 10;
const retryStrategy = (times: number) => Math.min(times * 100, 1000);

export async function connectRedisBackend(url: string, options: RedisBackendOptions = {}): Promise<RedisBackend> {
  const logger = options.logger ?? silentLogger;
  const env = options.env ?? process.env;
  const connection = parseSessionStoreUrl(
    url,
    redisPasswordFromEnv(env, (path) => readFileSync(path, 'utf8')),
  );
  const Redis = await loadRedisConstructor(options.loadIoredis ?? (() => import('ioredis')));
  const prefix = options.prefix ?? 'toolsearch:';
  const client = new Redis({
    host: connection.host,
    port: connection.port,
    db: connection.db,
    ...(connection.username !== undefined && { username: connection.username }),
    ...(connection.password !== undefined && { password: connection.password }),
    ...(connection.tls && { tls: { servername: connection.host } }),
    connectionName: 'toolsearch',
    maxRetriesPerRequest: MAX_RETRIES_PER_REQUEST,
    retryStrategy,
  });
  watchRedisHealth(client, connection.display, logger);
  const subscriber = client.duplicate();
  // The subscriber fails with the main connection; its state is already reported once.
  subscriber.on('error', () => undefined);
  const ttl = options.ttlSeconds !== undefined ? { ttlSeconds: options.ttlSeconds } : {};
  const buses: RedisNotificationBus[] = [];
  const startBus = (channel: string) => {
    const started = new RedisNotificationBus({ publisher: client, subscriber, channel, logger });
    // Not awaited: a replica starts (and answers 503) while Redis is down; ioredis subscribes on connect.
    started.start().catch((error: unknown) => logger.debug(`notification bus: subscribe failed: ${String(error)}`));
    buses.push(started);
    return started;
  };
  const bus = startBus(`${prefix}events`);
  const profileParts = new Map<string, { sessions: RedisSessionStore; bus: RedisNotificationBus }>();
  return {
    sessions: new RedisSessionStore({ client, prefix: `${prefix}session:`, ...ttl }),
    bus,
    display: connection.display,
    learnedStore: (maxOps, profile) =>
      new RedisLearnedStore({
        client,
        key: `${prefix}learned${profile === undefined ? '' : `:${profile}`}`,
        maxOps,
        display: connection.display,
      }),
    credentials: redisCredentials(client, prefix, connection.display),
    pins: new RedisPins(client, `${prefix}trust:pins`, connection.display, () =>
      pinSecretFromEnv(env, (path) => readFileSync(path, 'utf8')),
    ),
    // One per name: a profile a reload removes and adds again finds its subscription (an idle one
    // is kept until the process ends; names are few and come from the operator's config).
    profileSessions: (profile) => {
      let parts = profileParts.get(profile);
      if (!parts) {
        parts = {
          sessions: new RedisSessionStore({ client, prefix: `${prefix}profile:${profile}:session:`, ...ttl }),
          bus: startBus(`${prefix}events:profile:${profile}`),
        };
        profileParts.set(profile, parts);
      }
      return parts;
    },
    close: async () => {
      await Promise.all(buses.map((b) => b.close()));
      // The HTTP side is closed by now: nothing pending is worth waiting for (quit would wait out an outage).
      subscriber.disconnect();
      client.disconnect();
    },
  };
}

async function loadRedisConstructor(load: () => Promise<unknown>): Promise<RedisConstructor> {
  let module: unknown;
  try {
    module = await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new SessionStoreConfigError(
        'a Redis session store needs the "ioredis" package (an optional peer dependency): npm install ioredis@5',
      );
    }
    throw new SessionStoreConfigError(`cannot load "ioredis": ${String(error)}`);
  }
  const m = module as { Redis?: unknown; default?: unknown };
  const ctor = m.Redis ?? m.default;
  if (typeof ctor !== 'function')
    throw new SessionStoreConfigError('the installed "ioredis" has no Redis class; install ioredis@5');
  return ctor as RedisConstructor;
}
