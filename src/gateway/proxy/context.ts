/**
 * What a protocol-family handler (resources, prompts, completions) needs from the proxy: the
 * merged upstream features, a way to forward a session's request to the owning server, and the
 * subscription table. The handlers depend on this, not on `GatewayProxy`, so the proxy can import
 * them without a cycle.
 */
import type { McpMessage } from '../../mcp/connection.js';
import type { FeatureDirectory } from './feature-scope.js';
import type { SessionExtra } from './server-requests.js';
import type { Subscriptions } from './subscriptions.js';

export interface ProxyContext {
  /** Upstream features this gateway may see (a profile: its servers' only). */
  readonly features: FeatureDirectory | undefined;
  readonly subscriptions: Subscriptions;
  forward(
    sessionId: string,
    server: string,
    extra: SessionExtra,
    request: McpMessage,
  ): Promise<Record<string, unknown>>;
}
