/**
 * G11 — what a script's `call()` resolves with: a tool's structured content when it has some,
 * otherwise its text (parsed when it is JSON; several text blocks give an array); other content
 * (images, audio, resources) is described, not carried. A tool error becomes a thrown error.
 */

/** An MCP tool result, structurally (the core imports no SDK). */
export interface ToolResultLike {
  readonly content: readonly ContentBlockLike[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
}

type ContentBlockLike =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'resource'; readonly resource: { readonly uri: string } }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name?: string }
  | { readonly type: 'image' | 'audio'; readonly mimeType?: string };

export function scriptValue(name: string, result: ToolResultLike): unknown {
  if (result.isError === true) throw new Error(errorText(name, textOf(result)));
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content.map(blockValue);
  return blocks.length === 1 ? blocks[0] : blocks;
}

function blockValue(block: ContentBlockLike): unknown {
  if (block.type === 'text') return parsedText(block.text);
  if (block.type === 'resource') return { type: 'resource', uri: block.resource.uri };
  if (block.type === 'resource_link') return { type: 'resource_link', uri: block.uri, name: block.name };
  return { type: block.type, ...(block.mimeType !== undefined && { mimeType: block.mimeType }) };
}

function parsedText(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{"]|^-?\d|^(true|false|null)$/.test(trimmed)) return text;
  try {
    return JSON.parse(trimmed);
  } catch {
    return text;
  }
}

/**
 * The thrown message: the tool's error text, named. The gateway's own refusals (held, not for this
 * client, unknown) already start with the tool's name; they are kept as they are, not named twice.
 */
function errorText(name: string, text: string): string {
  if (text.startsWith(`Tool "${name}" `)) return text;
  return `Tool "${name}" failed: ${text || 'no message'}`;
}

function textOf(result: ToolResultLike): string {
  return result.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/** Whether a tool's return value has an MCP result's shape (a `content` array). */
export function isToolResultLike(value: unknown): value is ToolResultLike {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}
