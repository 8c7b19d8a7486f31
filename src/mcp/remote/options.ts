/**
 * G7 — what a hub's connections share about remote servers: the state directory's memory of
 * eras and transports, and the sign-in credentials of HTTP servers.
 */
import { resolve } from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../../core/limits.js';
import type { OAuthFetchBounds } from './oauth/bounded-fetch.js';
import { isStdioServer, type ServerConfig } from '../config.js';
import type { SdkConnectionOptions } from '../sdk-connection.js';
import { defaultStateDir } from '../state-dir.js';
import { childGatewayEnv } from '../self-reference.js';
import { httpTarget } from '../url-credentials.js';
import { ServerMemoryStore } from './memory.js';
import { type CredentialSource, fileCredentials } from './oauth/store.js';
import { ServerAuth, StoredOAuthProvider } from './oauth/provider.js';

export function remoteOptions(
  limits: Limits,
  stateDir: string = defaultStateDir(),
  configSource?: string,
  credentials: CredentialSource = fileCredentials(stateDir),
): SdkConnectionOptions {
  return {
    limits,
    memory: new ServerMemoryStore(stateDir),
    authProvider: (server, config) => serverAuth(server, config, credentials, configSource, limits),
    // G1: every spawned server knows which configs the gateways above it serve (self-reference.ts).
    childEnv: childGatewayEnv(configSource ?? ''),
  };
}

/** What a user runs to sign in to `server` (the config as an absolute path: run from anywhere). */
export function signInCommand(server: string, configSource: string | undefined): string {
  const config = configSource && !configSource.startsWith('<') ? ` --config ${quote(resolve(configSource))}` : '';
  return `toolsearch auth login ${server}${config}`;
}

/**
 * OAuth for an HTTP server, unless the entry says `"oauth": false` or sends its own
 * Authorization header (a static token: the user said exactly what to send).
 */
export function serverAuth(
  server: string,
  config: ServerConfig,
  credentials: CredentialSource,
  configSource: string | undefined,
  limits: Pick<Limits, 'oauthResponseBytes' | 'oauthTimeoutMs'> = DEFAULT_LIMITS,
): ServerAuth | undefined {
  if (isStdioServer(config) || config.oauth === false) return undefined;
  const { url, headers } = httpTarget(config.url, config.headers);
  if (Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization')) return undefined;
  const store = credentials(server, url.href);
  const command = signInCommand(server, configSource);
  const provider = new StoredOAuthProvider({ server, setting: config.oauth, store, signInCommand: command });
  return new ServerAuth(provider, store, url, server, command, oauthBounds(limits));
}

/** The OAuth request bounds out of the limits. */
export function oauthBounds(limits: Pick<Limits, 'oauthResponseBytes' | 'oauthTimeoutMs'>): OAuthFetchBounds {
  return { maxBytes: limits.oauthResponseBytes, timeoutMs: limits.oauthTimeoutMs };
}

function quote(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
