/**
 * B4 — which models can expand provider-native tool references. A negative list of
 * case-insensitive substrings: unknown models are assumed to support it, so a new model works
 * without a release; the list can be replaced at run time when one turns out not to.
 */
export const DEFAULT_UNSUPPORTED_MODEL_PATTERNS: readonly string[] = ['haiku'];

export class ModelSupport {
  private patterns: string[];

  constructor(patterns: readonly string[] = DEFAULT_UNSUPPORTED_MODEL_PATTERNS) {
    this.patterns = patterns.map((p) => p.toLowerCase());
  }

  /** Replace the negative list (e.g. from a feature flag), effective on the next request. */
  setUnsupportedPatterns(patterns: readonly string[]): void {
    this.patterns = patterns.map((p) => p.toLowerCase());
  }

  get unsupportedPatterns(): readonly string[] {
    return this.patterns;
  }

  supports(model: string | undefined): boolean {
    if (!model) return true;
    const normalized = model.toLowerCase();
    return !this.patterns.some((p) => normalized.includes(p));
  }
}

/** The shared default instance; `setUnsupportedPatterns` on it affects every later plan. */
export const defaultModelSupport = new ModelSupport();
