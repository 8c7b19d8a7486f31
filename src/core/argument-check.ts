/**
 * C15 — a call's arguments checked against the tool's real input schema before anything goes
 * upstream, so a wrong guess costs one step: the model reads, in one line, the fields that are
 * missing or wrong and the signature the tool expects, instead of a server's own error text (or a
 * call that did something with half its arguments).
 *
 * The schema is third-party input (G5), so the check is bounded and never fails the call:
 * - The check is about shape (types, required fields, enums, nesting, unknown fields). What the
 *   server checks anyway and a hostile schema could turn against us is left to the server:
 *   `pattern` (a backtracking regular expression), `format`, `uniqueItems` (quadratic).
 * - A schema of more than `argumentSchemaParts` parts (G5's limit, default 5,000) or deeper than
 *   `MAX_SCHEMA_DEPTH` is not compiled: Ajv's compile time grows with the schema.
 * - A schema that does not compile (an unknown dialect, a broken `$ref`, a runtime without code
 *   generation) is skipped, and the result says so: the call goes through unchecked.
 * - Compiled validators are kept per schema hash (`VALIDATOR_CACHE` of them, least recently used
 *   dropped), so a catalog's tools compile once each.
 *
 * Ajv (the JSON Schema validator the MCP SDK ships with) for draft-07 and 2019-09/2020-12 schemas.
 */
import { createHash } from 'node:crypto';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import AjvModule, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { argumentType } from './argument-type.js';
import { compactSignature, type CompactToolInput } from './compact-tool.js';
import { DEFAULT_LIMITS } from './limits.js';
import { neutralizeUntrusted } from './untrusted.js';

/** Schema parts (objects and lists) compiled at most by default (limit `argumentSchemaParts`). */
export const MAX_SCHEMA_NODES = DEFAULT_LIMITS.argumentSchemaParts;
/** Schema nesting compiled at most. */
export const MAX_SCHEMA_DEPTH = 40;
/** Compiled validators kept (least recently used dropped). */
export const VALIDATOR_CACHE = 500;
/** Problems named in one answer before "…". */
const MAX_PROBLEMS = 5;
/** Characters of a problem's text before it is cut (third-party schema words appear in it). */
const PROBLEM_CHARS = 160;

/** Keywords dropped before compiling: the server checks them itself, and they cost us (see above). */
const LEFT_TO_THE_SERVER = new Set(['pattern', 'format', 'uniqueItems', '$schema', '$id', 'id', 'examples', 'default']);

export type ArgumentCheck =
  | { readonly ok: true; readonly skipped?: string }
  | { readonly ok: false; readonly problems: readonly string[]; readonly message: string };

type Dialect = 'draft-07' | '2019-09' | '2020-12';

interface Compiled {
  readonly validate?: ValidateFunction;
  /** Why the schema is not checked. */
  readonly skipped?: string;
}

const OPTIONS: Options = {
  strict: false,
  allErrors: true,
  validateSchema: false,
  validateFormats: false,
  verbose: true,
  allowUnionTypes: true,
  logger: false,
  addUsedSchema: false,
};

// Ajv is CommonJS: its default import is the module object, whose `default` is the class.
const Ajv = AjvModule.default;
const Ajv2019 = Ajv2019Module.default;
const Ajv2020 = Ajv2020Module.default;

let engines: Record<Dialect, InstanceType<typeof Ajv>> | undefined;
const cache = new Map<string, Compiled>();

/**
 * Check `args` against `tool`'s input schema. `ok: false` carries the one-line answer for the model
 * (`argumentErrorText`); `ok: true, skipped` says why nothing was checked.
 */
export function checkArguments(
  tool: CompactToolInput,
  args: unknown,
  options: { readonly maxSchemaParts?: number } = {},
): ArgumentCheck {
  const compiled = compiledFor(tool.inputSchema, options.maxSchemaParts ?? MAX_SCHEMA_NODES);
  if (!compiled.validate) return { ok: true, skipped: compiled.skipped ?? 'no schema' };
  let valid: boolean;
  try {
    valid = compiled.validate(args) === true;
  } catch (error) {
    return { ok: true, skipped: `the check failed (${String(error).slice(0, 120)})` };
  }
  if (valid) return { ok: true };
  const problems = describeErrors(compiled.validate.errors ?? [], tool.inputSchema);
  return { ok: false, problems, message: argumentErrorText(tool, problems) };
}

/** C15: the one line a model reads when its arguments do not fit: what is wrong, then the signature. */
export function argumentErrorText(tool: CompactToolInput, problems: readonly string[]): string {
  const listed = problems.length > 0 ? problems.join('; ') : 'they do not match the input schema';
  return `Arguments for ${tool.name} do not match its input schema, so nothing was sent: ${listed}. Expected: ${compactSignature(tool)}.`;
}

/** C15: said beside the result of a call whose arguments could not be checked. */
export function uncheckedNote(tool: CompactToolInput, reason: string): string {
  return `(toolsearch: the arguments of ${tool.name} were not checked before the call: ${reason}.)`;
}

function compiledFor(schema: unknown, maxParts: number): Compiled {
  if (schema === undefined) return { skipped: 'the tool has no input schema' };
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return { skipped: 'its input schema is not a JSON Schema object' };
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return { skipped: 'its input schema cannot be read' };
  }
  const key = `${maxParts}:${createHash('sha256').update(text).digest('base64url')}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const compiled = compile(schema as Record<string, unknown>, maxParts);
  cache.set(key, compiled);
  if (cache.size > VALIDATOR_CACHE) cache.delete(cache.keys().next().value!);
  return compiled;
}

function compile(schema: Record<string, unknown>, maxParts: number): Compiled {
  const prepared = prepare(schema, maxParts);
  if (typeof prepared === 'string') return { skipped: prepared };
  const dialect = dialectOf(schema['$schema'], prepared);
  if (!dialect)
    return { skipped: `its schema dialect ${JSON.stringify(String(schema['$schema']).slice(0, 80))} is not supported` };
  try {
    engines ??= { 'draft-07': new Ajv(OPTIONS), '2019-09': new Ajv2019(OPTIONS), '2020-12': new Ajv2020(OPTIONS) };
    const engine = engines[dialect];
    const validate = engine.compile(prepared);
    // Ajv keeps what it compiled; our own cache is the bounded one.
    engine.removeSchema(prepared);
    return { validate };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { skipped: `its input schema does not compile (${neutralizeUntrusted(reason.slice(0, 120))})` };
  }
}

/**
 * draft-04/06/07 read as draft-07. Without `$schema` (the catalog strips it: providers reject it) a
 * schema that uses draft-07's own forms (`definitions`, `dependencies`, `items` as a list) is read as
 * draft-07, else as 2020-12 (MCP's default dialect; for plain schemas the two agree).
 */
function dialectOf(declared: unknown, prepared: Record<string, unknown>): Dialect | undefined {
  if (declared === undefined) return usesDraft07Forms(prepared) ? 'draft-07' : '2020-12';
  if (typeof declared !== 'string') return undefined;
  if (/draft-0[4-7]\/schema/.test(declared)) return 'draft-07';
  if (declared.includes('2019-09')) return '2019-09';
  if (declared.includes('2020-12')) return '2020-12';
  return undefined;
}

/**
 * A bounded copy of the schema without the keywords left to the server. `patternProperties` goes
 * too, and with it `additionalProperties` of the same object (a property the patterns would have
 * admitted must not be called unknown). Returns why it is not checked when it is too big or deep.
 */
function prepare(schema: Record<string, unknown>, maxParts: number): Record<string, unknown> | string {
  let nodes = 0;
  const count = (depth: number) => {
    if (++nodes > maxParts)
      throw new TooBig(`its input schema has more than ${maxParts} parts (limit argumentSchemaParts)`);
    if (depth > MAX_SCHEMA_DEPTH) throw new TooBig(`its input schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  };
  /** A schema node: its keys are keywords. */
  const node = (value: unknown, depth: number): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    count(depth);
    if (Array.isArray(value)) return value.map((v) => node(v, depth + 1));
    const record = value as Record<string, unknown>;
    const patterned = 'patternProperties' in record;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(record)) {
      if (LEFT_TO_THE_SERVER.has(key) || key === 'patternProperties') continue;
      if (patterned && key === 'additionalProperties') continue;
      out[key] = NAMED_SCHEMAS.has(key) ? named(v, depth + 1) : node(v, depth + 1);
    }
    return out;
  };
  /** A map from names (fields, definitions) to schemas: its keys are names, kept whatever they are. */
  const named = (value: unknown, depth: number): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return node(value, depth);
    count(depth);
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) out[key] = node(v, depth + 1);
    return out;
  };
  try {
    return node(schema, 0) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TooBig) return error.message;
    throw error;
  }
}

const DRAFT_07_FORMS = new Set(['definitions', 'dependencies', 'additionalItems']);
const DRAFT_2020_FORMS = new Set([
  '$defs',
  'prefixItems',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$dynamicRef',
]);

/** Does the (already bounded) schema use draft-07's own forms and none of 2019-09/2020-12's? */
function usesDraft07Forms(schema: unknown): boolean {
  let old = false;
  let current = false;
  const walk = (value: unknown, keywords: boolean): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) walk(v, true);
      return;
    }
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (keywords && (DRAFT_07_FORMS.has(key) || (key === 'items' && Array.isArray(v)))) old = true;
      if (keywords && DRAFT_2020_FORMS.has(key)) current = true;
      walk(v, !keywords || !NAMED_SCHEMAS.has(key));
    }
  };
  walk(schema, true);
  return old && !current;
}

/** Keywords whose value maps names to schemas. */
const NAMED_SCHEMAS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

class TooBig extends Error {}

/**
 * Ajv's errors as a model reads them: `a is missing`, `b must be number (got string)`, `mode must
 * be one of "x", "y"`, `zz is not a field of this tool`; a union's failed branches as one problem.
 */
function describeErrors(errors: readonly ErrorObject[], root: unknown): string[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  const out: string[] = [];
  for (const error of errors) {
    if (unions.some((u) => error.schemaPath.startsWith(u))) continue;
    const text = describeError(error, root);
    if (text !== undefined && !out.includes(text)) out.push(text);
  }
  const shown = out
    .slice(0, MAX_PROBLEMS)
    .map((p) => (p.length <= PROBLEM_CHARS ? p : `${p.slice(0, PROBLEM_CHARS - 1)}…`));
  if (out.length > MAX_PROBLEMS) shown.push('…');
  return shown.map(neutralizeUntrusted);
}

function describeError(error: ErrorObject, root: unknown): string | undefined {
  const at = fieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${joinPath(at, String(params['missingProperty']))} is missing`;
    case 'additionalProperties':
      return `${joinPath(at, String(params['additionalProperty']))} is not a field of ${at || 'this tool'}`;
    case 'type':
      return `${at || 'the arguments'} must be ${String(params['type']).replace(/,/g, ' | ')} (got ${kindOf(error.data)})`;
    case 'enum':
      return `${at || 'the value'} must be one of ${listValues(params['allowedValues'])}`;
    case 'const':
      return `${at || 'the value'} must be ${JSON.stringify(params['allowedValue'])}`;
    case 'anyOf':
    case 'oneOf':
      return `${at || 'the arguments'} must be ${argumentType(error.parentSchema, root)} (got ${kindOf(error.data)})`;
    default:
      return `${at || 'the arguments'} ${error.message ?? 'is not valid'}`;
  }
}

/** `/entities/0/name` → `entities[0].name`. */
function fieldPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : joinPath(path, part)), '');
}

function joinPath(path: string, field: string): string {
  const name = /^[A-Za-z_$][\w$-]*$/.test(field) ? field : JSON.stringify(field);
  return path === '' ? name : `${path}.${name}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return 'the allowed values';
  const shown = values.slice(0, 6).map((v) => JSON.stringify(v) ?? String(v));
  return `${shown.join(', ')}${values.length > 6 ? ', …' : ''}`;
}
