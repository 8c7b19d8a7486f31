/**
 * G7 — sign-in credentials of one server: its tokens, its client registration and the discovery
 * the SDK did, in an owner-only (0600) file under `<state dir>/oauth/` (or a shared Redis, see
 * `CredentialBackend`) — never in the config, never logged. Keyed by server name and URL, so
 * pointing an entry elsewhere starts a new sign-in.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';
import { readStateFile, writeStateFile } from '../../state-dir.js';
import { withRefreshLock } from './lock.js';
import { watchCredentials } from './watch.js';

export interface StoredCredentials {
  tokens?: OAuthTokens;
  /** Epoch ms the access token expires (from `expires_in` at save time). */
  expiresAt?: number;
  /** Epoch ms the tokens were saved (with `expiresAt`: their lifetime). */
  savedAt?: number;
  client?: OAuthClientInformationMixed;
  /** A scope the server asked for with 403 insufficient_scope: the next sign-in requests it. */
  stepUpScope?: string;
  discovery?: OAuthDiscoveryState;
}

/**
 * Where one server's sign-in lives: an owner-only file on this host (`CredentialStore`), or a
 * Redis every replica shares (`RedisCredentialStore`, `toolSearch.sessionStore`), so one
 * `auth login` serves them all and a rotated refresh token is never used twice across hosts.
 */
export interface CredentialBackend {
  /** Where the credentials are (a path, a Redis URL and key): for messages, never a secret. */
  readonly where: string;
  read(): Promise<StoredCredentials>;
  update(change: Partial<StoredCredentials>): Promise<void>;
  clear(): Promise<void>;
  /** Runs `run` holding this server's refresh lock, across processes (and hosts, for Redis). */
  withLock<T>(run: () => Promise<T>): Promise<T>;
  /** Calls `onChange` once, the first time the credentials change (a sign-in); returns stop. */
  watch(onChange: () => void): () => void;
}

/** Which backend holds a server's credentials, by server name and URL (the hub's option). */
export type CredentialSource = (server: string, url: string) => CredentialBackend;

/** The name credentials are kept under: the server and a hash of its URL (another URL, another sign-in). */
export function credentialKey(server: string, url: string): string {
  return `${server}-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`;
}

/** Merges `change` into `current`; a key set to undefined is removed. */
export function mergeCredentials(current: StoredCredentials, change: Partial<StoredCredentials>): StoredCredentials {
  const next: StoredCredentials = { ...current, ...change };
  for (const key of Object.keys(next) as (keyof StoredCredentials)[]) if (next[key] === undefined) delete next[key];
  return next;
}

export class CredentialStore implements CredentialBackend {
  readonly path: string;
  readonly lockPath: string;

  constructor(stateDir: string, server: string, url: string) {
    const base = join(stateDir, 'oauth', credentialKey(server, url));
    this.path = `${base}.json`;
    this.lockPath = `${base}.lock`;
  }

  get where(): string {
    return this.path;
  }

  async read(): Promise<StoredCredentials> {
    return (await readStateFile<StoredCredentials>(this.path)) ?? {};
  }

  async update(change: Partial<StoredCredentials>): Promise<void> {
    await writeStateFile(this.path, mergeCredentials(await this.read(), change));
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }

  withLock<T>(run: () => Promise<T>): Promise<T> {
    return withRefreshLock(this.lockPath, run);
  }

  watch(onChange: () => void): () => void {
    return watchCredentials(this.path, onChange);
  }
}

/** The default: files under `<state dir>/oauth/`. */
export function fileCredentials(stateDir: string): CredentialSource {
  return (server, url) => new CredentialStore(stateDir, server, url);
}
