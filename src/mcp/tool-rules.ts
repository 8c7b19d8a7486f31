/**
 * G7 — a server entry's `tools` section: which of its tools the gateway shows, and what clients and
 * search see of them.
 *
 *     "tools": {
 *       "allow": ["get_*", "list_*"],          // only these (absent: every tool)
 *       "deny": ["delete_*"],                  // never these (deny wins over allow)
 *       "override": { "search_code": { "description": "…", "title": "…" } }
 *     }
 *
 * Patterns are globs over the server's own tool names: `*` any run of characters, `?` one
 * character, everything else literal and case-sensitive. A hidden tool never enters the catalog
 * (so it is never announced, searched, listed or callable); an override changes the text clients
 * and search see, never what the server runs. Pure: no I/O.
 */
import { z } from 'zod';

const overrideSchema = z.strictObject({
  description: z.string().optional(),
  title: z.string().optional(),
});

export const toolRulesSchema = z.strictObject({
  allow: z.array(z.string().min(1)).optional(),
  deny: z.array(z.string().min(1)).optional(),
  override: z.record(z.string(), overrideSchema).optional(),
});

export type ToolRulesConfig = z.infer<typeof toolRulesSchema>;
export type ToolOverride = z.infer<typeof overrideSchema>;

/** Why a tool is hidden, in the words of the config (`tools.deny "delete_*"`). */
export type Visibility = { readonly visible: true } | { readonly visible: false; readonly reason: string };

/** `*` and `?` globs as an anchored regular expression; every other character is literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

interface CompiledGlob {
  readonly glob: string;
  readonly test: RegExp;
}

function compile(globs: readonly string[] | undefined): CompiledGlob[] | undefined {
  return globs?.map((glob) => ({ glob, test: globToRegExp(glob) }));
}

const VISIBLE: Visibility = { visible: true };

/** A server's `tools` section, compiled once per config. */
export class ToolRules {
  private readonly allow: CompiledGlob[] | undefined;
  private readonly deny: CompiledGlob[];
  private readonly overrides: Readonly<Record<string, ToolOverride>>;

  constructor(config: ToolRulesConfig = {}) {
    this.allow = compile(config.allow);
    this.deny = compile(config.deny) ?? [];
    this.overrides = config.override ?? {};
  }

  /** Deny wins; with an `allow` list, a tool must match one of its globs. */
  visibility(tool: string): Visibility {
    const denied = this.deny.find((g) => g.test.test(tool));
    if (denied) return { visible: false, reason: `it matches tools.deny "${denied.glob}"` };
    if (this.allow && !this.allow.some((g) => g.test.test(tool)))
      return { visible: false, reason: `it matches no pattern in tools.allow` };
    return VISIBLE;
  }

  override(tool: string): ToolOverride | undefined {
    return Object.hasOwn(this.overrides, tool) ? this.overrides[tool] : undefined;
  }

  /** Overrides naming no tool the server lists: a typo the log should point out. */
  unusedOverrides(listed: Iterable<string>): string[] {
    const overridden = Object.keys(this.overrides);
    if (overridden.length === 0) return [];
    const names = new Set(listed);
    return overridden.filter((name) => !names.has(name));
  }
}
