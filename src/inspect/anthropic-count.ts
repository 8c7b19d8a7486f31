/**
 * H2 with exact Claude numbers: the same first-request comparison as `inspectPool`, counted by
 * Anthropic's `messages.countTokens` instead of an offline tokenizer. Used by `inspect` when an
 * API key is given; any failure is reported and the offline estimate stands.
 */
import { plan } from '../core/plan.js';
import type { PoolView } from '../core/catalog.js';
import { anthropicTokenCounter, type AnthropicCountingClient } from '../providers/anthropic/tokens.js';

export interface ExactAnthropicCounts {
  readonly model: string;
  /** Tokens the tools add to a request when every schema is sent. */
  readonly eagerTokens: number;
  /** Tokens the deferred first request adds: search tool, always-loaded tools, announcement. */
  readonly deferredTokens: number;
  readonly savings: number;
}

export async function countAnthropicExact(
  client: AnthropicCountingClient,
  model: string,
  pool: PoolView,
): Promise<ExactAnthropicCounts> {
  const countTools = anthropicTokenCounter(client, model);
  const deferredPlan = plan({ tools: pool.tools, pendingServers: pool.pendingServers, option: 'always' });
  const probe = (text: string) =>
    client.messages.countTokens({ model, messages: [{ role: 'user', content: text }] }).then((r) => r.input_tokens);
  const announcementText = deferredPlan.announcement?.text;
  const [eagerTokens, visibleTokens, withAnnouncement, without] = await Promise.all([
    countTools(pool.tools),
    countTools(deferredPlan.visibleTools),
    announcementText ? probe(`.\n${announcementText}`) : Promise.resolve(0),
    announcementText ? probe('.') : Promise.resolve(0),
  ]);
  const deferredTokens = visibleTokens + Math.max(0, withAnnouncement - without);
  return {
    model,
    eagerTokens,
    deferredTokens,
    savings: eagerTokens > 0 ? Math.max(0, 1 - deferredTokens / eagerTokens) : 0,
  };
}

/** An Anthropic client from the optional peer dependency, or a clear error saying how to get one. */
export async function createAnthropicClient(apiKey: string, baseURL?: string): Promise<AnthropicCountingClient> {
  let mod: { default: new (options: { apiKey: string; baseURL?: string }) => AnthropicCountingClient };
  try {
    mod = (await import('@anthropic-ai/sdk')) as unknown as typeof mod;
  } catch {
    throw new Error('exact Claude counts need the optional dependency @anthropic-ai/sdk: npm i @anthropic-ai/sdk');
  }
  return new mod.default({ apiKey, ...(baseURL !== undefined && { baseURL }) });
}
