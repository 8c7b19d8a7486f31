/**
 * G4 — `completion/complete` through the gateway: a prompt argument goes to the prompt's server
 * (under its own name), a resource-template argument to the template's server (its own template).
 */
import { ProtocolErrorCode as ErrorCode, type Server } from '@modelcontextprotocol/server';
import type { Route } from '../../mcp/aggregate.js';
import type { ProxyContext } from './context.js';
import { refuseBadUri } from './resources.js';
import { ProxyError } from '../errors.js';

export function registerCompletionHandler(server: Server, proxy: ProxyContext, sessionId: string): void {
  server.setRequestHandler('completion/complete', async (request, extra) => {
    const ref = request.params.ref;
    let route: Route | undefined;
    let upstreamRef: typeof ref | undefined;
    if (ref.type === 'ref/prompt') {
      route = proxy.features?.routePrompt(ref.name);
      upstreamRef = route && { ...ref, name: route.target };
    } else {
      refuseBadUri(proxy, ref.uri);
      route = proxy.features?.routeTemplate(ref.uri) ?? proxy.features?.routeUri(ref.uri);
      upstreamRef = route && { ...ref, uri: route.target };
    }
    if (!route || !upstreamRef) {
      throw new ProxyError(
        ErrorCode.InvalidParams,
        `No connected MCP server offers ${ref.type === 'ref/prompt' ? `the prompt "${ref.name}"` : `the resource template "${ref.uri}"`} to complete.`,
      );
    }
    return (await proxy.forward(sessionId, route.server, extra, {
      method: 'completion/complete',
      params: { ...request.params, ref: upstreamRef },
    })) as never;
  });
}
