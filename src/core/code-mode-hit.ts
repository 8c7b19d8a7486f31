/**
 * G11 — what a script's `search()` returns per tool: the compact form (name, one-line purpose, a
 * TypeScript-style signature with the argument names and types), or, for a `select:` query (the
 * "describe" form), the full description and each argument's own description as well.
 * The purpose line is the session answers' own (compact-tool.ts); the signature is a script's
 * `call(name, args)` form (tool-signature.ts), where a search answer lists arguments flat.
 */
import type { JsonSchema, ToolSpec } from './tool.js';
import { toolSignature } from './tool-signature.js';
import { toolPurpose } from './compact-tool.js';

export interface CodeModeHit {
  readonly name: string;
  /** The description's first sentence, cut to a line. */
  readonly purpose: string;
  /** `name(args: { … })`, from the input schema. */
  readonly signature: string;
  /** Describe form only: the whole description. */
  readonly description?: string;
  /** Describe form only: each argument's own description, by name. */
  readonly arguments?: Readonly<Record<string, string>>;
}

/** The describe form spells nested arguments deeper than a list of hits does. */
const DESCRIBE_DEPTH = 4;

export function codeModeHit(tool: ToolSpec, form: 'compact' | 'describe' = 'compact'): CodeModeHit {
  const compact = { name: tool.name, purpose: toolPurpose(tool.description) };
  if (form === 'compact') return { ...compact, signature: toolSignature(tool) };
  const args = argumentDescriptions(tool.inputSchema);
  return {
    ...compact,
    signature: toolSignature(tool, { depth: DESCRIBE_DEPTH }),
    description: tool.description,
    ...(Object.keys(args).length > 0 && { arguments: args }),
  };
}

function argumentDescriptions(schema: JsonSchema): Record<string, string> {
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null) return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(properties as Record<string, unknown>)) {
    const text = (value as { description?: unknown } | null)?.description;
    if (typeof text === 'string' && text.trim() !== '') out[name] = text.trim();
  }
  return out;
}

const DEFAULT_SCRIPT_RESULTS = 5;
const MAX_SCRIPT_RESULTS = 20;

/** How many hits a script's `search(query, { maxResults })` asks for: 5 by default, 20 at most. */
export function scriptMaxResults(maxResults: number | undefined): number {
  const asked =
    typeof maxResults === 'number' && Number.isFinite(maxResults) ? Math.floor(maxResults) : DEFAULT_SCRIPT_RESULTS;
  return Math.min(MAX_SCRIPT_RESULTS, Math.max(1, asked));
}

/** A script's search answer: the matches as hits, in the describe form for a `select:` query. */
export function scriptHits(
  query: string,
  matches: readonly string[],
  toolNamed: (name: string) => ToolSpec | undefined,
): CodeModeHit[] {
  const form = query.trim().startsWith('select:') ? 'describe' : 'compact';
  return matches.flatMap((name) => {
    const tool = toolNamed(name);
    return tool ? [codeModeHit(tool, form)] : [];
  });
}
