/**
 * What a protocol-family handler (resources, prompts, completions) needs from the proxy: the
 * merged upstream features, a way to forward a session's request to the owning server, and the
 * subscription table. The handlers depend on this, not on `GatewayProxy`, so the proxy can import
 * them without a cycle.
 */
import type { McpAggregate } from '../../mcp/aggregate.js';
import type { McpMessage } from '../../mcp/connection.js';
import type { SessionExtra } from './server-requests.js';
import type { Subscriptions } from './subscriptions.js';

export interface ProxyContext {
  readonly features: McpAggregate | undefined;
  readonly subscriptions: Subscriptions;
  forward(
    sessionId: string,
    server: string,
    extra: SessionExtra,
    request: McpMessage,
  ): Promise<Record<string, unknown>>;
}
