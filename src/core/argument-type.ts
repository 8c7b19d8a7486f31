/**
 * E5/C15 — an argument's type as a one-line tool signature shows it: scalars, arrays, enums and
 * unions as TypeScript spells them, and one level of nested fields, so a model writes a nested
 * argument right without loading the full schema:
 *
 *   entities: {name, entityType, observations: string[]}[]
 *
 * Inside braces a bare field name is a string and `?` marks an optional field; an object nested
 * deeper shows as `{…}` (its fields are one `select:` away) and a free-form one as
 * `Record<string, …>`: never a bare `object`. Local `$ref`s (`#/$defs/…`, `#/definitions/…`) are
 * followed, `allOf` parts merged, `anyOf`/`oneOf` shown as a union.
 *
 * Schemas are third-party input, so everything is bounded: fields per object, union members, enum
 * values, `$ref` hops, nesting depth and the characters of one argument's type. What is cut says
 * `…`, and names and literal values are neutralized like any text a server writes (G5).
 */
import type { JsonSchema } from './tool.js';
import { neutralizeUntrusted } from './untrusted.js';

/** Fields shown per nested object before `…`. */
export const NESTED_FIELDS = 6;
/** Members of an `anyOf` / `oneOf` / type list shown before `| …`. */
export const UNION_MEMBERS = 4;
/** An enum longer than this is its base type: a 40-value union costs more than it helps. */
export const ENUM_VALUES = 8;
/** Characters of one argument's type; past it the nested fields give way to `{…}`, then the text is cut. */
export const ARGUMENT_TYPE_CHARS = 160;
/** Characters of a literal (an enum value, a `const`) before it is cut. */
const LITERAL_CHARS = 32;
/** Characters of a field name before it is cut. */
const FIELD_NAME_CHARS = 48;
/** Schema nesting followed at most (arrays of unions of arrays …): a hostile schema cannot recurse deeper. */
const MAX_NESTING = 8;
/** `$ref` hops followed at most along one path (a cycle ends there too). */
const MAX_REF_HOPS = 4;
/** `allOf` parts merged at most. */
const MAX_ALL_OF = 4;
/** Segments of a `$ref` pointer followed at most. */
const MAX_POINTER_SEGMENTS = 8;

interface Walk {
  /** The input schema, for `$ref` lookups. */
  readonly root: unknown;
  readonly nesting: number;
  readonly hops: number;
}

/** One argument's type, with one level of nested fields, bounded to `ARGUMENT_TYPE_CHARS`. */
export function argumentType(schema: unknown, root: unknown = schema): string {
  const start: Walk = { root, nesting: 0, hops: 0 };
  const detailed = render(schema, start, 1);
  if (detailed.length <= ARGUMENT_TYPE_CHARS) return detailed;
  const coarse = render(schema, start, 0);
  return coarse.length <= ARGUMENT_TYPE_CHARS ? coarse : `${coarse.slice(0, ARGUMENT_TYPE_CHARS - 1)}…`;
}

/** The coarse form only (every object `{…}`): for a signature that is already long. */
export function coarseArgumentType(schema: unknown, root: unknown = schema): string {
  const coarse = render(schema, { root, nesting: 0, hops: 0 }, 0);
  return coarse.length <= ARGUMENT_TYPE_CHARS ? coarse : `${coarse.slice(0, ARGUMENT_TYPE_CHARS - 1)}…`;
}

/** A field name as written, quoted when it is not a plain identifier. */
export function fieldName(name: string): string {
  return /^[A-Za-z_$][\w$-]{0,63}$/.test(name)
    ? name
    : JSON.stringify(neutralizeUntrusted(name.slice(0, FIELD_NAME_CHARS)));
}

/**
 * `levels`: how many levels of objects still show their fields. An argument starts at 1 (its own
 * object's fields show, theirs are `{…}`), or 0 in the coarse form (every object `{…}`).
 */
function render(schema: unknown, walk: Walk, levels: number): string {
  if (walk.nesting > MAX_NESTING) return '…';
  if (schema === false) return 'never';
  if (!isRecord(schema)) return 'unknown';
  const resolved = followRef(schema, walk);
  if (resolved === 'cycle') return '{…}';
  if (resolved === undefined) return 'unknown';
  const [s, here] = resolved;
  const deeper: Walk = { ...here, nesting: here.nesting + 1 };
  if ('const' in s) return literal(s['const']);
  const enumValues = s['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) {
    if (enumValues.length <= ENUM_VALUES) return union(enumValues.map(literal), false);
    return baseType(s, enumValues);
  }
  const variants = firstArray(s['anyOf'], s['oneOf']);
  if (variants) {
    const shown = variants.slice(0, UNION_MEMBERS).map((v) => render(v, deeper, levels));
    return withNull(union(shown, variants.length > UNION_MEMBERS), s);
  }
  const parts = s['allOf'];
  if (Array.isArray(parts) && parts.length > 0) return render(mergeAllOf(s, parts, here), deeper, levels);
  const type = s['type'];
  if (Array.isArray(type)) {
    const shown = type.slice(0, UNION_MEMBERS).map((t) => render({ ...s, type: t }, deeper, levels));
    return union(shown, type.length > UNION_MEMBERS);
  }
  return withNull(typeOf(s, type, deeper, levels), s);
}

function typeOf(s: JsonSchema, type: unknown, walk: Walk, levels: number): string {
  const scalar = scalarType(type);
  if (scalar !== undefined) return scalar;
  if (type === 'array') return arrayType(s, walk, levels);
  if (type === 'object') return objectType(s, walk, levels);
  if (isRecord(s['properties']) || isRecord(s['additionalProperties'])) return objectType(s, walk, levels);
  if (s['items'] !== undefined || s['prefixItems'] !== undefined) return arrayType(s, walk, levels);
  return 'unknown';
}

/** A JSON Schema scalar type as TypeScript names it (`integer` is `number`); undefined for the rest. */
export function scalarType(type: unknown): string | undefined {
  switch (type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return type;
    case 'integer':
      return 'number';
    default:
      return undefined;
  }
}

function arrayType(s: JsonSchema, walk: Walk, levels: number): string {
  const tuple = firstArray(s['prefixItems'], Array.isArray(s['items']) ? s['items'] : undefined);
  if (tuple) {
    const shown = tuple.slice(0, UNION_MEMBERS).map((item) => render(item, walk, levels));
    return `[${shown.join(', ')}${tuple.length > UNION_MEMBERS ? ', …' : ''}]`;
  }
  const item = s['items'] === undefined ? 'unknown' : render(s['items'], walk, levels);
  return topLevelUnion(item) ? `(${item})[]` : `${item}[]`;
}

/** `{a, b?: number, c: string[]}` while fields show; `{…}` below that; `Record<string, T>` when free-form. */
function objectType(s: JsonSchema, walk: Walk, levels: number): string {
  const properties = isRecord(s['properties']) ? s['properties'] : {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    const additional = s['additionalProperties'];
    if (additional === false) return '{}';
    if (isRecord(additional) && Object.keys(additional).length > 0)
      return `Record<string, ${render(additional, walk, levels - 1)}>`;
    return 'Record<string, unknown>';
  }
  if (levels <= 0) return '{…}';
  const required = new Set<string>(
    Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : [],
  );
  const ordered = requiredFirst(names, required, NESTED_FIELDS + 1);
  const fields = ordered.slice(0, NESTED_FIELDS).map((name) => {
    const optional = required.has(name) ? '' : '?';
    const type = render(properties[name], walk, levels - 1);
    // Inside braces a bare name is a string: the commonest field costs one word.
    return type === 'string' ? `${fieldName(name)}${optional}` : `${fieldName(name)}${optional}: ${type}`;
  });
  if (names.length > NESTED_FIELDS) fields.push('…');
  return `{${fields.join(', ')}}`;
}

/** Required names first, then the optional ones, each in the schema's order; only the first `limit` are needed. */
export function requiredFirst(names: readonly string[], required: ReadonlySet<string>, limit: number): string[] {
  const out = names.filter((n) => required.has(n)).slice(0, limit);
  for (const name of names) {
    if (out.length >= limit) break;
    if (!required.has(name)) out.push(name);
  }
  return out;
}

/**
 * A local `$ref` (`#/…` into the input schema) is followed, a bounded number of hops; anything
 * else (a remote URL, a missing target) is `undefined`, shown as `unknown`.
 */
function followRef(schema: Record<string, unknown>, walk: Walk): [JsonSchema, Walk] | 'cycle' | undefined {
  let current: Record<string, unknown> = schema;
  let hops = walk.hops;
  while (typeof current['$ref'] === 'string') {
    if (hops >= MAX_REF_HOPS) return 'cycle';
    const target = pointer(walk.root, current['$ref']);
    if (!isRecord(target)) return undefined;
    current = target;
    hops++;
  }
  return [current as JsonSchema, { ...walk, hops }];
}

function pointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  const segments = ref.slice(2).split('/');
  if (segments.length > MAX_POINTER_SEGMENTS) return undefined;
  let node: unknown = root;
  for (const raw of segments) {
    const key = decodeSegment(raw);
    if (key === undefined || (!isRecord(node) && !Array.isArray(node)) || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
}

/** `allOf` parts as one schema: their properties and required names together (bounded parts). */
function mergeAllOf(s: JsonSchema, parts: readonly unknown[], walk: Walk): JsonSchema {
  const properties: Record<string, unknown> = isRecord(s['properties']) ? { ...s['properties'] } : {};
  const required: unknown[] = Array.isArray(s['required']) ? [...s['required']] : [];
  let type = s['type'];
  for (const part of parts.slice(0, MAX_ALL_OF)) {
    const resolved = isRecord(part) ? followRef(part, walk) : undefined;
    if (resolved === undefined || resolved === 'cycle') continue;
    const [p] = resolved;
    if (isRecord(p['properties'])) Object.assign(properties, p['properties']);
    if (Array.isArray(p['required'])) required.push(...p['required']);
    type ??= p['type'];
  }
  const { allOf: _parts, ...rest } = s;
  return { ...rest, ...(type !== undefined && { type }), properties, required: required as string[] };
}

/** An enum too long to list: its values' common JSON type. */
function baseType(s: JsonSchema, values: readonly unknown[]): string {
  if (typeof s['type'] === 'string') return typeOf(s, s['type'], { root: undefined, nesting: 0, hops: 0 }, 0);
  const kinds = new Set(values.map((v) => (v === null ? 'null' : typeof v)));
  return kinds.size === 1 ? [...kinds][0]! : 'unknown';
}

/** OpenAPI's `nullable: true` reads as `| null`. */
function withNull(type: string, s: JsonSchema): string {
  return s['nullable'] === true && !type.endsWith('| null') ? `${type} | null` : type;
}

function literal(value: unknown): string {
  const text = JSON.stringify(value) ?? 'unknown';
  const cut = text.length <= LITERAL_CHARS ? text : `${text.slice(0, LITERAL_CHARS - 1)}…`;
  return neutralizeUntrusted(cut);
}

/** `a | b` outside any braces or brackets: as an element type it needs parentheses. */
function topLevelUnion(type: string): boolean {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || c === '>') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

function union(types: readonly string[], more: boolean): string {
  const unique = [...new Set(types)];
  if (more) unique.push('…');
  return unique.join(' | ');
}

function firstArray(...values: unknown[]): unknown[] | undefined {
  for (const value of values) if (Array.isArray(value) && value.length > 0) return value;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
