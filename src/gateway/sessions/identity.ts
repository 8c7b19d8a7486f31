/**
 * C15, G11 — who a client is, as far as the gateway can tell, whatever the transport. The one place
 * that says which sources name a client and why. Two uses read it:
 *   - learning (C13–C15): a lesson counts for the identity that taught it, and where several
 *     identities share the gateway, a tool lifts for everyone only once two of them agree. So a
 *     learning identity must be something a caller cannot make up per request (`proven`);
 *   - shares (code mode's `runsPerClient`): how much of a pool one client may take (`key`). A share
 *     needs some name for every caller, proven or not: where none is proven, the address.
 *
 * What counts as proven, and what does not:
 *   - stdio: the one process at the other end of the pipe, started by the user who started the
 *     gateway. Counts (`stdio`).
 *   - an OAuth subject the gateway verified itself. Would count; the gateway does not authenticate
 *     its clients by OAuth today, so no request carries one.
 *   - the bearer token the endpoint checked: a request without it was refused (401), and no caller
 *     can make up another that passes. Counts, as a digest (never the token), scoped by the
 *     endpoint's profile. Everyone holding one token is one identity: give each client its own token
 *     (one per line of `--token-file`) for the gateway to tell them apart.
 *   - the profile: an endpoint of its own with its own learning; it scopes the token's identity so
 *     that two endpoints' identities never meet, even in one store.
 * Not proven (never a learning identity):
 *   - an `Authorization` header on an endpoint that checks no token: anyone may send any, a new one
 *     per request;
 *   - the session id: anyone gets a new one by asking;
 *   - the client's name and version in `initialize`: the client says what it likes;
 *   - the network address: every local process shares 127.0.0.1, every client behind a proxy the
 *     proxy's. It still tells clients apart for a share (as the initialize rate and per-session
 *     connections count them), where the worst a shared address does is share one share.
 */
import { createHash } from 'node:crypto';

export interface ClientIdentity {
  /** Who, for shares: the proven identity and, over HTTP, the address (the address alone without one). */
  readonly key: string;
  /** Who, for learning: only what a caller cannot make up per request; absent over HTTP without a token. */
  readonly proven?: string;
}

export interface IdentitySource {
  readonly transport: 'stdio' | 'http';
  /** The bearer token the endpoint checked and this request passed; absent when the endpoint checks none. */
  readonly token?: string;
  /** An OAuth subject the gateway verified (none today; see above). */
  readonly subject?: string;
  /** The profile whose endpoint took the request (absent: the main endpoint). */
  readonly profile?: string;
  /** The client's address as the initialize rate counts it (IPv4 per address, IPv6 by its /64). */
  readonly address?: string;
}

/** The identity of stdio's one client. */
export const STDIO_IDENTITY: ClientIdentity = { key: 'stdio', proven: 'stdio' };

export function clientIdentity(source: IdentitySource): ClientIdentity {
  if (source.transport === 'stdio') return STDIO_IDENTITY;
  const proven = provenIdentity(source);
  const at = source.address === undefined ? '' : `@${source.address}`;
  return proven === undefined ? { key: `address${at}` } : { key: `${proven}${at}`, proven };
}

function provenIdentity(source: IdentitySource): string | undefined {
  const scope = source.profile === undefined ? '' : `profile:${source.profile}/`;
  if (source.subject !== undefined) return `${scope}oauth:${digest(source.subject)}`;
  if (source.token !== undefined) return `${scope}token:${digest(source.token)}`;
  return undefined;
}

/**
 * C15: the one identity an endpoint admits, when it admits only one — stdio, or an HTTP endpoint
 * that checks exactly one token — else undefined (no token: anyone may call, none proven; several
 * tokens: several identities share it).
 */
export function soleIdentity(endpoint: {
  readonly transport: 'stdio' | 'http';
  readonly tokens?: readonly string[];
  readonly profile?: string;
}): string | undefined {
  if (endpoint.transport === 'stdio') return STDIO_IDENTITY.proven;
  const tokens = endpoint.tokens ?? [];
  if (tokens.length !== 1) return undefined;
  return provenIdentity({
    transport: 'http',
    token: tokens[0]!,
    ...(endpoint.profile !== undefined && { profile: endpoint.profile }),
  });
}

function digest(secret: string): string {
  return createHash('sha256').update(`toolsearch-identity:${secret}`).digest('base64url').slice(0, 16);
}
