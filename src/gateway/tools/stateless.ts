/**
 * G8 — deferral without a session. A 2026-07-28 client sends every request on its own, with no
 * session for found tools to join, so for it:
 *   - `tools/list` is what a new 2025 session sees (always-loaded tools, `tool_search`, `call_tool`);
 *   - `tool_search` returns the full definitions of what it found (as it does for every client)
 *     and records nothing;
 *   - `call_tool` runs any tool of the catalog by name, and so does a direct `tools/call` by the
 *     tool's gateway name: nothing is "not loaded" without a session to load it into.
 * Each such request gets its own pseudo session id (for the router and probes), never stored.
 */
import { randomUUID } from 'node:crypto';

const PREFIX = 'stateless:';

/** A fresh id for one 2026-era request. Never a store key: HTTP session ids are bare UUIDs. */
export function statelessRequestId(): string {
  return `${PREFIX}${randomUUID()}`;
}

export function isStateless(sessionId: string): boolean {
  return sessionId.startsWith(PREFIX);
}
