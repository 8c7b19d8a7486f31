/**
 * C12 — servers that failed are named, with the reason, apart from servers still connecting: the
 * model should not retry for a server that cannot start, and the user reading the transcript sees
 * why its tools are missing.
 */
import type { FailedServer } from '../core/catalog.js';

/** At most this many characters of one reason reach the model (upstream stderr can be long). */
const REASON_CHARS = 300;

/**
 * G5: failed servers named per answer. A config copied from another machine can fail a thousand
 * servers; listing them all made every search answer (even a `select:`) ~25k tokens.
 */
export const FAILED_SERVERS_LISTED = 5;

export function formatFailedServers(failed: readonly FailedServer[]): string[] {
  if (failed.length === 0) return [];
  const listed = failed.slice(0, FAILED_SERVERS_LISTED);
  const more = failed.length - listed.length;
  return [
    // Not "retrying will not help": the gateway itself may retry a server ("retrying in 4 s" below);
    // what the model should not do is search or call again for it meanwhile.
    `MCP servers that failed (their tools are unavailable until the server starts; searching or calling again sooner will not help):`,
    ...listed.map(
      (f) => `- ${f.server}: ${f.reason.length > REASON_CHARS ? `${f.reason.slice(0, REASON_CHARS)}…` : f.reason}`,
    ),
    ...(more > 0 ? [`- … and ${more} more; see the status page`] : []),
  ];
}
