/**
 * G8 — deferral without a session. A 2026-07-28 client sends every request on its own, with no
 * session for found tools to join, so for it:
 *   - `tools/list` is what a new 2025 session sees (always-loaded tools, `tool_search`, `call_tool`);
 *   - `tool_search` returns the full definitions of what it found (as it does for every client)
 *     and records nothing;
 *   - `call_tool` runs any tool of the catalog by name, and so does a direct `tools/call` by the
 *     tool's gateway name: nothing is "not loaded" without a session to load it into.
 * Each such request gets its own pseudo session id (for the router and probes), never stored.
 *
 * C13 still needs "the same client" to pair a search with the call that follows it: the requests
 * of one client identity (`client`, a digest of its key, in the id: sessions/identity.ts); over
 * stdio, one connection. `usageKey` reads that back.
 */
import { createHash, randomUUID } from 'node:crypto';

const PREFIX = 'stateless:';
/** Between the client part and the request's own UUID. */
const SEPARATOR = '/';

/** A fresh id for one 2026-era request. Never a store key: HTTP session ids are bare UUIDs. */
export function statelessRequestId(client?: string): string {
  return `${PREFIX}${client === undefined ? '' : `${client}${SEPARATOR}`}${randomUUID()}`;
}

/**
 * C13: the key a search and a later call must share to teach: a 2026 request's client part (its
 * credentials), or the session id itself (a 2025 session; a stdio connection's one id).
 */
export function usageKey(sessionId: string): string {
  if (!isStateless(sessionId)) return sessionId;
  const cut = sessionId.lastIndexOf(SEPARATOR);
  return cut < 0 ? sessionId : sessionId.slice(0, cut);
}

/** A 2026 request's client, for `usageKey`: a digest of its identity's key (never a token or address itself). */
export function statelessClient(identityKey: string): string {
  const digest = createHash('sha256').update(identityKey).digest('base64url');
  return `client-${digest.slice(0, 16)}`;
}

export function isStateless(sessionId: string): boolean {
  return sessionId.startsWith(PREFIX);
}
