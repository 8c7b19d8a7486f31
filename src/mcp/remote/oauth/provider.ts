/**
 * G7 — OAuth 2.1 for an HTTP server on the SDK's client auth: this class is the SDK's
 * `OAuthClientProvider` over the credential store (discovery, dynamic registration, PKCE, the
 * token and refresh requests are all the SDK's `auth()`); `ServerAuth` is what the transport
 * holds: the current token, refreshed shortly before it expires and after a 401, one refresh at a
 * time per server across processes.
 *
 * Two modes: the gateway's (`interactive: false`) never opens a browser: a server that needs a
 * new sign-in makes the connection fail with `NeedsSignInError`; `toolsearch auth login` uses
 * `interactive: true` with its loopback redirect URL.
 */
import type {
  AuthProvider,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { auth, extractWWWAuthenticateParams, InsufficientScopeError } from '@modelcontextprotocol/client';
import type { OAuthSetting } from '../config.js';
import { DEFAULT_LIMITS } from '../../../core/limits.js';
import { boundedOAuthFetch, type OAuthFetchBounds, withDeadline } from './bounded-fetch.js';
import type { CredentialBackend, StoredCredentials } from './store.js';

type UnauthorizedContext = Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0];

export const DEFAULT_OAUTH_BOUNDS: OAuthFetchBounds = {
  maxBytes: DEFAULT_LIMITS.oauthResponseBytes,
  timeoutMs: DEFAULT_LIMITS.oauthTimeoutMs,
};

/** Refresh this long before the access token expires, so no request carries a dead token. */
export const REFRESH_SKEW_MS = 60_000;

/** The server needs the user to sign in (again); the message says how. */
export class NeedsSignInError extends Error {
  readonly needsSignIn = true;
  constructor(
    readonly server: string,
    readonly command: string,
    /** Where a sign-in writes: watching it tells when to connect again. */
    readonly credentials: Pick<CredentialBackend, 'watch' | 'where'>,
  ) {
    super(`needs sign-in: run \`${command}\``);
    this.name = 'NeedsSignInError';
  }
}

export function isNeedsSignIn(error: unknown): error is NeedsSignInError {
  if (error instanceof NeedsSignInError) return true;
  if ((error as { needsSignIn?: unknown } | undefined)?.needsSignIn === true) return true;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause !== undefined && cause !== error && isNeedsSignIn(cause);
}

export interface ProviderOptions {
  readonly server: string;
  readonly setting: OAuthSetting | undefined;
  readonly store: CredentialBackend;
  /** The loopback callback of `auth login`; absent in the gateway (no browser step there). */
  readonly redirectUrl?: string;
  /** Opens the authorization URL (`auth login`). */
  readonly openAuthorization?: (url: URL) => Promise<void>;
  /** `toolsearch auth login <server> --config F`: what a user is told to run. */
  readonly signInCommand: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Placeholder redirect of the gateway's provider: the SDK needs one to build a request it never sends. */
const GATEWAY_REDIRECT = 'http://127.0.0.1/toolsearch-sign-in';

export class StoredOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private readonly stateValue = crypto.randomUUID();

  constructor(private readonly options: ProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl ?? GATEWAY_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const setting = typeof this.options.setting === 'object' ? this.options.setting : {};
    const secret = this.clientSecret();
    return {
      client_name: setting.clientName ?? 'toolsearch',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret !== undefined ? 'client_secret_post' : 'none',
      ...(setting.scopes !== undefined && { scope: setting.scopes.join(' ') }),
    };
  }

  state(): string {
    return this.stateValue;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const setting = typeof this.options.setting === 'object' ? this.options.setting : {};
    if (setting.clientId !== undefined) {
      const secret = this.clientSecret();
      return { client_id: setting.clientId, ...(secret !== undefined && { client_secret: secret }) };
    }
    const stored = (await this.options.store.read()).client;
    // A registration made for another redirect URL (an earlier `auth login` port) cannot finish
    // this sign-in: register again.
    if (this.options.redirectUrl !== undefined && stored && 'redirect_uris' in stored) {
      const uris = (stored as { redirect_uris?: string[] }).redirect_uris ?? [];
      if (!uris.includes(this.options.redirectUrl)) return undefined;
    }
    return stored;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    const setting = typeof this.options.setting === 'object' ? this.options.setting : {};
    if (setting.clientId !== undefined) return;
    await this.options.store.update({ client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.options.store.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined;
    // A refresh answer may leave out the refresh token: the old one stays valid then.
    const previous = (await this.options.store.read()).tokens;
    const refresh = tokens.refresh_token ?? previous?.refresh_token;
    await this.options.store.update({
      tokens: { ...tokens, ...(refresh !== undefined && { refresh_token: refresh }) },
      expiresAt,
      savedAt: Date.now(),
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.options.openAuthorization)
      throw new NeedsSignInError(this.options.server, this.options.signInCommand, this.options.store);
    await this.options.openAuthorization(url);
  }

  saveCodeVerifier(verifier: string): void {
    // Kept in memory: the sign-in that made it finishes in this process.
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no sign-in in progress');
    return this.verifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.options.store.update({ discovery });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.options.store.read()).discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'tokens')
      await this.options.store.update({ tokens: undefined, expiresAt: undefined });
    if (scope === 'all' || scope === 'client') await this.options.store.update({ client: undefined });
    if (scope === 'all' || scope === 'discovery') await this.options.store.update({ discovery: undefined });
  }

  /** `"resource": false`: no RFC 8707 resource parameter (some servers reject it). */
  get validateResourceURL(): OAuthClientProvider['validateResourceURL'] {
    const setting = typeof this.options.setting === 'object' ? this.options.setting : {};
    return setting.resource === false ? async () => undefined : undefined;
  }

  private clientSecret(): string | undefined {
    const setting = typeof this.options.setting === 'object' ? this.options.setting : {};
    if (setting.clientSecretEnv === undefined) return undefined;
    return (this.options.env ?? process.env)[setting.clientSecretEnv] || undefined;
  }
}

/**
 * The transport's view: `token()` before every request (refreshing first when the token is about
 * to expire), `onUnauthorized` after a 401 (a refresh, or "needs sign-in").
 */
export class ServerAuth implements AuthProvider {
  /** The token last handed out: a 401 for an older one is already dealt with. */
  private lastToken: string | undefined;

  constructor(
    readonly provider: StoredOAuthProvider,
    private readonly store: CredentialBackend,
    private readonly serverUrl: URL,
    private readonly server: string,
    private readonly signInCommand: string,
    /** G5: every authorization-server request's byte cap and timeout. */
    private readonly bounds: OAuthFetchBounds = DEFAULT_OAUTH_BOUNDS,
  ) {}

  async token(): Promise<string | undefined> {
    let stored = await this.store.read();
    // Not signed in: the request goes without a token; a server that wants one answers 401.
    if (stored.tokens === undefined) return undefined;
    if (expiresSoon(stored) && stored.tokens.refresh_token !== undefined) {
      await this.refresh(stored.tokens.access_token);
      stored = await this.store.read();
    }
    this.lastToken = stored.tokens?.access_token;
    return this.lastToken;
  }

  /**
   * A 403 insufficient_scope: refreshing cannot widen a token's scope, so the server needs a new
   * sign-in asking for the scope it named (kept for `auth login`). Other errors pass through.
   */
  async explain(error: unknown): Promise<unknown> {
    if (!(error instanceof InsufficientScopeError)) return error;
    const stored = await this.store.read();
    const wanted = unionScopes(stored.stepUpScope, error.requiredScope);
    if (wanted !== undefined) await this.store.update({ stepUpScope: wanted });
    return new NeedsSignInError(this.server, this.signInCommand, this.store);
  }

  async onUnauthorized(ctx: UnauthorizedContext): Promise<void> {
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(ctx.response);
    await this.refresh(this.lastToken, { resourceMetadataUrl, scope, fetchFn: ctx.fetchFn });
  }

  /**
   * One at a time per server: under the lock, a token that changed since `seen` was refreshed by
   * another caller (or process) and is used as is; otherwise the SDK's `auth()` refreshes it.
   */
  private refresh(
    seen: string | undefined,
    extra: Partial<Pick<Parameters<typeof auth>[1], 'resourceMetadataUrl' | 'scope' | 'fetchFn'>> = {},
  ): Promise<void> {
    return this.store.withLock(async () => {
      const current = await this.store.read();
      if (current.tokens !== undefined && current.tokens.access_token !== seen && !expiresSoon(current)) return;
      if (current.tokens?.refresh_token === undefined)
        throw new NeedsSignInError(this.server, this.signInCommand, this.store);
      // G5: capped and timed, and the whole refresh ends by the timeout: the queue behind it moves on.
      // A bound error is a passing fault of the authorization server: it fails this request, and
      // is not turned into "needs sign-in" (the SDK's fallback after any failed refresh).
      let bound: Error | undefined;
      const fetchFn = boundedOAuthFetch(this.bounds, extra.fetchFn, (error) => (bound ??= error));
      let result: Awaited<ReturnType<typeof auth>>;
      try {
        result = await withDeadline(
          auth(this.provider, {
            serverUrl: this.serverUrl,
            ...(extra.resourceMetadataUrl !== undefined && { resourceMetadataUrl: extra.resourceMetadataUrl }),
            ...(extra.scope !== undefined && { scope: extra.scope }),
            fetchFn,
          }),
          this.bounds.timeoutMs,
          this.serverUrl.href,
        );
      } catch (error) {
        throw bound ?? error;
      }
      if (bound) throw bound;
      if (result !== 'AUTHORIZED') throw new NeedsSignInError(this.server, this.signInCommand, this.store);
    });
  }
}

/** The scopes of both, once each (space-separated, as OAuth writes them). */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = [...new Set(scopes.flatMap((scope) => scope?.split(' ').filter(Boolean) ?? []))];
  return all.length > 0 ? all.join(' ') : undefined;
}

/** Within a minute of expiry (a quarter of the lifetime for short-lived tokens). */
function expiresSoon(stored: StoredCredentials): boolean {
  if (stored.expiresAt === undefined) return false;
  const lifetime = stored.expiresAt - (stored.savedAt ?? stored.expiresAt);
  const skew = lifetime > 0 ? Math.min(REFRESH_SKEW_MS, lifetime / 4) : REFRESH_SKEW_MS;
  return stored.expiresAt - Date.now() < skew;
}
