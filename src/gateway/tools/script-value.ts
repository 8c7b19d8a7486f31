/**
 * G11 — what a script's `call()` resolves with: a tool's structured content when it has some,
 * otherwise its text (parsed when it is JSON; several text blocks give an array); other content
 * (images, audio, resources) is described, not carried. A tool error becomes a thrown error.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

export function scriptValue(name: string, result: CallToolResult): unknown {
  if (result.isError === true) throw new Error(`Tool "${name}" failed: ${textOf(result) || 'no message'}`);
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content.map(blockValue);
  return blocks.length === 1 ? blocks[0] : blocks;
}

function blockValue(block: CallToolResult['content'][number]): unknown {
  if (block.type === 'text') return parsedText(block.text);
  if (block.type === 'resource') return { type: 'resource', uri: block.resource.uri };
  if (block.type === 'resource_link') return { type: 'resource_link', uri: block.uri, name: block.name };
  return { type: block.type, ...('mimeType' in block && { mimeType: block.mimeType }) };
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

function textOf(result: CallToolResult): string {
  return result.content
    .filter((b): b is Extract<typeof b, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}
