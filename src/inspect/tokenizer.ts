/**
 * H2 — a real tokenizer for token accounting: OpenAI's o200k_base (bundled ranks, no network).
 * Anthropic publishes no tokenizer for current Claude models, so for Claude every offline count
 * is an estimate; exact Claude counts need the `messages.countTokens` API.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

export type TextTokenCounter = (text: string) => number;

export const o200kTokens: TextTokenCounter = (text) => encode(text).length;

export const TOKENIZER_NOTE =
  'o200k_base tokens (exact for OpenAI GPT-4o/4.1/5-family models; an estimate for Claude, whose tokenizer is not public).';
