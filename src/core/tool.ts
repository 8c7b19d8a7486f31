/**
 * A1 — the tool spec. Plain data: everything the core decides is decided from these fields.
 */
import { z } from 'zod';
import { InvalidToolError } from './errors.js';

/** A JSON Schema for a tool's input. Always an object schema once normalized. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, unknown>;
  required?: string[];
  description?: string;
  [key: string]: unknown;
}

/** Where a tool comes from: the host program itself, or an MCP server. */
export type ToolOrigin = { kind: 'local' } | { kind: 'mcp'; server: string };

/**
 * What an MCP server says about itself at initialize: its title and its `instructions`. Third-party
 * text: the search indexes it as evidence for the server's tools, nothing more.
 */
export interface ServerInfo {
  readonly title?: string;
  readonly description?: string;
}

/** The handler that runs a tool. Optional: a catalog can hold tools another process runs. */
export type ToolHandler = (args: Record<string, unknown>) => unknown | Promise<unknown>;

/** A tool as the core sees it. `name` is the model-facing name (MCP tools: `mcp__server__tool`). */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly origin: ToolOrigin;
  /** The tool's own name on its MCP server (MCP tools only). */
  readonly originalName?: string;
  /** A curated capability phrase; weighted above the description by the rankers. */
  readonly searchHint?: string;
  /** Never deferred, whatever else holds (A2's first rule). */
  readonly alwaysLoad?: boolean;
  /** Opt-in deferral for local tools (A2's last rule). */
  readonly defer?: boolean;
  /** A local tool the model needs on turn one (A2's "critical" rule). */
  readonly critical?: boolean;
  /** MCP `_meta`, kept as is. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * The other fields of an MCP tool (title, annotations, outputSchema, icons, execution, …), kept
   * whole so a gateway re-lists the tool as its server did (G4). The core does not read them.
   */
  readonly mcpFields?: Readonly<Record<string, unknown>>;
  /**
   * The `$schema` an MCP server's input schema declared. `inputSchema` drops it (providers reject
   * it); a gateway puts it back when it re-lists the tool (G4), so 2020-12 schemas stay 2020-12.
   */
  readonly inputSchemaDialect?: string;
  /** Opaque key of the tool in an outside catalog (benchmark ids, …). */
  readonly id?: string;
  readonly handler?: ToolHandler;
}

/** What a user passes to `defineTool`: the input schema may be a Zod schema. */
export interface ToolInput {
  name: string;
  description?: string;
  inputSchema?: JsonSchema | z.ZodType;
  origin?: ToolOrigin;
  originalName?: string;
  searchHint?: string;
  alwaysLoad?: boolean;
  defer?: boolean;
  critical?: boolean;
  meta?: Record<string, unknown>;
  mcpFields?: Record<string, unknown>;
  inputSchemaDialect?: string;
  id?: string;
  handler?: ToolHandler;
}

/** The MCP `_meta` key by which a server asks that a tool always be loaded. */
export const ALWAYS_LOAD_META_KEY = 'anthropic/alwaysLoad';

export function isMcpTool(tool: ToolSpec): tool is ToolSpec & { origin: { kind: 'mcp'; server: string } } {
  return tool.origin.kind === 'mcp';
}

export function serverOf(tool: ToolSpec): string | undefined {
  return tool.origin.kind === 'mcp' ? tool.origin.server : undefined;
}

/** Human-readable origin for error messages: `local`, `mcp server "github"`. */
export function describeOrigin(origin: ToolOrigin): string {
  return origin.kind === 'local' ? 'local tools' : `MCP server "${origin.server}"`;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * Normalize an input schema to a provider-ready JSON object schema: Zod converted (input side,
 * so fields with defaults stay optional), `$schema` stripped (dialects differ between zod 4 and
 * MCP servers, and providers reject it), a missing schema becomes an empty object schema.
 */
export function normalizeInputSchema(toolName: string, schema: JsonSchema | z.ZodType | undefined): JsonSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  let json: unknown = schema;
  if (isZodSchema(schema)) {
    try {
      json = z.toJSONSchema(schema, { io: 'input' });
    } catch (error) {
      throw new InvalidToolError(toolName, `its Zod schema cannot be converted to JSON Schema (${String(error)})`);
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InvalidToolError(toolName, 'inputSchema must be a JSON object schema');
  }
  // Already in shape (an object schema without `$schema`): kept as given, not copied — a gateway
  // holding 50,000 tools held 50,000 copies equal to their inputs.
  const given = json as JsonSchema;
  if (given.type === 'object' && !('$schema' in given) && isPlainProperties(given.properties)) return given;
  const { $schema: _dialect, ...rest } = given;
  if (rest.type !== undefined && rest.type !== 'object') {
    throw new InvalidToolError(toolName, `inputSchema.type must be "object", got ${JSON.stringify(rest.type)}`);
  }
  if (
    rest.properties !== undefined &&
    (typeof rest.properties !== 'object' || rest.properties === null || Array.isArray(rest.properties))
  ) {
    throw new InvalidToolError(toolName, 'inputSchema.properties must be an object');
  }
  return { ...rest, type: 'object' };
}

/** A1: build a validated tool spec. Throws InvalidToolError with the reason. */
function isPlainProperties(properties: unknown): boolean {
  return (
    properties === undefined || (typeof properties === 'object' && properties !== null && !Array.isArray(properties))
  );
}

export function defineTool(input: ToolInput): ToolSpec {
  if (typeof input.name !== 'string' || input.name.length === 0) {
    throw new InvalidToolError(String(input.name), 'a tool needs a non-empty string name');
  }
  const origin: ToolOrigin = input.origin ?? { kind: 'local' };
  const alwaysLoad = input.alwaysLoad ?? (input.meta?.[ALWAYS_LOAD_META_KEY] === true ? true : undefined);
  const spec: ToolSpec = {
    name: input.name,
    description: typeof input.description === 'string' ? input.description : '',
    inputSchema: normalizeInputSchema(input.name, input.inputSchema),
    origin,
    ...(input.originalName !== undefined && { originalName: input.originalName }),
    ...(input.searchHint !== undefined && { searchHint: input.searchHint }),
    ...(alwaysLoad !== undefined && { alwaysLoad }),
    ...(input.defer !== undefined && { defer: input.defer }),
    ...(input.critical !== undefined && { critical: input.critical }),
    ...(input.meta !== undefined && { meta: input.meta }),
    ...(input.mcpFields !== undefined && { mcpFields: input.mcpFields }),
    ...(input.inputSchemaDialect !== undefined && { inputSchemaDialect: input.inputSchemaDialect }),
    ...(input.id !== undefined && { id: input.id }),
    ...(input.handler !== undefined && { handler: input.handler }),
  };
  return spec;
}

/** What a tool definition needs to be measured: a ToolSpec, or an MCP `Tool` as listed. */
export type ToolDefinitionLike = Pick<ToolSpec, 'name' | 'inputSchema'> & { readonly description?: string };

/** The `{name, description, input_schema}` triple whose size the threshold and `inspect` measure. */
export function toolDefinitionJson(tool: ToolDefinitionLike, wireName: string = tool.name): string {
  return JSON.stringify({ name: wireName, description: tool.description ?? '', input_schema: tool.inputSchema });
}
