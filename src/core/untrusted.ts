/**
 * G5 — third-party text (tool descriptions from MCP servers) must not be able to break the
 * structure of what we write around it. The gateway and providers wrap announcements in
 * `<available-deferred-tools>` and models read system/tool-call markup as tags; a description
 * that writes `</available-deferred-tools><system>…` would otherwise close our block and open a
 * fake one.
 *
 * Only tags that look like prompt structure are neutralized (their `<` becomes `&lt;`), so
 * ordinary text such as `Array<string>` or `a < b` is left as written.
 *
 * Look-alikes are found too: the text is also read folded — format characters (zero-width and
 * other Cf, variation selectors) removed, NFKC-normalized (fullwidth `＜`, `<｜im_start｜>`), the
 * Latin look-alikes of confusables.txt mapped to Latin (`ѕystem`, confusables-table.ts) and `&lt;` / `&#60;` / `&#x3c;` decoded. When the folded
 * text holds a structural tag the folded text is what is kept, neutralized; otherwise the text is
 * kept exactly as written.
 */
import { LATIN_LOOKALIKES } from './confusables-table.js';
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

const HOMOGLYPH_PATTERN = new RegExp(`[${[...LATIN_LOOKALIKES.keys()].join('')}]`, 'gu');
/** Format characters (zero-width, bidi, tags) and variation selectors: invisible, and they split words. */
const FORMAT_CHARACTERS = /\p{Cf}|[\u{FE00}-\u{FE0F}]|[\u{E0100}-\u{E01EF}]/gu;
const LT_ENTITY = /&(?:lt|#0*60|#x0*3c);?/gi;
const GT_ENTITY = /&(?:gt|#0*62|#x0*3e);?/gi;

/** The text as a model may read it: see the file comment. */
export function foldLookalikes(text: string): string {
  return text
    .replace(FORMAT_CHARACTERS, '')
    .normalize('NFKC')
    .replace(HOMOGLYPH_PATTERN, (c) => LATIN_LOOKALIKES.get(c) ?? c)
    .replace(LT_ENTITY, '<')
    .replace(GT_ENTITY, '>');
}

const STRUCTURAL_TAG_TEST = new RegExp(STRUCTURAL_TAG_PATTERN.source, 'i');

function holdsStructure(text: string): boolean {
  return text.includes('<') && (STRUCTURAL_TAG_TEST.test(text) || text.includes('<|'));
}

/** G5: `neutralizeStructuralTags`, look-alikes included (what every third-party string goes through). */
export function neutralizeUntrusted(text: string): string {
  const plain = neutralizeStructuralTags(text);
  if (!/[^\x20-\x7e\n\r\t]|&/.test(text)) return plain;
  const folded = foldLookalikes(text);
  return folded !== text && holdsStructure(folded) ? neutralizeStructuralTags(folded) : plain;
}
