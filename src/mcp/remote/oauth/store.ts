/**
 * G7 — sign-in credentials of one server: its tokens, its client registration and the discovery
 * the SDK did, in an owner-only (0600) file under `<state dir>/oauth/` — never in the config, never
 * logged. Keyed by server name and URL, so pointing an entry elsewhere starts a new sign-in.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';
import { readStateFile, writeStateFile } from '../../state-dir.js';

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

export class CredentialStore {
  readonly path: string;
  readonly lockPath: string;

  constructor(stateDir: string, server: string, url: string) {
    const hash = createHash('sha256').update(url).digest('hex').slice(0, 12);
    const base = join(stateDir, 'oauth', `${server}-${hash}`);
    this.path = `${base}.json`;
    this.lockPath = `${base}.lock`;
  }

  async read(): Promise<StoredCredentials> {
    return (await readStateFile<StoredCredentials>(this.path)) ?? {};
  }

  async update(change: Partial<StoredCredentials>): Promise<void> {
    const next: StoredCredentials = { ...(await this.read()), ...change };
    for (const key of Object.keys(next) as (keyof StoredCredentials)[]) if (next[key] === undefined) delete next[key];
    await writeStateFile(this.path, next);
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
