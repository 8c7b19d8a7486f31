/**
 * B4 — which models take the provider-native deferral path, for both providers, in one table.
 *
 * - `anthropic-tool-reference`: the model expands `tool_reference` blocks against tools sent with
 *   `defer_loading: true` (Anthropic Messages API, client-side or server-side tool search).
 * - `anthropic-tool-changes` (F9): the model takes `tool_addition` / `tool_removal` blocks with a
 *   tool defined by value in a `role: "system"` message (the `inline-tools-2026-09-15` beta); the
 *   platform matters too (a rule may name the platforms it applies to).
 * - `openai-tool-search`: the model accepts a `{type: "tool_search"}` tool and `defer_loading`
 *   functions (OpenAI Responses API).
 *
 * Rules are read in order, the first match decides. A model no rule names is assumed to support
 * the capability, so a new model works without a release (B4); the cost of being wrong is small,
 * because an adapter that hears "unsupported" falls back to client-side expansion (B7).
 * User rules (constructor, `setRules`) come before the defaults and so override them.
 */
export type NativeCapability = 'anthropic-tool-reference' | 'anthropic-tool-changes' | 'openai-tool-search';

export interface ModelSupportRule {
  readonly capability: NativeCapability;
  /** A case-insensitive substring of the model name, a RegExp, or a predicate on the lower-cased name. */
  readonly match: string | RegExp | ((model: string) => boolean);
  readonly supported: boolean;
  /** Where the entry comes from: the doc page and the date it was read, or who set it. */
  readonly source: string;
  /** Only on these platforms (an adapter's names, e.g. `bedrock`); absent: on every platform. */
  readonly platforms?: readonly string[];
}

export interface ModelSupportDecision {
  readonly supported: boolean;
  /** The rule that decided; absent when no rule named the model (assumed supported). */
  readonly rule?: ModelSupportRule;
}

const ANTHROPIC_TOOL_SEARCH_PAGE =
  'https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool (read 2026-11-23): supported models "Claude Opus 4.5, Claude Sonnet 4.5"';
const OPENAI_TOOL_SEARCH_PAGE =
  'https://developers.openai.com/api/docs/guides/tools-tool-search (read 2026-11-23): "Only gpt-5.4 and later models support tool_search"';

const ANTHROPIC_TOOL_CHANGES_PAGE =
  'https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages (read 2026-11-28): (a copy fetched 2026-09-26) tool changes on "Claude Fable 5.1, Claude Mythos 5.1, Claude Fable 5, Claude Mythos 5, Claude Opus 5.5, Claude Opus 4.8, and Claude Opus 5", "not available on Claude Sonnet 5"; the page\'s later translations and @langchain/anthropic 1.5.13 (2026-10-20) add Claude Sonnet 5.5 and Haiku 5.5';

/** `claude-opus-4-8`, `claude-sonnet-5-5-20261001`, `anthropic.claude-opus-5-v1:0`, `claude-opus-5@2026…` → family and version. */
export function claudeVersion(model: string): { family: string; major: number; minor: number } | undefined {
  const m = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:[-.](\d{1,2}))?(?!\d)/.exec(model.toLowerCase());
  return m ? { family: m[1]!, major: Number(m[2]), minor: m[3] === undefined ? 0 : Number(m[3]) } : undefined;
}

/** The first Claude version the tool-changes page names (Claude Opus 4.8). */
const TOOL_CHANGES_SINCE = { major: 4, minor: 8 } as const;

function claudeBefore(model: string, since: { major: number; minor: number }): boolean {
  const v = claudeVersion(model);
  return v !== undefined && (v.major < since.major || (v.major === since.major && v.minor < since.minor));
}

/** The first version the OpenAI guide names as supporting `tool_search`. */
const OPENAI_TOOL_SEARCH_SINCE = { major: 5, minor: 4 } as const;

/** `gpt-5`, `gpt-5-mini`, `gpt-5.1-codex`, `openai/gpt-4.1` → their version; other names → undefined. */
export function gptVersion(model: string): { major: number; minor: number } | undefined {
  const m = /(?:^|[/:])gpt-(\d+)(?:\.(\d+))?(?![\d.])/.exec(model.toLowerCase());
  return m ? { major: Number(m[1]), minor: m[2] === undefined ? 0 : Number(m[2]) } : undefined;
}

function gptBefore(model: string, since: { major: number; minor: number }): boolean {
  const v = gptVersion(model);
  return v !== undefined && (v.major < since.major || (v.major === since.major && v.minor < since.minor));
}

/** OpenAI's reasoning (`o1`, `o3-mini`, `o4-mini`) and `chatgpt-*` families: not gpt-5.4 or later. */
const OPENAI_OLDER_FAMILIES = /(?:^|[/:])(?:o\d+(?:-[a-z0-9-]+)?|chatgpt-[a-z0-9.-]+)$/;

export const DEFAULT_MODEL_SUPPORT_RULES: readonly ModelSupportRule[] = [
  // Anthropic. SPEC B4's default negative list is `haiku` (Claude Code's gate); the tool search
  // page lists only 4.5-generation Opus/Sonnet models, and no version of it names a Claude 3 model.
  {
    capability: 'anthropic-tool-reference',
    match: 'haiku',
    supported: false,
    source: `${ANTHROPIC_TOOL_SEARCH_PAGE}; no Haiku`,
  },
  {
    capability: 'anthropic-tool-reference',
    match: 'claude-3',
    supported: false,
    source: `${ANTHROPIC_TOOL_SEARCH_PAGE}; no Claude 3.x`,
  },
  // Anthropic tool changes by value (F9): the inline-tools beta is on the Claude API only; by
  // reference (not used here) Bedrock and Google Cloud take them too.
  {
    capability: 'anthropic-tool-changes',
    match: () => true,
    platforms: ['bedrock', 'vertex', 'foundry', 'proxy'],
    supported: false,
    source: `${ANTHROPIC_TOOL_CHANGES_PAGE}; a tool defined by value ("inline-tools-2026-09-15") "is available on the Claude API", the by-reference header "on the Claude API, Amazon Bedrock, and Google Cloud"`,
  },
  {
    capability: 'anthropic-tool-changes',
    match: (model) => {
      const v = claudeVersion(model);
      return v?.family === 'sonnet' && v.major === 5 && v.minor === 0;
    },
    supported: false,
    source: `${ANTHROPIC_TOOL_CHANGES_PAGE}; not Claude Sonnet 5`,
  },
  {
    capability: 'anthropic-tool-changes',
    match: (model) => model.includes('claude-3') || claudeBefore(model, TOOL_CHANGES_SINCE),
    supported: false,
    source: `${ANTHROPIC_TOOL_CHANGES_PAGE}; nothing before Claude Opus 4.8`,
  },
  {
    capability: 'anthropic-tool-changes',
    match: (model) => claudeVersion(model) !== undefined,
    supported: true,
    source: `${ANTHROPIC_TOOL_CHANGES_PAGE}; Claude Opus 4.8 and every later Claude`,
  },
  // OpenAI. Everything named gpt-N.M below 5.4, and the o-series / chatgpt-* families, is excluded.
  {
    capability: 'openai-tool-search',
    match: (model) => gptBefore(model, OPENAI_TOOL_SEARCH_SINCE),
    supported: false,
    source: `${OPENAI_TOOL_SEARCH_PAGE}; gpt models before 5.4`,
  },
  {
    capability: 'openai-tool-search',
    match: OPENAI_OLDER_FAMILIES,
    supported: false,
    source: `${OPENAI_TOOL_SEARCH_PAGE}; o-series and chatgpt-*`,
  },
  {
    capability: 'openai-tool-search',
    match: (model) => gptVersion(model) !== undefined,
    supported: true,
    source: `${OPENAI_TOOL_SEARCH_PAGE}; gpt-5.4 and later`,
  },
];

/** The Anthropic negative list as substrings (the B4 API before the shared table). */
export const DEFAULT_UNSUPPORTED_MODEL_PATTERNS: readonly string[] = DEFAULT_MODEL_SUPPORT_RULES.flatMap((r) =>
  r.capability === 'anthropic-tool-reference' && !r.supported && typeof r.match === 'string' ? [r.match] : [],
);

function matches(rule: ModelSupportRule, model: string): boolean {
  if (typeof rule.match === 'string') return model.includes(rule.match.toLowerCase());
  if (rule.match instanceof RegExp)
    return new RegExp(
      rule.match.source,
      rule.match.flags.includes('i') ? rule.match.flags : `${rule.match.flags}i`,
    ).test(model);
  return rule.match(model);
}

function negativeAnthropicRules(patterns: readonly string[], source: string): ModelSupportRule[] {
  return patterns.map((p) => ({
    capability: 'anthropic-tool-reference' as const,
    match: p.toLowerCase(),
    supported: false,
    source,
  }));
}

export interface ModelSupportOptions {
  /** Rules checked before the defaults (first match wins), e.g. a model your proxy serves. */
  readonly rules?: readonly ModelSupportRule[];
  /** Replace the Anthropic negative list (default `haiku`, `claude-3`). */
  readonly unsupportedPatterns?: readonly string[];
}

export class ModelSupport {
  private userRules: ModelSupportRule[];
  private anthropicRules: ModelSupportRule[];
  private readonly otherDefaults: ModelSupportRule[];

  /** `new ModelSupport(['haiku'])` still works: an array is the Anthropic negative list. */
  constructor(options: ModelSupportOptions | readonly string[] = {}) {
    const o: ModelSupportOptions = Array.isArray(options)
      ? { unsupportedPatterns: options as readonly string[] }
      : (options as ModelSupportOptions);
    const isAnthropicDefault = (r: ModelSupportRule) => r.capability === 'anthropic-tool-reference';
    this.userRules = [...(o.rules ?? [])];
    this.anthropicRules = o.unsupportedPatterns
      ? negativeAnthropicRules(o.unsupportedPatterns, 'set by the caller')
      : DEFAULT_MODEL_SUPPORT_RULES.filter(isAnthropicDefault);
    this.otherDefaults = DEFAULT_MODEL_SUPPORT_RULES.filter((r) => !isAnthropicDefault(r));
  }

  /** Replace the Anthropic negative list (e.g. from a feature flag), effective on the next request. */
  setUnsupportedPatterns(patterns: readonly string[]): void {
    this.anthropicRules = negativeAnthropicRules(patterns, 'set at run time');
  }

  get unsupportedPatterns(): readonly string[] {
    return this.anthropicRules.flatMap((r) => (!r.supported && typeof r.match === 'string' ? [r.match] : []));
  }

  /** Replace the user rules (checked before every default), effective on the next request. */
  setRules(rules: readonly ModelSupportRule[]): void {
    this.userRules = [...rules];
  }

  /** Every rule in the order it is checked. */
  get rules(): readonly ModelSupportRule[] {
    return [...this.userRules, ...this.anthropicRules, ...this.otherDefaults];
  }

  /** `platform`: where the request goes (an adapter's name for it); rules naming platforms match only there. */
  decide(
    model: string | undefined,
    capability: NativeCapability = 'anthropic-tool-reference',
    platform?: string,
  ): ModelSupportDecision {
    const name = (model ?? '').toLowerCase();
    const rule = this.rules.find(
      (r) =>
        r.capability === capability &&
        (r.platforms === undefined ? model !== undefined : platform !== undefined && r.platforms.includes(platform)) &&
        matches(r, name),
    );
    return rule ? { supported: rule.supported, rule } : { supported: true };
  }

  supports(
    model: string | undefined,
    capability: NativeCapability = 'anthropic-tool-reference',
    platform?: string,
  ): boolean {
    return this.decide(model, capability, platform).supported;
  }
}

/** The shared default instance; `setUnsupportedPatterns`/`setRules` on it affect every later plan. */
export const defaultModelSupport = new ModelSupport();
