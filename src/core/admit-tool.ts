/**
 * A3 — admitting a tool into the catalog: its model-facing name (MCP tools qualified, then made
 * provider-safe) and the spec built under it. Pure; the catalog and its drafts use it.
 */
import { isProviderSafeName, MCP_PREFIX, qualifyMcpName, toProviderSafeName } from './names.js';
import { defineTool, type ToolInput, type ToolSpec } from './tool.js';

/** Model-facing name of a tool: MCP tools are qualified, then made provider-safe (A3). */
export function modelFacingName(input: Pick<ToolInput, 'name' | 'origin'>): string {
  const raw = input.origin?.kind === 'mcp' ? qualifyMcpName(input.origin.server, input.name) : input.name;
  return toProviderSafeName(raw);
}

/**
 * Build a catalog tool from an input: name qualified and made safe, the source name kept in
 * `originalName` so calls can be routed back.
 */
export function admitTool(input: ToolInput): ToolSpec {
  if (isAdmitted(input)) return defineTool(input);
  const name = modelFacingName(input);
  const originalName = input.originalName ?? (name !== input.name ? input.name : undefined);
  return defineTool({ ...input, name, ...(originalName !== undefined && { originalName }) });
}

/** The name `admitTool` gives an input, without building the tool. */
export function admittedName(input: ToolInput): string {
  return isAdmitted(input) ? input.name : modelFacingName(input);
}

/**
 * A spec already admitted is not qualified twice: its name is its model-facing name, or (for a
 * renamed MCP tool, e.g. a duplicate given a suffix) a provider-safe qualified name that differs
 * from the server-side `originalName` it keeps.
 */
function isAdmitted(spec: ToolInput): boolean {
  const origin = spec.origin ?? { kind: 'local' as const };
  if (modelFacingName({ name: spec.originalName ?? spec.name, origin }) === spec.name) return true;
  return (
    origin.kind === 'mcp' &&
    spec.originalName !== undefined &&
    spec.name !== spec.originalName &&
    spec.name.startsWith(MCP_PREFIX) &&
    isProviderSafeName(spec.name)
  );
}
