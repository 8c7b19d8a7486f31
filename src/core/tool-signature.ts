/**
 * G11 — a tool as a TypeScript-style signature, generated from its input schema, so a model writes
 * a correct `call(name, args)` without loading the full schema: `name(args: { path: string; tail?:
 * number })`. Nested objects are spelled out to a depth, then `object`; what JSON Schema says that
 * TypeScript cannot (formats, ranges) is left out.
 */
import { scalarType } from './argument-type.js';
import type { JsonSchema, ToolSpec } from './tool.js';

export interface SignatureOptions {
  /** How deep nested objects are spelled out before they become `object` (default 2). */
  readonly depth?: number;
}

const DEFAULT_DEPTH = 2;
/** An enum longer than this is its base type: a 40-value union costs more than it helps. */
const MAX_ENUM_VALUES = 8;

/** `name(args: { … })`, the call a script writes. */
export function toolSignature(tool: Pick<ToolSpec, 'name' | 'inputSchema'>, options: SignatureOptions = {}): string {
  return `${tool.name}(args: ${schemaType(tool.inputSchema, options.depth ?? DEFAULT_DEPTH)})`;
}

/** The TypeScript type a JSON Schema describes, to `depth` levels of object nesting. */
export function schemaType(schema: unknown, depth: number = DEFAULT_DEPTH): string {
  if (typeof schema !== 'object' || schema === null) return schema === false ? 'never' : 'unknown';
  const s = schema as JsonSchema;
  if ('const' in s) return JSON.stringify(s['const']) ?? 'unknown';
  const enumValues = s['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0 && enumValues.length <= MAX_ENUM_VALUES) {
    return enumValues.map((v) => JSON.stringify(v)).join(' | ');
  }
  const variants = (s['anyOf'] ?? s['oneOf']) as unknown;
  if (Array.isArray(variants) && variants.length > 0) return union(variants.map((v) => schemaType(v, depth)));
  const type = s['type'];
  if (Array.isArray(type)) return union(type.map((t) => schemaType({ ...s, type: t }, depth)));
  const scalar = scalarType(type);
  if (scalar !== undefined) return scalar;
  if (type === 'array') return arrayType(s['items'], depth);
  if (type === 'object' || s['properties'] !== undefined) return objectType(s, depth);
  return 'unknown';
}

function arrayType(items: unknown, depth: number): string {
  const item = schemaType(items, depth);
  return /[|&]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
}

function objectType(schema: JsonSchema, depth: number): string {
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null || Object.keys(properties).length === 0) {
    const additional = schema['additionalProperties'];
    if (typeof additional === 'object' && additional !== null)
      return `Record<string, ${schemaType(additional, depth - 1)}>`;
    return depth < 0 ? 'object' : '{}';
  }
  if (depth < 0) return 'object';
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const fields = Object.entries(properties as Record<string, unknown>).map(
    ([key, value]) => `${propertyKey(key)}${required.has(key) ? '' : '?'}: ${schemaType(value, depth - 1)}`,
  );
  return `{ ${fields.join('; ')} }`;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

function union(types: string[]): string {
  return [...new Set(types)].join(' | ');
}
