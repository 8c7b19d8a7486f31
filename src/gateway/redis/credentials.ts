/**
 * G6/G7 — sign-in credentials in the Redis the replicas share (`toolSearch.sessionStore`): one
 * `toolsearch auth login` serves every replica, and a refresh takes a lock every replica honours,
 * so a rotating (single-use) refresh token is never spent twice from two hosts. The value is the
 * same JSON a credentials file holds; the Redis must be as private as that file (a password, TLS
 * with `rediss://`, no other tenants).
 *
 * Writes are compare-and-set (a change made meanwhile by another replica is read again and merged,
 * not overwritten); the lock is `SET NX PX` with an owner token, released only by its owner and
 * expiring by itself if its holder dies; a sign-in is noticed by polling the value, as a file's is.
 */
import { randomUUID } from 'node:crypto';
import {
  type CredentialBackend,
  type CredentialSource,
  credentialKey,
  mergeCredentials,
  type StoredCredentials,
} from '../../mcp/remote/oauth/store.js';
import type { RedisEvalClient } from './store.js';

/** A refresh holding the lock longer than this loses it (another replica may then refresh). */
export const CREDENTIAL_LOCK_TTL_MS = 30_000;
/** Waiting for the lock longer than this fails the refresh with a clear error. */
const LOCK_WAIT_MS = 60_000;
const LOCK_RETRY_MS = 50;
/** How often a server waiting for a sign-in looks at the value. */
const WATCH_POLL_MS = 1_000;
/** A compare-and-set that keeps losing to other writers gives up after this many tries. */
const MAX_WRITE_TRIES = 10;

export const GET = "return redis.call('GET', KEYS[1])";
/** Sets KEYS[1] to ARGV[2] if it still holds ARGV[1] ('' = absent); 1 when written. */
export const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if (current or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`;
const DELETE = "return redis.call('DEL', KEYS[1])";
const TAKE_LOCK = "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class CredentialLockTimeoutError extends Error {
  constructor(where: string) {
    super(`could not take the sign-in refresh lock of ${where} within ${LOCK_WAIT_MS / 1000} s`);
    this.name = 'CredentialLockTimeoutError';
  }
}

export class RedisCredentialStore implements CredentialBackend {
  private readonly lockKey: string;

  constructor(
    private readonly client: RedisEvalClient,
    private readonly key: string,
    /** `redis://host:port/db`, no credentials. */
    private readonly display: string,
  ) {
    this.lockKey = `${key}:lock`;
  }

  get where(): string {
    return `${this.display} (key ${this.key})`;
  }

  async read(): Promise<StoredCredentials> {
    return parse(await this.raw());
  }

  async update(change: Partial<StoredCredentials>): Promise<void> {
    for (let tries = 0; tries < MAX_WRITE_TRIES; tries++) {
      const before = (await this.raw()) ?? '';
      const next = JSON.stringify(mergeCredentials(parse(before || null), change));
      if ((await this.client.eval(COMPARE_AND_SET, 1, this.key, before, next)) === 1) return;
    }
    throw new Error(`sign-in credentials at ${this.where} kept changing under this write; not saved`);
  }

  async clear(): Promise<void> {
    await this.client.eval(DELETE, 1, this.key);
  }

  async withLock<T>(run: () => Promise<T>): Promise<T> {
    const owner = randomUUID();
    const deadline = Date.now() + LOCK_WAIT_MS;
    while ((await this.client.eval(TAKE_LOCK, 1, this.lockKey, owner, CREDENTIAL_LOCK_TTL_MS)) !== 'OK') {
      if (Date.now() > deadline) throw new CredentialLockTimeoutError(this.where);
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
    try {
      return await run();
    } finally {
      await this.client.eval(RELEASE_LOCK, 1, this.lockKey, owner).catch(() => undefined);
    }
  }

  watch(onChange: () => void): () => void {
    let baseline: string | null | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearInterval(timer);
    };
    const look = async () => {
      // Redis unreachable: look again at the next tick.
      const now = await this.raw().catch(() => undefined);
      if (now === undefined || stopped) return;
      if (baseline === undefined) baseline = now;
      else if (now !== baseline) {
        stop();
        onChange();
      }
    };
    const timer = setInterval(() => void look(), WATCH_POLL_MS);
    timer.unref();
    void look();
    return stop;
  }

  private async raw(): Promise<string | null> {
    const value = await this.client.eval(GET, 1, this.key);
    return typeof value === 'string' ? value : null;
  }
}

/** Each server's credentials under `<prefix>oauth:<server>-<url hash>`. */
export function redisCredentials(client: RedisEvalClient, prefix: string, display: string): CredentialSource {
  return (server, url) => new RedisCredentialStore(client, `${prefix}oauth:${credentialKey(server, url)}`, display);
}

/** An unreadable value is no sign-in (the next `auth login` writes a good one). */
function parse(raw: string | null): StoredCredentials {
  if (!raw) return {};
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === 'object' && value !== null ? (value as StoredCredentials) : {};
  } catch {
    return {};
  }
}
