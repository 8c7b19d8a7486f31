/**
 * G6 — `--session-store redis://HOST:PORT[/DB]` (or `rediss://` for TLS) as connection options.
 * Pure: the caller passes the environment. The password comes, in this order, from
 * `TOOLSEARCH_REDIS_PASSWORD`, the file named by `TOOLSEARCH_REDIS_PASSWORD_FILE` (read by the
 * caller: a Docker/Kubernetes secret), or the URL itself (`redis://:pass@host`, visible in `ps`
 * and shell history, so the variables are preferred). Logs only ever show `display`.
 */
import { SessionStoreConfigError } from '../errors.js';

export interface RedisConnectionOptions {
  host: string;
  port: number;
  db: number;
  tls: boolean;
  username?: string;
  password?: string;
  /** `redis://host:port/db` without credentials, for messages. */
  display: string;
}

export const REDIS_PASSWORD_ENV = 'TOOLSEARCH_REDIS_PASSWORD';
export const REDIS_PASSWORD_FILE_ENV = 'TOOLSEARCH_REDIS_PASSWORD_FILE';
export const SESSION_STORE_ENV = 'TOOLSEARCH_SESSION_STORE';

/** G6: the store a command names: its flag, else $TOOLSEARCH_SESSION_STORE (then, for the caller, the config's). */
export function sessionStoreFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag ?? (env[SESSION_STORE_ENV] || undefined);
}

export function parseSessionStoreUrl(value: string, passwordFromEnv?: string): RedisConnectionOptions {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new SessionStoreConfigError(
      `"${redact(value)}" is not a URL; expected redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new SessionStoreConfigError(
      `unsupported scheme "${url.protocol}"; expected redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB] (TLS)`,
    );
  }
  if (url.hostname === '')
    throw new SessionStoreConfigError(`no host in "${redact(value)}"; expected redis://HOST:PORT[/DB]`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!/^\d*$/.test(dbText) || !Number.isInteger(db) || db > 65535) {
    throw new SessionStoreConfigError(
      `database "${dbText}" in "${redact(value)}" is not a number; expected redis://HOST:PORT/DB, e.g. /0`,
    );
  }
  if (url.search !== '' || url.hash !== '')
    throw new SessionStoreConfigError(
      `query strings are not supported in "${redact(value)}"; expected redis://HOST:PORT[/DB]`,
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const username = url.username !== '' ? decodeURIComponent(url.username) : undefined;
  const password = passwordFromEnv ?? (url.password !== '' ? decodeURIComponent(url.password) : undefined);
  return {
    host,
    port,
    db,
    tls: url.protocol === 'rediss:',
    ...(username !== undefined && { username }),
    ...(password !== undefined && { password }),
    display: `${url.protocol}//${url.host}/${db}`,
  };
}

/** The password from the environment (the variable, or the file it names), trailing newline dropped. */
export function redisPasswordFromEnv(env: NodeJS.ProcessEnv, readFile: (path: string) => string): string | undefined {
  const direct = env[REDIS_PASSWORD_ENV];
  if (direct !== undefined && direct !== '') return direct;
  const file = env[REDIS_PASSWORD_FILE_ENV];
  if (file === undefined || file === '') return undefined;
  try {
    return readFile(file).replace(/\r?\n$/, '');
  } catch (error) {
    throw new SessionStoreConfigError(
      `cannot read ${REDIS_PASSWORD_FILE_ENV}=${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

function redact(value: string): string {
  return value.replace(/\/\/[^@/]*@/, '//***@');
}
