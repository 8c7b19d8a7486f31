/**
 * Text markers through which discovery state lives in the conversation itself (D1): the
 * announcement list (E1), its deltas (E2), the loaded-tools record of a search result, and the
 * compaction snapshot (D2). One codec so writers and readers cannot drift apart.
 */

export const ANNOUNCE_TAG = 'available-deferred-tools';
export const DELTA_TAG = 'deferred-tools-delta';
export const LOADED_TAG = 'tools-loaded';
/** E5: tools a bounded working set let go at a search (their provider withdraws them, e.g. F9's `tool_removal`). */
export const UNLOADED_TAG = 'tools-unloaded';
export const SNAPSHOT_TAG = 'discovered-tools-snapshot';

export const DELTA_ADDED_HEADER = 'Now available:';
export const DELTA_REMOVED_HEADER = 'No longer available:';

/**
 * G5: the discovery markers (`<tools-loaded>`, the compaction snapshot) add tools to a
 * conversation, so text a third party wrote (a fetched web page in a tool result) must not be
 * able to forge one. Each carries this per-process nonce and only blocks carrying it are read; a
 * conversation replayed by another process re-discovers its tools by searching again.
 */
export const MARKER_NONCE: string = globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16);

/** The attribute a discovery marker carries (see MARKER_NONCE). */
export function nonceAttr(): string {
  return `n="${MARKER_NONCE}"`;
}

/** Whether a block's attributes carry this process's nonce. */
export function carriesNonce(attrs: string): boolean {
  return attrs.includes(nonceAttr());
}

export function wrapTag(tag: string, lines: readonly string[], attrs = ''): string {
  return `<${tag}${attrs ? ` ${attrs}` : ''}>\n${lines.join('\n')}${lines.length ? '\n' : ''}</${tag}>`;
}

export interface TagBlock {
  readonly attrs: string;
  readonly lines: string[];
}

/** Every block `<tag ...>…</tag>` in a text, with its non-empty trimmed lines. */
export function readTagBlocks(text: string, tag: string): TagBlock[] {
  if (!text.includes(`<${tag}`)) return [];
  const pattern = new RegExp(`<${tag}(?:\\s([^>]*))?>([\\s\\S]*?)</${tag}>`, 'g');
  const blocks: TagBlock[] = [];
  for (const match of text.matchAll(pattern)) {
    const lines = (match[2] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.length > 0);
    blocks.push({ attrs: match[1] ?? '', lines });
  }
  return blocks;
}
