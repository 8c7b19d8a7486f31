/**
 * G7 — the browser step of a sign-in (`toolsearch auth login`): a loopback callback on a port
 * chosen now (never a fixed one that another program may hold), the authorization URL opened
 * with `$BROWSER` or the platform's opener (and always printed, for a browser elsewhere), then
 * the SDK's `auth()` exchanges the code (PKCE, state and issuer checked). Tokens land in the
 * credentials file, where a running gateway picks them up.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { HttpServerConfig } from '../../config.js';
import { httpTarget } from '../../url-credentials.js';
import { openableUrl, openerCommand } from './opener.js';
import { DEFAULT_OAUTH_BOUNDS, StoredOAuthProvider, unionScopes } from './provider.js';
import { boundedOAuthFetch, type OAuthFetchBounds } from './bounded-fetch.js';
import { type CredentialBackend, CredentialStore } from './store.js';

export interface SignInOptions {
  readonly server: string;
  readonly config: HttpServerConfig;
  readonly stateDir: string;
  /** Where progress and the URL are written (stderr). */
  readonly say: (line: string) => void;
  /** How long to wait for the browser. Default 5 minutes. */
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the credentials go; default the file under `stateDir` (a shared Redis: every replica). */
  readonly store?: CredentialBackend;
  /** G5: each authorization-server request's byte cap and timeout (`oauthResponseBytes`, `oauthTimeoutMs`). */
  readonly bounds?: OAuthFetchBounds;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export async function signIn(options: SignInOptions): Promise<void> {
  const { url } = httpTarget(options.config.url, options.config.headers);
  const store = options.store ?? new CredentialStore(options.stateDir, options.server, url.href);
  // G7: only a callback carrying this sign-in's state is taken (a web page's `?error=` is not).
  let expectedState: string | undefined;
  const callback = await listenForCallback((state) => state !== null && state === expectedState);
  try {
    const provider = new StoredOAuthProvider({
      server: options.server,
      setting: options.config.oauth,
      store,
      redirectUrl: callback.redirectUrl,
      signInCommand: `toolsearch auth login ${options.server}`,
      openAuthorization: async (authorizationUrl) => {
        // G7: only a web page is opened (or printed): never a file, share or custom handler.
        const href = openableUrl(authorizationUrl.href);
        options.say(`Sign in to "${options.server}" in your browser:\n  ${href}`);
        openBrowser(href, options.env ?? process.env, options.say);
      },
      ...(options.env !== undefined && { env: options.env }),
    });
    expectedState = provider.state();
    const challenge = await unauthenticatedChallenge(url);
    // A scope the server asked for on a 403 (step-up) is requested along with the 401's.
    const scope = unionScopes(challenge.scope, (await store.read()).stepUpScope);
    const fetchFn = boundedOAuthFetch(options.bounds ?? DEFAULT_OAUTH_BOUNDS);
    const leg = { serverUrl: url, fetchFn, ...challenge, ...(scope !== undefined && { scope }) };
    const first = await store.withLock(() => auth(provider, { ...leg, forceReauthorization: true }));
    if (first === 'AUTHORIZED') return;
    const params = await callback.wait(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const error = params.get('error');
    if (error)
      throw new Error(
        `the authorization server refused: ${printable(error)} ${printable(params.get('error_description') ?? '')}`.trim(),
      );
    if (params.get('state') !== provider.state())
      throw new Error('the callback carried the wrong state (not this sign-in)');
    const code = params.get('code');
    if (!code) throw new Error('the callback carried no authorization code');
    const iss = params.get('iss');
    await store.withLock(async () => {
      await auth(provider, { ...leg, authorizationCode: code, ...(iss !== null && { iss }) });
      await store.update({ stepUpScope: undefined });
    });
  } finally {
    callback.close();
  }
}

/** What the server's 401 says about where its authorization server is and which scope it wants. */
async function unauthenticatedChallenge(url: URL): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { ...(resourceMetadataUrl !== undefined && { resourceMetadataUrl }), ...(scope !== undefined && { scope }) };
  } catch {
    return {};
  }
}

interface Callback {
  readonly redirectUrl: string;
  wait(timeoutMs: number): Promise<URLSearchParams>;
  close(): void;
}

/** Characters of the authorization server's error text printed. */
const ERROR_TEXT_CHARS = 300;

/** The server's error text without control characters (no terminal escapes), cut. */
export function printable(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return clean.length > ERROR_TEXT_CHARS ? `${clean.slice(0, ERROR_TEXT_CHARS)} …` : clean;
}

/**
 * A one-shot HTTP listener on 127.0.0.1 and a port the system picks. A request whose `state` is
 * not this sign-in's is answered 400 and otherwise ignored: any page the user visits can make the
 * browser request the loopback callback, and must not end the sign-in.
 */
async function listenForCallback(accepts: (state: string | null) => boolean): Promise<Callback> {
  let deliver: (params: URLSearchParams) => void = () => {};
  const received = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server: Server = createServer((req, res) => {
    const requestUrl = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (requestUrl.pathname !== '/callback') return void res.writeHead(404).end();
    if (!accepts(requestUrl.searchParams.get('state')))
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Not this sign-in.');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Signed in: you can close this window.');
    deliver(requestUrl.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    wait: (timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no sign-in within ${Math.round(timeoutMs / 1000)} s (the browser never came back)`)),
          timeoutMs,
        );
        void received.then((params) => {
          clearTimeout(timer);
          resolve(params);
        });
      }),
    close: () => server.close(),
  };
}

/** `$BROWSER` (a command, given the URL), else the platform's opener; nothing when neither exists. */
function openBrowser(url: string, env: NodeJS.ProcessEnv, say: (line: string) => void): void {
  const [command, args] = openerCommand(url, env);
  const child = spawn(command, args, { stdio: 'ignore', detached: false });
  child.on('error', () => say('No browser could be opened: open the URL above yourself.'));
  child.unref();
}
