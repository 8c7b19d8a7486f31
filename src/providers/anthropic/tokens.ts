/**
 * B3 — exact deferred-tool token counts from Anthropic's counting API, as a core TokenCounter.
 * The counter returns what the tools add to a minimal request (preamble included); the
 * DeferredTokenMemo subtracts the fixed preamble and falls back to the estimate on any failure.
 */
import type { MessageCountTokensParams, MessageTokensCount } from '@anthropic-ai/sdk/resources/messages';
import type { TokenCounter } from '../../core/threshold.js';
import { toAnthropicTool } from './wire.js';

/** The part of an Anthropic client the counter uses (`new Anthropic()` fits). */
export interface AnthropicCountingClient {
  readonly messages: { countTokens(params: MessageCountTokensParams): PromiseLike<MessageTokensCount> };
}

const PROBE: MessageCountTokensParams['messages'] = [{ role: 'user', content: '.' }];

export function anthropicTokenCounter(client: AnthropicCountingClient, model: string): TokenCounter {
  let baseline: Promise<number> | undefined;
  const countWithout = (): Promise<number> => {
    baseline ??= Promise.resolve(client.messages.countTokens({ model, messages: PROBE })).then((r) => r.input_tokens);
    // A failed baseline is retried next time rather than cached.
    baseline.catch(() => (baseline = undefined));
    return baseline;
  };
  return async (tools) => {
    const [withTools, without] = await Promise.all([
      client.messages
        .countTokens({ model, messages: PROBE, tools: tools.map((t) => toAnthropicTool(t)) })
        .then((r) => r.input_tokens),
      countWithout(),
    ]);
    return Math.max(0, withTools - without);
  };
}
