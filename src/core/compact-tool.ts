/**
 * E5 — a tool in as few tokens as a model needs to pick it: one line with its model-facing name,
 * a TypeScript-style argument list (`?` marks what is optional) and the first sentence of its
 * description. Full definitions are the exception (a client that cannot refresh its tool list, a
 * `select:`): `modelFacingDefinition` strips what a model never reads (`$schema`, `execution`,
 * output schemas unless asked, icons, `_meta`). Pure: the gateway, the library adapters, code mode
 * and the session bench all format tools here.
 */
import { neutralizeUntrusted } from './untrusted.js';
import type { JsonSchema } from './tool.js';
import { schemaType } from './tool-signature.js';

/** The fields these functions read: a `ToolSpec`, an MCP tool or any provider definition. */
export interface CompactToolInput {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: JsonSchema | Readonly<Record<string, unknown>>;
  readonly mcpFields?: Readonly<Record<string, unknown>>;
}

/** A purpose longer than this is cut (one line per hit). */
export const PURPOSE_CHARS = 120;
/** Arguments named in a signature before "…" (a 30-argument tool still takes one line). */
export const SIGNATURE_ARGS = 8;

/** `name(a: string, b?: number[]) — First sentence of the description.` */
export function compactToolLine(tool: CompactToolInput): string {
  const purpose = toolPurpose(tool.description ?? '');
  return purpose ? `${compactSignature(tool)} — ${purpose}` : compactSignature(tool);
}

/** `name(a: string, b?: "x" | "y", c?: object)`: required arguments first, as the schema orders them. */
export function compactSignature(tool: CompactToolInput): string {
  const schema = (tool.inputSchema ?? {}) as JsonSchema;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = Object.keys(properties);
  const ordered = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
  const shown = ordered
    .slice(0, SIGNATURE_ARGS)
    .map((n) => `${safeArgName(n)}${required.has(n) ? '' : '?'}: ${argumentType(properties[n])}`);
  if (ordered.length > SIGNATURE_ARGS) shown.push('…');
  return `${tool.name}(${shown.join(', ')})`;
}

/** The description's first sentence on one line, capped; third-party text, so tags are neutralized. */
export function toolPurpose(description: string): string {
  const flat = description
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const match = /^(.+?[.!?])(\s|$)/.exec(flat);
  const sentence = neutralizeUntrusted(match ? match[1]! : flat);
  return sentence.length <= PURPOSE_CHARS ? sentence : `${sentence.slice(0, PURPOSE_CHARS - 1)}…`;
}

/** A definition for the model: name, title, description, input schema (no `$schema`), annotations; the output schema only when asked. */
export function modelFacingDefinition(
  tool: CompactToolInput,
  options: { outputSchema?: boolean } = {},
): Record<string, unknown> {
  const { $schema: _dialect, ...input } = (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>;
  const fields = tool.mcpFields ?? {};
  return {
    name: tool.name,
    ...(typeof fields['title'] === 'string' && { title: fields['title'] }),
    description: tool.description ?? '',
    inputSchema: input,
    ...(fields['annotations'] !== undefined && { annotations: fields['annotations'] }),
    ...(options.outputSchema === true &&
      fields['outputSchema'] !== undefined && { outputSchema: fields['outputSchema'] }),
  };
}

/** One argument's type as code mode spells it (tool-signature.ts), objects left as `object` to keep one line. */
function argumentType(schema: unknown): string {
  return schemaType(schema, -1);
}

/** Argument names are third-party text too: anything but a plain identifier is quoted. */
function safeArgName(name: string): string {
  return /^[A-Za-z_$][\w$-]{0,63}$/.test(name) ? name : JSON.stringify(neutralizeUntrusted(name.slice(0, 64)));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
