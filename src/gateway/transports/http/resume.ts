/**
 * G6 — one of the two places that reach into MCP SDK internals (the other: stream-queue.ts): a
 * session opened on another replica continues here, so a fresh transport must be put in the state
 * its initialize left it in.
 */
import type { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node';

/**
 * Put a fresh SDK transport in the state its initialize handshake would leave (that handshake
 * happened on another process). The SDK has no public API for this; the check below turns an SDK
 * change into a clear error instead of a silently broken resume.
 */
export function markInitialized(transport: StreamableHTTPServerTransport, sessionId: string): void {
  const inner = (transport as unknown as { _webStandardTransport?: { sessionId?: string; _initialized?: boolean } })
    ._webStandardTransport;
  if (inner?._initialized !== false)
    throw new Error('cannot resume the session: the MCP SDK transport internals changed');
  inner.sessionId = sessionId;
  inner._initialized = true;
}
