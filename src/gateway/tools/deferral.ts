/**
 * Which catalog tools the gateway defers: the core's per-request pipeline (`plan()`: A2 chain,
 * B1 mode, B3 threshold for `auto:N` with the characters / 2.5 estimate, B6 gate) run over the
 * pool, so the gateway and the library never disagree about what is deferred.
 */
import { parseModeValue, type ToolSearchMode } from '../../core/mode.js';
import { plan } from '../../core/plan.js';
import type { PoolView } from '../../core/catalog.js';

export interface GatewayMode {
  readonly mode: ToolSearchMode;
  readonly autoPercent: number;
}

/** `always` (default), `never`, `auto`, `auto:N`, booleans. Throws InvalidModeError otherwise. */
export function parseGatewayMode(value: string | undefined): GatewayMode {
  return parseModeValue(value ?? 'always');
}

/** B1/B3 for the gateway: the deferred set of the current pool. */
export function deferredNames(
  pool: PoolView & { isServerInitializing?(server: string): boolean },
  mode: GatewayMode,
  contextWindow: number,
): Set<string> {
  const initializingServers = new Set(
    pool.tools.flatMap((t) =>
      t.origin.kind === 'mcp' && pool.isServerInitializing?.(t.origin.server) ? [t.origin.server] : [],
    ),
  );
  const p = plan({
    tools: pool.tools,
    pendingServers: pool.pendingServers,
    option: mode.mode === 'auto' ? `auto:${mode.autoPercent}` : mode.mode,
    contextWindow,
    deferral: { initializingServers },
    announce: 'none',
  });
  return new Set(p.deferred);
}
