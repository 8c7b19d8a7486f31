/**
 * Which catalog tools the gateway defers (A2 under a B1 mode).
 *
 * TODO(merge core): replace `isDeferredStandIn` with `isDeferred` from '../core/policy.js' and the
 * auto threshold with '../core/threshold.js' once the lead's policy modules land on main.
 */
import type { ToolSpec } from '../core/tool.js';
import { toolDefinitionJson } from '../core/tool.js';

/** A2 in short: alwaysLoad → MCP deferred → critical never → `defer` flag. */
export function isDeferredStandIn(tool: ToolSpec): boolean {
  if (tool.alwaysLoad === true) return false;
  if (tool.origin.kind === 'mcp') return true;
  if (tool.critical === true) return false;
  return tool.defer === true;
}

export type GatewayMode = 'always' | 'never' | { auto: number };

/** `always` (or `true`), `never` (or `false`), `auto`, `auto:N`. Unknown → always. */
export function parseGatewayMode(value: string | undefined): GatewayMode {
  const text = (value ?? 'always').trim().toLowerCase();
  if (text === 'never' || text === 'false') return 'never';
  const auto = /^auto(?::(\d{1,3}))?$/.exec(text);
  if (auto) return { auto: Math.min(100, Number(auto[1] ?? 10)) };
  return 'always';
}

/**
 * B1/B3 for the gateway: the deferred set. `auto:N` defers only when the deferrable schemas
 * exceed N% of the context window, measured as characters / 2.5 (biased toward deferring).
 */
export function deferredNames(tools: readonly ToolSpec[], mode: GatewayMode, contextWindow: number): Set<string> {
  if (mode === 'never') return new Set();
  const candidates = tools.filter(isDeferredStandIn);
  if (mode !== 'always') {
    const chars = candidates.reduce((sum, tool) => sum + toolDefinitionJson(tool).length, 0);
    if (chars / 2.5 <= Math.floor((contextWindow * mode.auto) / 100)) return new Set();
  }
  return new Set(candidates.map((t) => t.name));
}
