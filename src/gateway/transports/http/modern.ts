/**
 * G8 — the HTTP entry for 2026-07-28 clients, beside the 2025 sessions of server.ts on the same
 * endpoint. The SDK's own entry (`createMcpHandler`) serves them: `server/discover`, the
 * per-request `_meta` envelope, the SEP-2243 header checks, `subscriptions/listen` streams (fed by
 * the gateway's ListenStreams) and `input_required` results. `legacy: 'reject'`, because 2025
 * traffic never reaches it: the SDK's own classifier (`isLegacyRequest`) sends that to our
 * sessionful transports, which keep sessions, the shared session store and resumption.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { Logger } from '../../../util/log.js';
import type { ToolsearchGateway } from '../../gateway.js';
import type { ClientIdentity } from '../../sessions/identity.js';
import { capResponseBody } from './stream-queue.js';

export interface ModernEntry {
  /** `identity`: who sent it (server.ts), for learning and shares. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, identity: ClientIdentity): Promise<void>;
  close(): Promise<void>;
}

/** Whether a session-less POST belongs to the 2026-07-28 era, by the SDK's own classifier. */
export async function isModernRequest(req: IncomingMessage, body: unknown): Promise<boolean> {
  return !(await isLegacyRequest(await toWebRequest(req, body), body));
}

export function modernEntry(
  gateway: ToolsearchGateway,
  maxBodyBytes: number,
  logger: Logger,
  maxQueuedBytes = 0,
): ModernEntry {
  // C15: the SDK builds each request's server where the request's identity is not passed along; it
  // is carried to the factory in the request's async context.
  const identities = new AsyncLocalStorage<ClientIdentity>();
  const handler = createMcpHandler(() => gateway.createStatelessServer(identities.getStore() ?? { key: 'unknown' }), {
    legacy: 'reject',
    bus: gateway.listeners.bus,
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => logger.debug(`2026-07-28 request: ${error.message}`),
  });
  /** G5: a response its client does not read is closed past `streamQueuedBytes` (stream-queue.ts). */
  const serve = (req: IncomingMessage, res: ServerResponse, body: unknown) =>
    toNodeHandler(
      {
        fetch: async (request, extra) =>
          capResponseBody(await handler.fetch(request, extra), maxQueuedBytes, (queuedBytes) => {
            res.destroy();
            gateway.operations.events.emit({ type: 'limit', limit: 'streamQueuedBytes' });
            logger.warn(
              `2026-07-28 ${req.method ?? ''} stream closed: ${queuedBytes} bytes queued that the client has not read ` +
                `(limit streamQueuedBytes = ${maxQueuedBytes})`,
            );
          }),
      },
      { maxRequestBodySize: maxBodyBytes },
    )(req, res, body);
  return {
    async handle(req, res, body, identity) {
      const method = (body as { method?: unknown } | undefined)?.method;
      logger.debug(`2026-07-28 request: ${typeof method === 'string' ? method : 'batch or response'}`);
      const uris = listenedResources(body);
      if (uris.length > 0) {
        const release = await gateway.listenToResources(uris);
        res.once('close', release);
      }
      await identities.run(identity, () => serve(req, res, body));
    },
    close: () => handler.close(),
  };
}

/** The resource URIs a `subscriptions/listen` asks updates for (none for any other request). */
function listenedResources(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { method, params } = body as {
    method?: unknown;
    params?: { notifications?: { resourceSubscriptions?: unknown } };
  };
  const uris = method === 'subscriptions/listen' ? params?.notifications?.resourceSubscriptions : undefined;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
