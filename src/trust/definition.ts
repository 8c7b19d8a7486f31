/**
 * G10 — what a pin covers: the parts of a tool's definition a model reads or a client acts on
 * (name, title, description, input and output schemas, annotations, and `_meta`, `icons` and
 * `execution`: `_meta.ui.resourceUri` picks the view an MCP App shows, `icons` are fetched and
 * shown, `execution` says how a client runs the call), as the server listed them, before the
 * gateway's own overrides or defusing. Hashed canonically (keys sorted at every depth, SHA-256), so
 * the same definition listed with its keys in another order is the same pin.
 *
 * Pins made before `_meta`, `icons` and `execution` were covered (scheme 1, no `scheme` field) hash
 * the first six fields only: `legacyHash` is that hash, so such a pin still recognises its tool
 * (pins.ts re-pins it under scheme 2 on first sight, instead of holding every tool after an upgrade).
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
  readonly _meta?: unknown;
  readonly icons?: unknown;
  readonly execution?: unknown;
}

/** The fields scheme 2 added to what a pin covers. */
const SCHEME_2_FIELDS = ['_meta', 'icons', 'execution'] as const;

/** Which fields a stored hash covers: 2 = every field above; absent = scheme 1 (before `_meta`, `icons`, `execution`). */
export const HASH_SCHEME = 2;

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
  const present = (field: string) => (tool[field] !== undefined ? { [field]: tool[field] } : {});
  return {
    name: tool.name,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    ...present('inputSchema'),
    ...present('outputSchema'),
    ...present('annotations'),
    ...present('_meta'),
    ...present('icons'),
    ...present('execution'),
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

/** `sha256:<hex>` of the definition's canonical JSON (every pinned field: scheme 2). */
export function definitionHash(definition: ToolDefinition): string {
  return `sha256:${createHash('sha256').update(canonicalJson(definition)).digest('hex')}`;
}

/** The scheme-1 hash: the definition without `_meta`, `icons` and `execution`. */
export function legacyHash(definition: ToolDefinition): string {
  const older: Record<string, unknown> = { ...definition };
  for (const field of SCHEME_2_FIELDS) delete older[field];
  return definitionHash(older as unknown as ToolDefinition);
}

/** A short form for tables and messages. */
export function shortHash(hash: string): string {
  return hash.replace(/^sha256:/, '').slice(0, 12);
}

/** `sha256:<64 hex>` from what an operator typed (`sha256:…` or the bare hex), or undefined when it is neither. */
export function parseHash(typed: string): string | undefined {
  const hex = typed.trim().replace(/^sha256:/i, '');
  return /^[0-9a-f]{64}$/i.test(hex) ? `sha256:${hex.toLowerCase()}` : undefined;
}
