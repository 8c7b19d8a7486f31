/**
 * C8/C15 — what a server still on its way is doing, when it is more than connecting: the hub's own
 * state for it (a package runner's `installing`, say). A partial search answer names it beside the
 * server, so "still connecting" is not all a model (or a user) is told about a first start that
 * takes minutes. Plain connecting says nothing more.
 */
import type { ServerStatus } from '../../mcp/server-state.js';

interface HubView {
  status(): readonly Pick<ServerStatus, 'server' | 'state'>[];
  readonly catalog: { readonly pendingServers: readonly string[] };
}

/** Pending servers whose hub state says more than "connecting", by name. */
export function pendingStates(hub: HubView): Record<string, string> {
  const pending = new Set(hub.catalog.pendingServers);
  const out: Record<string, string> = {};
  if (pending.size === 0) return out;
  for (const { server, state } of hub.status())
    if (pending.has(server) && state !== 'connecting' && state !== 'connected') out[server] = state;
  return out;
}
