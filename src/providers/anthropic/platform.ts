/**
 * Where an Anthropic client sends its requests, and what that platform needs for tool search.
 *
 * Beta headers (Anthropic's tool search page, https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool,
 * read 2026-11-23: "Claude API, Microsoft Foundry: advanced-tool-use-2025-11-20; Google Cloud's
 * Vertex AI, Amazon Bedrock: tool-search-tool-2025-10-19"; on Bedrock "only via the invoke API, not
 * the converse API"). That table is from the beta period. With `@anthropic-ai/sdk` 1.x, tool search
 * is part of the GA Messages types (`defer_loading`, `ToolSearchToolRegex20251119`,
 * `ToolReferenceBlockParam` in `resources/messages`) and `advanced-tool-use-2025-11-20` is no
 * longer among the SDK's `AnthropicBeta` values, so the first-party API (and Foundry, which the
 * docs group with it) gets no header; Bedrock and Vertex get the header their docs name. The
 * peer range (`@anthropic-ai/sdk >=1.12.0`) guarantees that GA surface; on the beta-only SDKs
 * (< 0.80) the first-party API needed `advanced-tool-use-2025-11-20`, which `betas` can still send.
 * `betas` in the adapter's options overrides this per platform.
 */
import { FIRST_PARTY_HOSTS } from '../../core/gates.js';

/** `proxy`: any other host (a gateway or router); B5 treats it as unproven. */
export type AnthropicPlatform = 'anthropic' | 'bedrock' | 'vertex' | 'foundry' | 'proxy';

export const TOOL_SEARCH_BETAS: Readonly<Record<AnthropicPlatform, readonly string[]>> = {
  anthropic: [],
  foundry: [],
  bedrock: ['tool-search-tool-2025-10-19'],
  vertex: ['tool-search-tool-2025-10-19'],
  proxy: [],
};

/** The platform a client's base URL points at (no URL: the SDK's default, the first-party API). */
export function detectAnthropicPlatform(
  baseURL: string | undefined,
  firstPartyHosts: readonly string[] = FIRST_PARTY_HOSTS,
): AnthropicPlatform {
  if (!baseURL) return 'anthropic';
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return 'proxy';
  }
  if (firstPartyHosts.includes(host)) return 'anthropic';
  if (/^bedrock-runtime(?:-fips)?\.[a-z0-9-]+\.amazonaws\.com$/.test(host)) return 'bedrock';
  if (host === 'aiplatform.googleapis.com' || host.endsWith('-aiplatform.googleapis.com')) return 'vertex';
  if (host.endsWith('.services.ai.azure.com')) return 'foundry';
  return 'proxy';
}

/** The `anthropic-beta` header for a request that uses native tool search, or none. */
export function toolSearchHeaders(betas: readonly string[]): Record<string, string> | undefined {
  const unique = [...new Set(betas)];
  return unique.length ? { 'anthropic-beta': unique.join(',') } : undefined;
}
