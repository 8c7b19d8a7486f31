/**
 * G10 — every piece of text of a tool definition a model reads or a client acts on, with where it
 * sits: the name, title and description, every string and property name in the input and output
 * schemas (descriptions, titles, enums, defaults, examples…), and the strings of the annotations,
 * `_meta`, `icons` and `execution`. At most `limit` texts (the scanner's budget).
 */
import type { ToolDefinition } from './definition.js';

export interface FieldText {
  /** `description`, `inputSchema.properties.path.description`, `annotations.title`, … */
  readonly field: string;
  readonly text: string;
}

/** Deeper than this, a schema's text is not walked (a hostile schema cannot make the scan unbounded). */
const MAX_DEPTH = 32;

export function fieldTexts(definition: ToolDefinition, limit = Number.POSITIVE_INFINITY): FieldText[] {
  const texts: FieldText[] = [{ field: 'name', text: definition.name }];
  if (definition.title !== undefined) texts.push({ field: 'title', text: definition.title });
  if (definition.description !== undefined) texts.push({ field: 'description', text: definition.description });
  for (const field of ['inputSchema', 'outputSchema', 'annotations', '_meta', 'icons', 'execution'] as const)
    walk(definition[field], field, 0, texts, limit);
  return texts;
}

function walk(value: unknown, path: string, depth: number, out: FieldText[], limit: number): void {
  if (depth > MAX_DEPTH || out.length >= limit) return;
  if (typeof value === 'string') {
    out.push({ field: path, text: value });
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`, depth + 1, out, limit);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    // A property name is read by the model too ("ignore_previous_instructions": {...}).
    if (path.endsWith('.properties')) out.push({ field: `${path} (property name)`, text: key });
    walk(item, `${path}.${key}`, depth + 1, out, limit);
  }
}
