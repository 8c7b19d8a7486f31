/**
 * C13 — whether and where a gateway learns: the config's `toolSearch.learning` (true, false or
 * {enabled, path, maxEntries}), an option of the caller (the CLI's `--no-learning` is `null`), and
 * the caller's default (`serve` learns unless told not to; the library only when asked).
 */
import { DEFAULT_LEARNED_LIMITS, type LearnedLogLimits } from '../search/learned/log.js';
import { defaultLearnedPath } from './paths.js';

export interface LearningSettings {
  /** The store file; default `defaultLearnedPath()`. */
  readonly path?: string;
  /** Distinct (tool, search) entries kept; default 50 000. */
  readonly maxEntries?: number;
  /** C14: lessons one client may teach per hour; default 60. */
  readonly lessonsPerHour?: number;
  /** C15: whose lessons lift alone (see `LearningIdentities`); default `auto`. */
  readonly identities?: LearningIdentities;
}

/**
 * C15 — whose word lifts a tool on its own:
 *   - `auto`: where one identity alone can reach the gateway (stdio; HTTP with one token), that
 *     identity's; where several can (several tokens) or nobody is told apart (no token), no one's:
 *     a tool lifts for everyone once two identities agree, and callers told apart by nothing teach
 *     nothing;
 *   - `one`: every caller is one user (an HTTP gateway without a token that only you use): all
 *     lessons lift at once;
 *   - `shared`: no one's alone, even the holder of an only token (a team sharing one token).
 */
export type LearningIdentities = 'auto' | 'one' | 'shared';

export type LearningConfigValue = boolean | (LearningSettings & { readonly enabled?: boolean });

export interface ResolvedLearning {
  readonly path: string;
  readonly limits: LearnedLogLimits;
  readonly lessonsPerHour?: number;
  readonly identities?: LearningIdentities;
}

export function resolveLearning(
  config: LearningConfigValue | undefined,
  option: LearningSettings | null | undefined,
  byDefault: boolean,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedLearning | undefined {
  if (option === null) return undefined;
  const fromConfig = typeof config === 'object' ? config : {};
  const on =
    option !== undefined || (config === undefined ? byDefault : config !== false && fromConfig.enabled !== false);
  if (!on) return undefined;
  const settings = { ...fromConfig, ...option };
  return {
    path: settings.path ?? defaultLearnedPath(env),
    limits: { ...DEFAULT_LEARNED_LIMITS, ...(settings.maxEntries !== undefined && { total: settings.maxEntries }) },
    ...(settings.lessonsPerHour !== undefined && { lessonsPerHour: settings.lessonsPerHour }),
    ...(settings.identities !== undefined && { identities: settings.identities }),
  };
}
