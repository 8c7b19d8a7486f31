/**
 * G4/G8 — how a server → client request reaches the client behind one in-flight request, in
 * either era: on a 2025 session it is a real request on the request's own stream; for a
 * 2026-07-28 request it becomes an `input_required` result (input-required.ts).
 */
import type { ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { UpstreamProgress } from '../../mcp/connection.js';
import type { RequestClaim } from './attribution.js';

export interface ClientMessage {
  method: string;
  params: Record<string, unknown>;
}

export interface ClientChannel {
  /** What the client declared (initialize on a session, the request's envelope in 2026). */
  capabilities(): ClientCapabilities | undefined;
  /** Ask the client; resolves with its answer as it came. */
  ask(message: ClientMessage, signal: AbortSignal, timeoutMs: number): Promise<Record<string, unknown>>;
  /** Cancels the upstream work (the client cancelled, or a parked call was dropped). */
  readonly signal: AbortSignal;
  /**
   * Whether the request still claims what its server sends for the grace period after it ended
   * (a session can still be reached then; a finished 2026 request cannot, so it claims nothing).
   */
  readonly lingers: boolean;
  /** Upstream progress re-emitted under the client's own token, when the client asked for progress. */
  progress(): ((progress: UpstreamProgress) => void) | undefined;
  /**
   * G8: the attribution claim of one upstream request made through this channel, while it runs
   * (returns the release). A parked 2026 call parks its claims while its client holds the
   * question and resumes them on the retry (attribution.ts).
   */
  hold?(claim: RequestClaim): () => void;
}

/** A client's answer passed through as it came (the upstream server validates it). */
const AnyResult = z.looseObject({});

/** A 2025 session's request: server → client requests go on the request's own stream. */
export function sessionChannel(
  extra: ServerContext,
  capabilities: () => ClientCapabilities | undefined,
): ClientChannel {
  return {
    capabilities,
    ask: async (message, signal, timeout) =>
      (await extra.mcpReq.send(message, AnyResult, { signal, timeout })) as Record<string, unknown>,
    signal: extra.mcpReq.signal,
    lingers: true,
    progress: () => {
      const token = extra.mcpReq._meta?.progressToken;
      if (token === undefined) return undefined;
      return (progress) => {
        extra.mcpReq
          .notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
          .catch(() => undefined);
      };
    },
  };
}

export { AnyResult };
