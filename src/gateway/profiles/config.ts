/**
 * G9 — the config's `profiles` section: named subsets of the servers, each served at
 * `/mcp/<name>` (or `serve --profile <name>` on stdio), optionally narrowed further by tool globs
 * and guarded by a token of its own.
 *
 *     "profiles": {
 *       "support": { "servers": ["zendesk", "docs"], "tools": { "deny": ["*delete*"] } },
 *       "engineering": { "servers": ["github", "sentry"], "tokenEnv": "ENG_GATEWAY_TOKEN" }
 *     }
 *
 * Globs (`*`, `?`) match a tool's model-facing name (`mcp__github__create_issue`) or its own name
 * on its server (`create_issue`); deny wins over allow. Pure: no I/O (the token variable is read
 * from the environment passed in).
 */
import { z } from 'zod';
import { McpConfigError } from '../../mcp/errors.js';
import { globToRegExp } from '../../mcp/tool-rules.js';
import type { ToolSpec } from '../../core/tool.js';
import { allowSchema } from '../../mcp/trust-config.js';
import { policyDenial, type ToolClass } from '../../trust/classes.js';

const profileSchema = z.strictObject({
  servers: z.array(z.string().min(1)).min(1),
  tools: z
    .strictObject({ allow: z.array(z.string().min(1)).optional(), deny: z.array(z.string().min(1)).optional() })
    .optional(),
  /** G10: the tool classes this profile's clients may use (`["read"]`); narrows `toolSearch.allow`. */
  allow: allowSchema.optional(),
  /** The bearer token for `/mcp/<name>`, instead of the gateway's (prefer `tokenEnv`). */
  token: z.string().min(1).optional(),
  /** The environment variable holding that token. */
  tokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
    .optional(),
});

const profilesSchema = z.record(z.string(), profileSchema);
const PROFILE_NAME = /^[A-Za-z0-9_-]+$/;

export interface ProfileConfig {
  readonly name: string;
  readonly servers: readonly string[];
  /** Whether a tool is in the profile (its server is, and the globs let it through). */
  readonly includes: (tool: ToolSpec) => boolean;
  /** G10: why a tool of its servers may not be used here (its class is not in the profile's `allow`). */
  readonly denial?: (tool: ToolSpec) => string | undefined;
  /** The tool globs and classes as written (JSON): a reload compares them to tell a changed profile. */
  readonly rules: string;
  /** Its own bearer token, when it has one. */
  readonly token?: string;
}

export function parseProfiles(
  value: unknown,
  source: string,
  servers: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ProfileConfig[] {
  if (value === undefined) return [];
  const parsed = profilesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new McpConfigError(
      source,
      ['profiles', ...(issue?.path ?? []).map(String)].join('.'),
      issue?.message ?? 'invalid',
    );
  }
  return Object.entries(parsed.data).map(([name, profile]) => {
    if (!PROFILE_NAME.test(name))
      throw new McpConfigError(source, `profiles.${name}`, 'profile names may use letters, digits, "_" and "-"');
    for (const server of profile.servers)
      if (!servers.includes(server))
        throw new McpConfigError(source, `profiles.${name}.servers`, `no server named "${server}" in the config`);
    if (profile.token !== undefined && profile.tokenEnv !== undefined)
      throw new McpConfigError(source, `profiles.${name}`, 'use "token" or "tokenEnv", not both');
    // G3: `${NAME}` is not expanded here (only server entries are): taken literally it would become
    // the bearer token itself, a string anyone reading the config knows. Say how to do it instead.
    if (profile.token !== undefined && /\$\{[^}]*\}/.test(profile.token))
      throw new McpConfigError(
        source,
        `profiles.${name}.token`,
        `a token written as $\{NAME} is not expanded here; use "tokenEnv": "NAME" to read it from the environment`,
      );
    const token = profile.tokenEnv !== undefined ? env[profile.tokenEnv] : profile.token;
    if (profile.tokenEnv !== undefined && !token)
      throw new McpConfigError(source, `profiles.${name}.tokenEnv`, `the variable ${profile.tokenEnv} is not set`);
    return {
      name,
      servers: profile.servers,
      includes: toolFilter(new Set(profile.servers), profile.tools?.allow, profile.tools?.deny),
      ...(profile.allow && { denial: classDenial(profile.allow, `profile "${name}"`) }),
      rules: JSON.stringify({ ...profile.tools, ...(profile.allow && { classes: profile.allow }) }),
      ...(token !== undefined && { token }),
    };
  });
}

function toolFilter(
  servers: ReadonlySet<string>,
  allow: readonly string[] | undefined,
  deny: readonly string[] | undefined,
): (tool: ToolSpec) => boolean {
  const allowed = allow?.map(globToRegExp);
  const denied = deny?.map(globToRegExp) ?? [];
  return (tool) => {
    if (tool.origin.kind !== 'mcp' || !servers.has(tool.origin.server)) return false;
    const names = [tool.name, tool.originalName ?? tool.name];
    const matches = (patterns: readonly RegExp[]) => patterns.some((p) => names.some((n) => p.test(n)));
    if (matches(denied)) return false;
    return allowed === undefined || matches(allowed);
  };
}

/** G10: a tool's classes come from the annotations its server gave (kept with its other fields). */
function classDenial(allow: readonly ToolClass[], where: string): (tool: ToolSpec) => string | undefined {
  return (tool) => policyDenial(tool.mcpFields?.['annotations'], allow, where);
}
