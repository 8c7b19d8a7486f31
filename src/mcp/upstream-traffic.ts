/**
 * G4 — what upstream servers send the gateway on their own: notifications (`resources/updated`,
 * logging `message`) to the hub's listeners, server → client requests (sampling, elicitation,
 * roots) to the handler the gateway sets. `session` says it came on that gateway session's own
 * connection (G5, `"isolation": "session"`); absent, on the server's shared one.
 */
import type { McpMessage } from './connection.js';
import { UpstreamError } from './errors.js';
import type { ServerRequestHandler } from './hub-options.js';

export type NotificationListener = (server: string, notification: McpMessage, session?: string) => void;

export class UpstreamTraffic {
  private readonly listeners = new Set<NotificationListener>();

  constructor(private readonly handler: () => ServerRequestHandler | undefined) {}

  listen(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(server: string, notification: McpMessage, session?: string): void {
    for (const listener of this.listeners) listener(server, notification, session);
  }

  /** Refused when no gateway is attached to answer. */
  ask(server: string, request: McpMessage, signal: AbortSignal, session?: string): Promise<Record<string, unknown>> {
    const handler = this.handler();
    if (!handler)
      return Promise.reject(
        new UpstreamError(server, `sent ${request.method}, but no client is attached to answer it`),
      );
    return handler(server, request, signal, session);
  }
}
