/**
 * B3 — the `auto` threshold: threshold = floor(contextWindow × N / 100) tokens, compared with the
 * size of the deferred schemas. The size comes from a token counter when one is given (a
 * provider's counting API: minus the fixed tools preamble, floored at 0), otherwise from
 * characters / 2.5, which over-counts schema-heavy JSON and so biases toward deferring (B7).
 * Measurements are memoized by the sorted deferred-name key, so a pool change recounts once.
 */
import type { ToolSpec } from './tool.js';

export const DEFAULT_CONTEXT_WINDOW = 200_000;
/** What a provider adds once whenever a request carries tools; counted once, not per tool. */
export const TOOLS_PREAMBLE_TOKENS = 500;
export const CHARS_PER_TOKEN = 2.5;

export interface TokenMeasure {
  readonly tokens: number;
  /** `counter`: a real counting API; `estimate`: characters / 2.5. */
  readonly source: 'counter' | 'estimate';
}

/** Counts the tokens of a request carrying these tools (preamble included), e.g. `messages.countTokens`. */
export type TokenCounter = (tools: readonly ToolSpec[]) => Promise<number>;

export function thresholdTokens(contextWindow: number, percent: number): number {
  return Math.floor((contextWindow * percent) / 100);
}

export function estimateToolTokens(tools: readonly ToolSpec[]): TokenMeasure {
  let chars = 0;
  for (const tool of tools)
    chars += tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
  return { tokens: Math.ceil(chars / CHARS_PER_TOKEN), source: 'estimate' };
}

export function withoutPreamble(rawCount: number): number {
  return Math.max(0, rawCount - TOOLS_PREAMBLE_TOKENS);
}

/** The memo key: sorted, comma-joined names (readable when debugging, unlike a hash). */
export function poolKey(names: Iterable<string>): string {
  return [...names].sort().join(',');
}

/**
 * Memoizes the deferred-tool measure by pool key. `measure` asks the counter once per key and
 * falls back to the estimate on any failure; `peek` answers synchronously from the memo (or the
 * estimate), which is what the pure `plan()` consumes.
 */
export class DeferredTokenMemo {
  private key: string | undefined;
  private value: TokenMeasure | undefined;

  constructor(private readonly counter?: TokenCounter) {}

  peek(tools: readonly ToolSpec[]): TokenMeasure {
    const key = poolKey(tools.map((t) => t.name));
    if (key === this.key && this.value) return this.value;
    return estimateToolTokens(tools);
  }

  async measure(tools: readonly ToolSpec[]): Promise<TokenMeasure> {
    const key = poolKey(tools.map((t) => t.name));
    if (key === this.key && this.value) return this.value;
    let value = estimateToolTokens(tools);
    if (this.counter && tools.length > 0) {
      try {
        const raw = await this.counter(tools);
        if (Number.isFinite(raw)) value = { tokens: withoutPreamble(raw), source: 'counter' };
      } catch {
        // B7: an unavailable counter is not an error; the estimate leans toward deferring.
      }
    }
    this.key = key;
    this.value = value;
    return value;
  }
}
