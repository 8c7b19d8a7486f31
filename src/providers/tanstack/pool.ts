/**
 * The catalog as TanStack tools: deferred tools (A2) become `lazy: true`, so a pool can go
 * straight into TanStack AI's `chat({ tools })` (which then runs its own lazy discovery) or
 * into `LazyToolDiscovery` for any other loop.
 */
import type { PoolView } from '../../core/catalog.js';
import { isDeferred, type DeferralContext } from '../../core/policy.js';
import type { JSONSchema } from '@tanstack/ai';
import type { ToolExecutor } from '../shared/calls.js';
import type { LazyTool } from './lazy-discovery.js';

export interface PoolLazyTool extends LazyTool {
  /** TanStack's JSONSchema type: a JSON object schema, which is what the core's tools carry. */
  readonly inputSchema: JSONSchema;
  readonly lazy: boolean;
  readonly execute: (args: Record<string, unknown>) => Promise<unknown>;
}

export interface LazyPoolOptions {
  readonly deferral?: DeferralContext;
  /** Runs tools without a handler (MCP calls). */
  readonly executor?: ToolExecutor;
}

export function lazyToolsFromPool(pool: PoolView, options: LazyPoolOptions = {}): PoolLazyTool[] {
  return pool.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as JSONSchema,
    lazy: isDeferred(tool, options.deferral),
    execute: async (args: Record<string, unknown>) => {
      if (tool.handler) return tool.handler(args);
      if (options.executor) return options.executor({ name: tool.name, input: args, tool });
      throw new Error(`Tool "${tool.name}" has no handler in this process.`);
    },
  }));
}
