/**
 * B5/B6/B7 — the two-layer gate. The optimistic gate runs at pool assembly and decides whether
 * the search tool belongs in the pool at all (mode, proxy). The definitive gate runs per request
 * with the full context (model support, search tool allowed, threshold, something to search).
 * Every "no" loads more tools, never fewer.
 */
import type { ResolvedMode } from './mode.js';
import type { TokenMeasure } from './threshold.js';

export interface GateDecision {
  readonly enabled: boolean;
  readonly reason: string;
}

/** Hosts that speak the Anthropic API first-hand (tool references are understood there). */
export const FIRST_PARTY_HOSTS: readonly string[] = ['api.anthropic.com'];

/** B5: a base URL is first-party when its host is a known Anthropic host (or none is given). */
export function isFirstPartyBaseUrl(
  baseUrl: string | undefined,
  hosts: readonly string[] = FIRST_PARTY_HOSTS,
): boolean {
  if (!baseUrl) return true;
  try {
    const host = new URL(baseUrl).hostname.toLowerCase();
    return hosts.includes(host);
  } catch {
    return false;
  }
}

export interface OptimisticGateInput {
  readonly mode: ResolvedMode;
  /** Only for the Anthropic-native path: the client's base URL. */
  readonly proxyBaseUrl?: string;
  readonly firstPartyHosts?: readonly string[];
}

export function optimisticGate(input: OptimisticGateInput): GateDecision {
  if (input.mode.mode === 'never') {
    return { enabled: false, reason: input.mode.source === 'kill-switch' ? 'kill switch is on' : 'mode is never' };
  }
  if (
    input.proxyBaseUrl !== undefined &&
    !input.mode.explicit &&
    !isFirstPartyBaseUrl(input.proxyBaseUrl, input.firstPartyHosts)
  ) {
    return {
      enabled: false,
      reason: `base URL ${input.proxyBaseUrl} is not first-party and the mode was not set explicitly (set it to vouch for the proxy)`,
    };
  }
  return { enabled: true, reason: `mode is ${input.mode.mode}` };
}

export interface DefinitiveGateInput {
  readonly optimistic: GateDecision;
  /** False when the native path needs reference expansion the model lacks and no fallback was chosen. */
  readonly modelSupported: boolean;
  readonly model?: string;
  readonly searchToolAllowed: boolean;
  readonly mode: ResolvedMode;
  readonly deferredCount: number;
  readonly pendingServers: readonly string[];
  /** `auto` only: the measured size against the limit. */
  readonly threshold?: { readonly limit: number; readonly measure: TokenMeasure };
}

export function definitiveGate(input: DefinitiveGateInput): GateDecision {
  if (!input.optimistic.enabled) return input.optimistic;
  if (!input.modelSupported) {
    return { enabled: false, reason: `model ${input.model ?? '(unknown)'} does not support tool references` };
  }
  if (!input.searchToolAllowed) return { enabled: false, reason: 'the search tool is not allowed for this request' };
  if (input.deferredCount === 0) {
    if (input.pendingServers.length > 0) {
      return {
        enabled: true,
        reason: `no deferred tools yet; servers still connecting: ${input.pendingServers.join(', ')}`,
      };
    }
    return { enabled: false, reason: 'no deferred tools and no pending servers' };
  }
  if (input.mode.mode === 'auto' && input.threshold) {
    const { limit, measure } = input.threshold;
    if (measure.tokens < limit) {
      return {
        enabled: false,
        reason: `deferred tools are ${measure.tokens} tokens (${measure.source}), below the auto threshold of ${limit}`,
      };
    }
    return {
      enabled: true,
      reason: `deferred tools are ${measure.tokens} tokens (${measure.source}), at or above ${limit}`,
    };
  }
  return { enabled: true, reason: `${input.deferredCount} deferred tools` };
}
