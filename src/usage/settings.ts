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
}

export type LearningConfigValue = boolean | (LearningSettings & { readonly enabled?: boolean });

export interface ResolvedLearning {
  readonly path: string;
  readonly limits: LearnedLogLimits;
  readonly lessonsPerHour?: number;
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
  };
}
