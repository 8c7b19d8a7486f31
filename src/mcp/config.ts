/**
 * G1 — the hub's config: Claude Desktop's `{"mcpServers": {...}}` shape (VS Code's `"servers"`
 * key is accepted too), plus an optional `"toolSearch"` section for deferral options.
 *
 * Validation is strict on the keys we read and lenient on keys other clients add (`disabled`,
 * `autoApprove`, …), so an existing Claude Desktop / Cursor file works unchanged. Every error
 * names the file and the key.
 */
import { rawConfigProblem } from './config-guards.js';
import { ConfigFileError, readConfigText } from './config-file.js';
import { z } from 'zod';
import { InvalidLimitError, resolveLimits } from '../core/limits.js';
import { parseModeValue } from '../core/mode.js';
import { McpConfigError } from './errors.js';
import { errorMessage } from '../util/errors.js';
import { EMBEDDING_LIMITS } from '../core/embeddings-config.js';
import { toolRulesSchema } from './tool-rules.js';
import { allowSchema, serverTrustSchema, trustSettingsSchema } from './trust-config.js';
import { expandServerEntry, KeyedVariableError, type Environment, type ExpandedSecret } from './variables.js';
import { eraFields, HTTP_TYPES, remoteFields } from './remote/config.js';
import { isRecord } from '../util/records.js';

function isValidMode(value: string): boolean {
  try {
    parseModeValue(value);
    return true;
  } catch {
    return false;
  }
}

const stringRecord = z.record(z.string(), z.string());

/**
 * Per-server deferral options. `alwaysLoad: true` loads every tool of the server; a list loads
 * only the named tools (server-side names). `defer: false` is the per-server "never defer"
 * override; `defer: true` defers even tools whose `_meta` asks to be always loaded.
 */
const deferralFields = {
  alwaysLoad: z.union([z.boolean(), z.array(z.string())]).optional(),
  defer: z.boolean().optional(),
  /** Connect (spawn + initialize + first tools/list) timeout for this server, in ms. */
  timeoutMs: z.number().int().positive().optional(),
  /** G13: how long a package runner (npx, uvx, …) may take to install this server on its first start, in ms. */
  installTimeoutMs: z.number().int().positive().optional(),
  /** Per-call timeout for this server's tools, in ms. */
  callTimeoutMs: z.number().int().positive().optional(),
  disabled: z.boolean().optional(),
  /** G7: which tools the server may show (allow/deny globs) and what clients see of them (override). */
  tools: toolRulesSchema.optional(),
  /** G5: the roots a multi-user gateway answers this server's `roots/list` with (paths or file:// URIs). */
  roots: z.array(z.string().min(1)).optional(),
  /**
   * G5: `"session"` gives each HTTP gateway session its own upstream connection for calls and
   * server → client traffic (session-connections.ts); `"shared"` (the default) one for all.
   */
  isolation: z
    .enum(['shared', 'session'], { error: 'expected "shared" (the default) or "session" (one connection per session)' })
    .optional(),
  /** G10: `"off"` leaves this server out of pinning and the scanner's holds (trust-config.ts). */
  trust: serverTrustSchema.optional(),
};

const stdioServerSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringRecord.optional(),
  cwd: z.string().optional(),
  ...deferralFields,
  ...eraFields,
});

const httpServerSchema = z.looseObject({
  type: z.enum(HTTP_TYPES).optional(),
  url: z.url(),
  headers: stringRecord.optional(),
  ...deferralFields,
  ...eraFields,
  ...remoteFields,
});

/** Either kind; the entry's own keys pick which schema checks it, so errors name the exact key. */
const serverSchema = z.looseObject({}).superRefine((value, ctx) => {
  const schema = 'url' in value && !('command' in value) ? httpServerSchema : stdioServerSchema;
  if (!('url' in value) && !('command' in value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'expected {"command": string, "args"?: string[], "env"?: {...}, "cwd"?: string} or {"url": string, "headers"?: {...}}',
    });
    return;
  }
  const result = schema.safeParse(value);
  for (const issue of result.success ? [] : result.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }
});

/** C10: `toolSearch.embeddings` — any OpenAI-compatible `/v1/embeddings` endpoint. */
const embeddingsSchema = z.strictObject({
  url: z.url(),
  model: z.string().min(1),
  /** Name of the variable holding the API key; the key itself never goes in the file. */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name (the key itself stays out of the file)')
    .optional(),
  dimensions: z.number().int().positive().max(EMBEDDING_LIMITS.dimensions).optional(),
  batchSize: z.number().int().positive().max(EMBEDDING_LIMITS.batchSize).optional(),
  timeoutMs: z.number().int().positive().max(EMBEDDING_LIMITS.timeoutMs).optional(),
  queryTimeoutMs: z.number().int().positive().max(EMBEDDING_LIMITS.timeoutMs).optional(),
  retries: z.number().int().min(0).max(EMBEDDING_LIMITS.retries).optional(),
  maxResponseBytes: z.number().int().positive().max(EMBEDDING_LIMITS.maxResponseBytes).optional(),
  cacheDir: z.union([z.string().min(1), z.literal(false)]).optional(),
});

/**
 * E5: what a whole session carries. `toolList`: "fixed" (default; the list never changes, calls go
 * through call_tool) or "growing" (searches append what they are sure of). `workingSet`: tools a
 * growing list holds before the least recently used are unloaded (0: never). `sessionCost`: what
 * `auto` assumes about a session when it weighs deferral against loading everything.
 */
const sessionEconomyFields = {
  toolList: z.enum(['fixed', 'growing'], { error: 'expected "fixed" (the default) or "growing"' }).optional(),
  workingSet: z.number().int().nonnegative().max(10_000).optional(),
  sessionCost: z
    .strictObject({
      searches: z.number().int().positive().max(10_000).optional(),
      promptCache: z.boolean().optional(),
    })
    .optional(),
};

const toolSearchSchema = z.looseObject({
  /** B1 mode: always (default), never, auto, auto:N. */
  mode: z
    .string()
    .refine((value) => isValidMode(value), 'expected "always", "never", "auto" or "auto:N" (0 <= N <= 100)')
    .optional(),
  /** Tools always loaded: model-facing names (`mcp__server__tool`) or whole servers (`mcp__server`). */
  alwaysLoad: z.array(z.string()).optional(),
  /** Context window (tokens) used by `auto:N`. */
  contextWindow: z.number().int().positive().optional(),
  /** E4: tokens for everything a request carries about deferred tools (search tool + announcement + call_tool). Default 2000. */
  deferredTokenBudget: z.number().int().positive().optional(),
  /** Default per-server connect timeout in ms. */
  connectTimeoutMs: z.number().int().positive().optional(),
  /** G13: default time a package runner (npx, uvx, …) may take to install a server, in ms. Default 300000. */
  installTimeoutMs: z.number().int().positive().optional(),
  /** Default per-call timeout in ms. */
  callTimeoutMs: z.number().int().positive().optional(),
  /** C8: how long a search that finds nothing waits for servers still connecting (ms; 0 = never). Default 5000. */
  searchWaitMs: z.number().int().nonnegative().optional(),
  /** G6: share HTTP sessions between gateway replicas: `redis://HOST:PORT[/DB]` or `rediss://…`. */
  sessionStore: z
    .string()
    .regex(/^rediss?:\/\//, 'expected "redis://HOST:PORT[/DB]" or "rediss://HOST:PORT[/DB]"')
    .optional(),
  /** G5 limits by name (src/core/limits.ts), e.g. {"toolsPerServer": 5000}; checked by `resolveLimits`. */
  limits: z.record(z.string(), z.unknown()).optional(),
  /** C10: an OpenAI-compatible embedding server fused with the lexical ranking. */
  embeddings: embeddingsSchema.optional(),
  /** G11: offer `run_code` (sandboxed scripts that search and call tools): true, or {enabled, limits}. Default off. */
  codeMode: z
    .union([
      z.boolean(),
      z.strictObject({ enabled: z.boolean().optional(), limits: z.record(z.string(), z.unknown()).optional() }),
    ])
    .optional(),
  /** C13: learn from use (search → call): true, false, or {enabled, path, maxEntries, lessonsPerHour}. `serve` learns by default. */
  learning: z
    .union([
      z.boolean(),
      z.strictObject({
        enabled: z.boolean().optional(),
        path: z.string().min(1).optional(),
        maxEntries: z.number().int().positive().max(1_000_000).optional(),
        /** C14: lessons one client may teach per hour. */
        lessonsPerHour: z.number().int().positive().max(1_000_000).optional(),
        /** C15: whose lessons lift alone: "auto" (the one identity of a gateway only one reaches), "one", "shared". */
        identities: z.enum(['auto', 'one', 'shared']).optional(),
      }),
    ])
    .optional(),
  /** G10: pins and the scanner (`{enabled, newServers}`), and the tool classes clients may use (trust-config.ts). */
  trust: trustSettingsSchema.optional(),
  allow: allowSchema.optional(),
  ...sessionEconomyFields,
});

const serverName = z.string().regex(/^[A-Za-z0-9_.-]+$/, 'server names may use letters, digits, "_", "-" and "."');

const configSchema = z.looseObject({
  mcpServers: z.record(serverName, serverSchema).optional(),
  /** VS Code's `.vscode/mcp.json` key. */
  servers: z.record(serverName, serverSchema).optional(),
  toolSearch: toolSearchSchema.optional(),
});

export type StdioServerConfig = z.infer<typeof stdioServerSchema>;
export type HttpServerConfig = z.infer<typeof httpServerSchema>;
export type ServerConfig = StdioServerConfig | HttpServerConfig;
export type ToolSearchConfig = z.infer<typeof toolSearchSchema>;

/** A validated config: servers by name (disabled ones dropped) and the deferral options. */
export interface HubConfig {
  /** G7: with `${VAR}` references expanded (what connections use). */
  readonly servers: Readonly<Record<string, ServerConfig>>;
  readonly toolSearch: ToolSearchConfig;
  /** Where it came from, for messages. */
  readonly source: string;
  /** G7: the entries as written (`${GITHUB_TOKEN}`, not the token): what messages may show. */
  readonly unexpanded?: Readonly<Record<string, ServerConfig>>;
  /** G7: values that came from the environment, to redact from logs and status lines. */
  readonly secrets?: readonly ExpandedSecret[];
  /** G9: the `profiles` section as written (checked by the gateway's profiles room). */
  readonly profiles?: unknown;
}

export function isStdioServer(config: ServerConfig): config is StdioServerConfig {
  return 'command' in config && typeof config.command === 'string';
}

/**
 * Validate a parsed JSON value, expanding `${VAR}` references from `env` (G7). Throws
 * McpConfigError naming `source` and the first bad key (for a missing variable, the key and the
 * variable; never its value).
 */
export function parseHubConfig(value: unknown, source = '<inline config>', env: Environment = process.env): HubConfig {
  const secrets: ExpandedSecret[] = [];
  const problem = rawConfigProblem(value);
  if (problem) throw new McpConfigError(source, problem.key, problem.reason);
  const expanded = expandConfigServers(value, source, env, secrets);
  const parsed = configSchema.safeParse(expanded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue ? issue.path.map(String).join('.') : '';
    throw new McpConfigError(source, key, issue?.message ?? 'invalid config');
  }
  const { mcpServers, servers: vscodeServers, toolSearch } = parsed.data;
  if (mcpServers === undefined && vscodeServers === undefined) {
    throw new McpConfigError(
      source,
      'mcpServers',
      'missing: expected {"mcpServers": {"<name>": {"command": ...} | {"url": ...}}}',
    );
  }
  const servers: Record<string, ServerConfig> = {};
  const unexpanded: Record<string, ServerConfig> = {};
  const written = value as { mcpServers?: Record<string, ServerConfig>; servers?: Record<string, ServerConfig> };
  for (const [name, entry] of Object.entries({ ...vscodeServers, ...mcpServers })) {
    const server = entry as ServerConfig;
    if (name.includes('__')) {
      throw new McpConfigError(
        source,
        `mcpServers.${name}`,
        'a server name cannot contain "__" (it separates server and tool in mcp__<server>__<tool>)',
      );
    }
    if (server.disabled === true) continue;
    servers[name] = server;
    unexpanded[name] = written.mcpServers?.[name] ?? written.servers?.[name] ?? server;
  }
  try {
    resolveLimits({ values: toolSearch?.limits, source });
  } catch (error) {
    if (error instanceof InvalidLimitError)
      throw new McpConfigError(source, `toolSearch.limits.${error.limit}`, error.reason);
    throw error;
  }
  const profiles = (parsed.data as { profiles?: unknown }).profiles;
  return {
    servers,
    toolSearch: toolSearch ?? {},
    source,
    unexpanded,
    secrets,
    ...(profiles !== undefined && { profiles }),
  };
}

/**
 * G7: the same value with every enabled server entry's references expanded, before validation
 * (a `url` of `https://${HOST}/mcp` is only a URL once expanded). Disabled entries stay as
 * written: a variable they lack is not an error.
 */
function expandConfigServers(value: unknown, source: string, env: Environment, secrets: ExpandedSecret[]): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const key of ['servers', 'mcpServers'] as const) {
    const entries = value[key];
    if (!isRecord(entries)) continue;
    out[key] = Object.fromEntries(
      Object.entries(entries).map(([name, entry]) => {
        if (!isRecord(entry) || entry['disabled'] === true) return [name, entry];
        try {
          return [name, expandServerEntry(entry, env, secrets)];
        } catch (error) {
          if (error instanceof KeyedVariableError)
            throw new McpConfigError(source, `${key}.${name}.${error.key}`, error.reason);
          throw error;
        }
      }),
    );
  }
  return out;
}

/** Read and validate a config file (`${VAR}` references from `env`, G7). */
export async function readHubConfig(path: string, env: Environment = process.env): Promise<HubConfig> {
  let text: string;
  try {
    text = await readConfigText(path);
  } catch (error) {
    throw new McpConfigError(
      path,
      '',
      `cannot read the file (${error instanceof ConfigFileError ? error.reason : ((error as NodeJS.ErrnoException).code ?? String(error))})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(path, '', `not valid JSON (${errorMessage(error)})`);
  }
  return parseHubConfig(json, path, env);
}
