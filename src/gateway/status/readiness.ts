/**
 * H3 — readiness, as opposed to liveness. `/healthz` says the process is alive and serving (a
 * process manager restarts it otherwise); readiness says whether every configured upstream server
 * is usable, so a balancer or an orchestrator can hold traffic back while servers start, and an
 * operator's probe (or `toolsearch status`) flags a server that failed or was quarantined.
 *
 * Not ready: a server on its first connect (`connecting` before any reconnect: its tools are not
 * in the catalog yet, or `installing` through a package runner), `failed`, `quarantined`, or `closed` (the gateway is shutting down). A
 * server that dropped and is reconnecting does not flip readiness: its tools come back on their
 * own and sessions keep what they discovered; failing that attempt makes it `failed`.
 */
import type { ServerStatus } from '../../mcp/server-state.js';

export interface Readiness {
  readonly ready: boolean;
  /** The servers that keep the gateway from being ready (names: only for token-holders). */
  readonly waitingFor: readonly string[];
}

export function readiness(servers: readonly ServerStatus[]): Readiness {
  const waitingFor = servers.filter((s) => !isServerReady(s)).map((s) => s.server);
  return { ready: waitingFor.length === 0, waitingFor };
}

export function isServerReady(server: ServerStatus): boolean {
  switch (server.state) {
    case 'connected':
      return true;
    case 'connecting':
    case 'installing':
      return server.reconnects > 0;
    default:
      return false;
  }
}

/**
 * `toolsearch status` exit code: 2 when a server is failed, quarantined or needs sign-in (each
 * needs someone to act; connecting is not a fault).
 */
export function hasFaultyServer(servers: readonly ServerStatus[]): boolean {
  return servers.some((s) => s.state === 'failed' || s.state === 'quarantined' || s.state === 'needs-sign-in');
}
