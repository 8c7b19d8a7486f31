/**
 * G5 — third-party text (tool descriptions from MCP servers) must not be able to break the
 * structure of what we write around it. The gateway and providers wrap announcements in
 * `<available-deferred-tools>` and models read system/tool-call markup as tags; a description
 * that writes `</available-deferred-tools><system>…` would otherwise close our block and open a
 * fake one.
 *
 * Only tags that look like prompt structure are neutralized (their `<` becomes `&lt;`), so
 * ordinary text such as `Array<string>` or `a < b` is left as written.
 */
import { ANNOUNCE_TAG, DELTA_TAG, LOADED_TAG, SNAPSHOT_TAG } from './markers.js';

/** Tag names (lowercase) that frame prompts, tool calls or our own announcements. */
const STRUCTURAL_TAGS = [
  // Ours: discovery state is read back from the conversation (D1), so these must not be forgeable.
  ANNOUNCE_TAG,
  DELTA_TAG,
  LOADED_TAG,
  SNAPSHOT_TAG,
  'system',
  'system-reminder',
  'system_prompt',
  'instructions',
  'user',
  'assistant',
  'human',
  'functions',
  'function',
  'function_calls',
  'function_results',
  'invoke',
  'parameter',
  'tool',
  'tools',
  'tool_use',
  'tool_result',
  'tool_call',
  'tool_calls',
  'tool_response',
  'im_start',
  'im_end',
];

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `<tag`, `</tag`, `< /tag`, with or without a namespace prefix (`<invoke`), any case. */
const STRUCTURAL_TAG_PATTERN = new RegExp(
  `<(\\s*/?\\s*(?:[A-Za-z][\\w-]*:)?(?:${STRUCTURAL_TAGS.map(escapeRegex).join('|')})(?![\\w-]))`,
  'gi',
);

/** Chat-template markers such as `<|im_start|>` and `<|system|>`. */
const SPECIAL_TOKEN_PATTERN = /<\|/g;

export function neutralizeStructuralTags(text: string): string {
  if (!text.includes('<')) return text;
  return text.replace(STRUCTURAL_TAG_PATTERN, '&lt;$1').replace(SPECIAL_TOKEN_PATTERN, '&lt;|');
}
