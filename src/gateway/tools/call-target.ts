/**
 * G8 — which catalog tool a `tools/call` name means. The gateway's own names (`mcp__<server>__<tool>`)
 * come first. A name the catalog does not hold may be a server's own name for one of its tools: an
 * MCP App calls its server's tools that way (the host forwards the app's call as is), and so do
 * scripts written against a single server. Such a name resolves when exactly one server offers it;
 * when several do, the caller is told the gateway names to choose from, never a guess.
 */
import type { Catalog } from '../../core/catalog.js';
import type { ToolSpec } from '../../core/tool.js';

export type CallTarget =
  | { readonly kind: 'tool'; readonly tool: ToolSpec; readonly byUpstreamName: boolean }
  | { readonly kind: 'ambiguous'; readonly message: string }
  | { readonly kind: 'unknown' };

export function resolveCallTarget(catalog: Pick<Catalog, 'get' | 'byUpstreamName'>, name: string): CallTarget {
  const tool = catalog.get(name);
  if (tool) return { kind: 'tool', tool, byUpstreamName: false };
  const candidates = catalog.byUpstreamName(name);
  if (candidates.length === 1) return { kind: 'tool', tool: candidates[0]!, byUpstreamName: true };
  if (candidates.length > 1) {
    const names = candidates.map((t) => t.name).join(', ');
    return {
      kind: 'ambiguous',
      message: `Tool "${name}" is offered by ${candidates.length} servers behind this gateway: call one of ${names}.`,
    };
  }
  return { kind: 'unknown' };
}
