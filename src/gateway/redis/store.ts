/**
 * D4 across processes — a `SessionStore` in Redis, so several gateway processes behind a load
 * balancer share each session's discovered tools: a session opened on one process continues on
 * another (see `startHttpGateway`'s resume path) with its tools intact.
 *
 * Pass any client with ioredis' `eval` (ioredis 5 is an optional peer dependency; nothing here
 * imports it). Each operation is one Lua script: atomic, one round trip. Keys (per session):
 * `<prefix><id>:open` (the session exists), `:set` (names, for "is it new?"), `:list` (names in
 * load order), `:deleted` (a tombstone left by DELETE). Every access slides the expiry, so
 * sessions whose clients vanished without a DELETE disappear after `ttlSeconds`. Only `open`
 * creates a session: adding to one that is gone (ended on another replica, expired, or lost when
 * Redis restarted without persistence) fails with `SessionGoneError` instead of resurrecting it,
 * and a tombstoned id can never be opened again while its tombstone lives (`ttlSeconds`).
 */
import { SessionGoneError } from '../errors.js';
import type { SessionRecord, SessionStore } from '../sessions/store.js';

/** The one ioredis method used; `new Redis(url)` fits. */
export interface RedisEvalClient {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

export interface RedisSessionStoreOptions {
  client: RedisEvalClient;
  /** Key prefix, e.g. per deployment. Default `toolsearch:session:`. */
  prefix?: string;
  /** Idle sessions expire after this long. Default 24 h. */
  ttlSeconds?: number;
}

export const DEFAULT_REDIS_PREFIX = 'toolsearch:session:';
export const DEFAULT_SESSION_TTL_SECONDS = 24 * 60 * 60;

const TOUCH = `
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[1]) end`;

/** 1 when the session exists and was not ended by DELETE. KEYS[4] is the tombstone. */
const LIVE = `redis.call('EXISTS', KEYS[4]) == 0 and redis.call('EXISTS', KEYS[1]) == 1`;

/** Opening an id ended by DELETE is refused (0): a late request must not resurrect it. */
const OPEN_SCRIPT = `
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
redis.call('SET', KEYS[1], '1')${TOUCH}
return 1`;

/** The list, or false when the session is unknown or ended. */
const GET_SCRIPT = `
if not (${LIVE}) then return false end${TOUCH}
return redis.call('LRANGE', KEYS[3], 0, -1)`;

/** ARGV[2..]: names; returns those not there before, in order; false when the session is gone. */
const ADD_SCRIPT = `
if not (${LIVE}) then return false end
local added = {}
for i = 2, #ARGV do
  if redis.call('SADD', KEYS[2], ARGV[i]) == 1 then
    redis.call('RPUSH', KEYS[3], ARGV[i])
    added[#added + 1] = ARGV[i]
  end
end${TOUCH}
return added`;

/** E5: ARGV[2..]: names the session's working set let go; the rest keep their load order. */
const REMOVE_SCRIPT = `
if not (${LIVE}) then return false end
for i = 2, #ARGV do
  if redis.call('SREM', KEYS[2], ARGV[i]) == 1 then redis.call('LREM', KEYS[3], 0, ARGV[i]) end
end${TOUCH}
return 1`;

/** Drop the session and leave a tombstone for as long as a session could have lived. */
const DELETE_SCRIPT = `
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('SET', KEYS[4], '1', 'EX', ARGV[1])
return 1`;

export class RedisSessionStore implements SessionStore {
  readonly shared = true;
  private readonly client: RedisEvalClient;
  private readonly prefix: string;
  private readonly ttl: number;

  constructor(options: RedisSessionStoreOptions) {
    this.client = options.client;
    this.prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    this.ttl = options.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
  }

  async open(sessionId: string): Promise<void> {
    if ((await this.client.eval(OPEN_SCRIPT, 4, ...this.keys(sessionId), this.ttl)) !== 1)
      throw new SessionGoneError(sessionId);
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const list = await this.client.eval(GET_SCRIPT, 4, ...this.keys(sessionId), this.ttl);
    return Array.isArray(list) ? { discovered: list.map(String) } : undefined;
  }

  async addDiscovered(sessionId: string, names: Iterable<string>): Promise<string[]> {
    const added = await this.client.eval(ADD_SCRIPT, 4, ...this.keys(sessionId), this.ttl, ...names);
    if (!Array.isArray(added)) throw new SessionGoneError(sessionId);
    return added.map(String);
  }

  async removeDiscovered(sessionId: string, names: Iterable<string>): Promise<void> {
    const done = await this.client.eval(REMOVE_SCRIPT, 4, ...this.keys(sessionId), this.ttl, ...names);
    if (done !== 1) throw new SessionGoneError(sessionId);
  }

  async delete(sessionId: string): Promise<void> {
    await this.client.eval(DELETE_SCRIPT, 4, ...this.keys(sessionId), this.ttl);
  }

  async wasDeleted(sessionId: string): Promise<boolean> {
    return (await this.client.eval(`return redis.call('EXISTS', KEYS[1])`, 1, this.keys(sessionId)[3])) === 1;
  }

  private keys(sessionId: string): [string, string, string, string] {
    const base = `${this.prefix}${sessionId}`;
    return [`${base}:open`, `${base}:set`, `${base}:list`, `${base}:deleted`];
  }
}
