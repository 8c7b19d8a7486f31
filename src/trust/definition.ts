/**
 * G10 — what a pin covers: the parts of a tool's definition a model reads or a client acts on
 * (name, title, description, input and output schemas, annotations), as the server listed them,
 * before the gateway's own overrides or defusing. Hashed canonically (keys sorted at every depth,
 * SHA-256), so the same definition listed with its keys in another order is the same pin.
 */
import { createHash } from 'node:crypto';

/** The pinned fields of one listed tool. */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** A listed tool as any MCP client gives it (extra fields are ignored). */
export interface ListedTool {
  readonly name: string;
  readonly [field: string]: unknown;
}

/** The pinned fields of a listed tool; absent or mistyped fields are left out, never guessed. */
export function definitionOf(tool: ListedTool): ToolDefinition {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const title = text(tool['title']);
  const description = text(tool['description']);
  return {
    name: tool.name,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...(tool['inputSchema'] !== undefined && { inputSchema: tool['inputSchema'] }),
    ...(tool['outputSchema'] !== undefined && { outputSchema: tool['outputSchema'] }),
    ...(tool['annotations'] !== undefined && { annotations: tool['annotations'] }),
  };
}

/** JSON with object keys sorted at every depth and `undefined` members left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `sha256:<hex>` of the definition's canonical JSON. */
export function definitionHash(definition: ToolDefinition): string {
  return `sha256:${createHash('sha256').update(canonicalJson(definition)).digest('hex')}`;
}

/** A short form for tables and messages. */
export function shortHash(hash: string): string {
  return hash.replace(/^sha256:/, '').slice(0, 12);
}
