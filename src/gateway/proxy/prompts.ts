/**
 * G4 — prompts through the gateway: `prompts/list` pages the merged list (names kept as their
 * servers gave them; clashes qualified as `<server>__<name>`, see src/mcp/aggregate.ts),
 * `prompts/get` goes to the owning server under the server's own name.
 */
import { ProtocolErrorCode as ErrorCode, type Server } from '@modelcontextprotocol/server';
import { pageOf } from './cursor.js';
import type { ProxyContext } from './context.js';
import { ProxyError } from '../errors.js';
import { type ResultCacheHints, withCacheHint } from '../tools/cache-hints.js';

/** `hints` (G12): a 2026-07-28 request's server stamps `ttlMs`/`cacheScope` on the list. */
export function registerPromptHandlers(
  server: Server,
  proxy: ProxyContext,
  sessionId: string,
  hints?: ResultCacheHints,
): void {
  server.setRequestHandler('prompts/list', (request) => {
    const list = proxy.features?.prompts() ?? { items: [], generation: 0 };
    const page = pageOf('prompts', list, request.params?.cursor);
    const result = { prompts: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
    return withCacheHint(result, hints?.list('prompts')) as never;
  });
  server.setRequestHandler('prompts/get', async (request, extra) => {
    const route = proxy.features?.routePrompt(request.params.name);
    if (!route)
      throw new ProxyError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${request.params.name}" (no connected MCP server offers it; list prompts to see what is available).`,
      );
    return (await proxy.forward(sessionId, route.server, extra, {
      method: 'prompts/get',
      params: { ...request.params, name: route.target },
    })) as never;
  });
}
