/**
 * G10 — every piece of text of a tool definition a model reads, with where it sits: the name,
 * title and description, every string and property name in the input and output schemas
 * (descriptions, titles, enums, defaults, examples…), and the annotations' strings.
 */
import type { ToolDefinition } from './definition.js';

export interface FieldText {
  /** `description`, `inputSchema.properties.path.description`, `annotations.title`, … */
  readonly field: string;
  readonly text: string;
}

/** Deeper than this, a schema's text is not walked (a hostile schema cannot make the scan unbounded). */
const MAX_DEPTH = 32;

export function fieldTexts(definition: ToolDefinition): FieldText[] {
  const texts: FieldText[] = [{ field: 'name', text: definition.name }];
  if (definition.title !== undefined) texts.push({ field: 'title', text: definition.title });
  if (definition.description !== undefined) texts.push({ field: 'description', text: definition.description });
  walk(definition.inputSchema, 'inputSchema', 0, texts);
  walk(definition.outputSchema, 'outputSchema', 0, texts);
  walk(definition.annotations, 'annotations', 0, texts);
  return texts;
}

function walk(value: unknown, path: string, depth: number, out: FieldText[]): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    out.push({ field: path, text: value });
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) walk(item, `${path}[${i}]`, depth + 1, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    // A property name is read by the model too ("ignore_previous_instructions": {...}).
    if (path.endsWith('.properties')) out.push({ field: `${path} (property name)`, text: key });
    walk(item, `${path}.${key}`, depth + 1, out);
  }
}
