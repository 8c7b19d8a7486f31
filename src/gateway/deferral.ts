/**
 * Which catalog tools the gateway defers: core's A2 chain (`isDeferred`) under a B1 mode, with
 * B3's threshold for `auto:N` (estimate: characters / 2.5, which leans toward deferring).
 */
import { parseModeValue, type ToolSearchMode } from '../core/mode.js';
import { isDeferred } from '../core/policy.js';
import { estimateToolTokens, thresholdTokens } from '../core/threshold.js';
import type { PoolView } from '../core/catalog.js';

export interface GatewayMode {
  readonly mode: ToolSearchMode;
  readonly autoPercent: number;
}

/** `always` (default), `never`, `auto`, `auto:N`, booleans. Throws InvalidModeError otherwise. */
export function parseGatewayMode(value: string | undefined): GatewayMode {
  return parseModeValue(value ?? 'always');
}

/** B1/B3 for the gateway: the deferred set of the current pool. */
export function deferredNames(pool: PoolView & { isServerInitializing?(server: string): boolean }, mode: GatewayMode, contextWindow: number): Set<string> {
  if (mode.mode === 'never') return new Set();
  const initializingServers = new Set(pool.tools.flatMap((t) => (t.origin.kind === 'mcp' && pool.isServerInitializing?.(t.origin.server) ? [t.origin.server] : [])));
  const candidates = pool.tools.filter((tool) => isDeferred(tool, { initializingServers }));
  if (mode.mode === 'auto' && estimateToolTokens(candidates).tokens <= thresholdTokens(contextWindow, mode.autoPercent)) return new Set();
  return new Set(candidates.map((t) => t.name));
}
