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
import { argumentType, coarseArgumentType, fieldName, requiredFirst } from './argument-type.js';

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
/** Characters of a signature past which arguments are shown coarsely, then left out with "…". */
export const SIGNATURE_CHARS = 400;

/** `name(a: string, b?: number[]) — First sentence of the description.` (`(deprecated)` when it says so) */
export function compactToolLine(tool: CompactToolInput): string {
  const description = tool.description ?? '';
  let purpose = toolPurpose(description);
  // The first sentence rarely says it ("Read a file. DEPRECATED: use read_text_file."): the line does.
  if (isDeprecated(description) && !/deprecated/i.test(purpose)) purpose = `${purpose} (deprecated)`.trimStart();
  return purpose ? `${compactSignature(tool)} — ${purpose}` : compactSignature(tool);
}

/**
 * Said of the tool itself: the word in capitals (`DEPRECATED: use …`), a description that starts
 * with it, or "this tool is deprecated" — not a mention of some deprecated option.
 */
const DEPRECATED = [
  /\bDEPRECATED\b/,
  /^\W*deprecated\b/i,
  /\bthis (?:tool|function|endpoint) is (?:now )?deprecated\b/i,
];
/** Characters of a description read for the word "deprecated". */
const DEPRECATION_SCAN_CHARS = 2_000;

/**
 * C15: a tool whose description says it is deprecated (`DEPRECATED: use read_text_file instead`):
 * listed after its replacements and marked, so a model browsing a server does not pick it first.
 */
export function isDeprecated(description: string | undefined): boolean {
  if (description === undefined) return false;
  const text = description.slice(0, DEPRECATION_SCAN_CHARS);
  return DEPRECATED.some((pattern) => pattern.test(text));
}

/**
 * `name(a: string, b?: "x" | "y", c?: {d, e: number[]})`: required arguments first, as the schema
 * orders them, each typed with one level of nested fields (argument-type.ts). Bounded: at most
 * `SIGNATURE_ARGS` arguments and about `SIGNATURE_CHARS` characters; a long argument gives way to
 * its coarse form (`{…}`), and what does not fit ends in `…`. A schema that is not an object
 * schema still gets a signature (`name()`, or `name(…)` when its arguments cannot be read).
 */
export function compactSignature(tool: CompactToolInput): string {
  const schema = tool.inputSchema as unknown;
  if (schema === undefined) return `${tool.name}()`;
  if (!isRecord(schema)) return `${tool.name}(…)`;
  if (schema['properties'] !== undefined && !isRecord(schema['properties'])) return `${tool.name}(…)`;
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = new Set<string>(
    Array.isArray(schema['required']) ? schema['required'].filter((r): r is string => typeof r === 'string') : [],
  );
  const names = Object.keys(properties);
  const ordered = requiredFirst(names, required, SIGNATURE_ARGS + 1);
  const shown: string[] = [];
  let chars = tool.name.length + 2;
  for (const name of ordered.slice(0, SIGNATURE_ARGS)) {
    const head = `${fieldName(name)}${required.has(name) ? '' : '?'}: `;
    let arg = head + argumentType(properties[name], schema);
    if (chars + arg.length > SIGNATURE_CHARS) arg = head + coarseArgumentType(properties[name], schema);
    if (chars + arg.length > SIGNATURE_CHARS && shown.length > 0) break;
    shown.push(arg);
    chars += arg.length + 2;
  }
  if (shown.length < names.length) shown.push('…');
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
