/**
 * A2 — the deferral decision, a priority chain: each rule overrides those below it, so the order
 * of the checks below is the policy. A4's "backend still initializing" sits on top: a tool whose
 * server is not ready yet cannot be called, so it is never sent as loaded.
 */
import { SEARCH_TOOL_NAME } from './search-tool.js';
import type { ToolSpec } from './tool.js';

export interface DeferralContext {
  /** The search tool's name, if renamed. */
  readonly searchToolName?: string;
  /** Names (model-facing) or `mcp__<server>` groups the user never wants deferred. */
  readonly neverDefer?: ReadonlySet<string>;
  /** Local tools the model needs on turn one (besides those marked `critical`). */
  readonly critical?: ReadonlySet<string>;
  /** MCP servers whose backend is still initializing (A4). */
  readonly initializingServers?: ReadonlySet<string>;
}

function isBackendInitializing(tool: ToolSpec, ctx: DeferralContext): boolean {
  return tool.origin.kind === 'mcp' && (ctx.initializingServers?.has(tool.origin.server) ?? false);
}

function isNeverDeferred(tool: ToolSpec, ctx: DeferralContext): boolean {
  if (!ctx.neverDefer) return false;
  if (ctx.neverDefer.has(tool.name)) return true;
  return tool.origin.kind === 'mcp' && ctx.neverDefer.has(`mcp__${tool.origin.server}`);
}

function isCritical(tool: ToolSpec, ctx: DeferralContext): boolean {
  return tool.critical === true || (ctx.critical?.has(tool.name) ?? false);
}

/** A2 (+A4): is this tool withheld until the model searches for it? */
export function isDeferred(tool: ToolSpec, ctx: DeferralContext = {}): boolean {
  if (isBackendInitializing(tool, ctx)) return true;
  if (tool.alwaysLoad === true) return false;
  if (isNeverDeferred(tool, ctx)) return false;
  if (tool.origin.kind === 'mcp') return true;
  if (tool.name === (ctx.searchToolName ?? SEARCH_TOOL_NAME)) return false;
  if (isCritical(tool, ctx)) return false;
  return tool.defer === true;
}

/** Names of the deferred tools of a pool, in pool order. */
export function deferredNames(tools: readonly ToolSpec[], ctx: DeferralContext = {}): string[] {
  return tools.filter((t) => isDeferred(t, ctx)).map((t) => t.name);
}
