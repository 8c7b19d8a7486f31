/**
 * B1/B2 — modes. `always` defers MCP and marked tools (the default); `auto[:N]` defers only when
 * the deferred schemas exceed N% of the context window; `never` loads everything. A kill switch
 * forces `never` whatever else is set.
 */
import { InvalidModeError } from './errors.js';

export type ToolSearchMode = 'always' | 'auto' | 'never';
export const DEFAULT_AUTO_PERCENT = 10;

export interface ResolvedMode {
  readonly mode: ToolSearchMode;
  /** The N of `auto:N` (meaningful in `auto` only). */
  readonly autoPercent: number;
  /** The user chose the mode (option or env). B5: an explicit mode vouches for a proxy. */
  readonly explicit: boolean;
  readonly source: 'kill-switch' | 'option' | 'env' | 'default';
}

export interface ModeSources {
  /** `always` | `auto` | `auto:N` | `never` | boolean. */
  readonly option?: string | boolean;
  /** Environment (defaults to none: the core never reads process.env itself). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** B2: forces `never` and tells providers to strip every tool-search field. */
  readonly killSwitch?: boolean;
}

export const MODE_ENV = 'ENABLE_TOOL_SEARCH';
/** Env vars that act as the kill switch (the second one is Claude Code's). */
export const KILL_SWITCH_ENVS = ['TOOLSEARCH_DISABLE', 'DISABLE_EXPERIMENTAL_BETAS'] as const;

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 'always']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'never']);

/** Parse one mode value. `auto:0` is `always`, `auto:100` is `never`. */
export function parseModeValue(raw: string | boolean): { mode: ToolSearchMode; autoPercent: number } {
  if (typeof raw === 'boolean') return { mode: raw ? 'always' : 'never', autoPercent: DEFAULT_AUTO_PERCENT };
  const value = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(value)) return { mode: 'always', autoPercent: DEFAULT_AUTO_PERCENT };
  if (FALSE_WORDS.has(value)) return { mode: 'never', autoPercent: DEFAULT_AUTO_PERCENT };
  if (value === 'auto') return { mode: 'auto', autoPercent: DEFAULT_AUTO_PERCENT };
  const match = /^auto:(\d{1,3})$/.exec(value);
  if (match) {
    const percent = Number(match[1]);
    if (percent > 100) throw new InvalidModeError(raw);
    if (percent === 0) return { mode: 'always', autoPercent: 0 };
    if (percent === 100) return { mode: 'never', autoPercent: 100 };
    return { mode: 'auto', autoPercent: percent };
  }
  throw new InvalidModeError(raw);
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function killSwitchOn(sources: ModeSources): boolean {
  if (sources.killSwitch) return true;
  return KILL_SWITCH_ENVS.some((name) => {
    const v = sources.env?.[name];
    return isSet(v) && !FALSE_WORDS.has(v.trim().toLowerCase());
  });
}

/** B1/B2: kill switch, then the option, then `ENABLE_TOOL_SEARCH`, then the default `always`. */
export function resolveMode(sources: ModeSources = {}): ResolvedMode {
  if (killSwitchOn(sources))
    return { mode: 'never', autoPercent: DEFAULT_AUTO_PERCENT, explicit: true, source: 'kill-switch' };
  if (sources.option !== undefined && sources.option !== '') {
    return { ...parseModeValue(sources.option), explicit: true, source: 'option' };
  }
  const env = sources.env?.[MODE_ENV];
  if (isSet(env)) return { ...parseModeValue(env), explicit: true, source: 'env' };
  return { mode: 'always', autoPercent: DEFAULT_AUTO_PERCENT, explicit: false, source: 'default' };
}
