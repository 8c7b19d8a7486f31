/**
 * G8 — MCP Apps visibility. A tool's `_meta.ui.visibility` says who may use it: `"model"`, `"app"`
 * (the UI an MCP App renders calls it through the host), or both (the default when absent). A tool
 * the model may not use is never announced, listed or searched — it would only cost tokens and
 * invite calls the server does not expect from a model — but it stays callable, because its app
 * calls it by name.
 */
import type { ToolSpec } from './tool.js';

/** The MCP Apps extension's identifier, as clients declare it under `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** What a host that renders MCP Apps declares for the extension. */
export const MCP_APPS_CAPABILITY = { mimeTypes: ['text/html;profile=mcp-app'] } as const;

/**
 * Whether the tool has an app view (`_meta.ui.resourceUri`, or the earlier flat `ui/resourceUri`):
 * a host finds that link in the tool's `tools/list` entry, and renders the view when the model
 * calls the tool by that name, so such a tool must reach the list even where others do not (E5).
 */
export function hasAppUi(tool: Pick<ToolSpec, 'meta'> | undefined): boolean {
  const meta = tool?.meta;
  if (meta === undefined) return false;
  const ui = meta['ui'];
  const nested = typeof ui === 'object' && ui !== null ? (ui as { resourceUri?: unknown }).resourceUri : undefined;
  return typeof nested === 'string' || typeof meta['ui/resourceUri'] === 'string';
}

/** Whether the model may see and call the tool (false only when the server lists visibility without "model"). */
export function isModelVisible(tool: Pick<ToolSpec, 'meta'>): boolean {
  const ui = tool.meta?.['ui'];
  if (typeof ui !== 'object' || ui === null) return true;
  const visibility = (ui as { visibility?: unknown }).visibility;
  if (!Array.isArray(visibility)) return true;
  return visibility.includes('model');
}
