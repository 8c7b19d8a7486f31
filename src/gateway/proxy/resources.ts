/**
 * G4 — resources through the gateway: `resources/list` and `resources/templates/list` page the
 * merged lists (src/mcp/aggregate.ts says who owns what and how clashes are resolved),
 * `resources/read` goes to the owning server with the server's own URI, and subscriptions are
 * shared per (server, URI) with per-session delivery (subscriptions.ts).
 */
import { ProtocolErrorCode as ErrorCode, type Server } from '@modelcontextprotocol/server';
import type { Route } from '../../mcp/aggregate.js';
import { pageOf } from './cursor.js';
import type { ProxyContext } from './context.js';
import { ProxyError } from '../errors.js';
import { type ResultCacheHints, withCacheHint } from '../tools/cache-hints.js';

/** `hints` (G12): a 2026-07-28 request's server stamps `ttlMs`/`cacheScope` on lists and reads. */
export function registerResourceHandlers(
  server: Server,
  proxy: ProxyContext,
  sessionId: string,
  hints?: ResultCacheHints,
): void {
  server.setRequestHandler('resources/list', (request) => {
    const list = proxy.features?.resources() ?? { items: [], generation: 0 };
    const page = pageOf('resources', list, request.params?.cursor);
    const result = { resources: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
    return withCacheHint(result, hints?.list('resources')) as never;
  });
  server.setRequestHandler('resources/templates/list', (request) => {
    const list = proxy.features?.templates() ?? { items: [], generation: 0 };
    const page = pageOf('resourceTemplates', list, request.params?.cursor);
    const result = {
      resourceTemplates: page.items,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
    return withCacheHint(result, hints?.list('resources')) as never;
  });
  server.setRequestHandler('resources/read', async (request, extra) => {
    const route = routeUri(proxy, request.params.uri);
    const result = await proxy.forward(sessionId, route.server, extra, {
      method: 'resources/read',
      params: { ...request.params, uri: route.target },
    });
    return withCacheHint(result, hints?.read(result['ttlMs'])) as never;
  });
  server.setRequestHandler('resources/subscribe', async (request) => {
    await proxy.subscriptions.subscribe(sessionId, request.params.uri, routeUri(proxy, request.params.uri));
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await proxy.subscriptions.unsubscribe(sessionId, routeUri(proxy, request.params.uri));
    return {};
  });
}

export function routeUri(proxy: ProxyContext, uri: string): Route {
  refuseBadUri(proxy, uri);
  const route = proxy.features?.routeUri(uri);
  if (!route)
    throw new ProxyError(
      ErrorCode.InvalidParams,
      `No connected MCP server offers the resource "${uri}" (list resources and templates to see what is available).`,
    );
  return route;
}

/** G5: a URI past `resourceUriChars` or holding control characters is refused before routing. */
export function refuseBadUri(proxy: ProxyContext, uri: string): void {
  const problem = proxy.features?.uriProblem(uri);
  if (problem !== undefined) throw new ProxyError(ErrorCode.InvalidParams, `Resource URI refused: ${problem}.`);
}
