/**
 * G10 — `toolSearch.trust.markResults`: a tool's result, its text content marked where the
 * scanner's rules see orders for the model or hidden characters (trust/result-marks.ts). Other
 * content (images, resources, structured content) passes unchanged.
 */
import { markSuspicious } from '../trust/result-marks.js';
import type { UpstreamCallResult } from './connection.js';

/** The result with its text marked when `enabled` is true (else as it came: off unless opted in). */
export function markedResult(result: UpstreamCallResult, enabled: boolean | undefined): UpstreamCallResult {
  if (enabled !== true || !Array.isArray(result.content)) return result;
  let marks = 0;
  const content = result.content.map((item: unknown) => {
    if (item === null || typeof item !== 'object') return item;
    const block = item as { type?: unknown; text?: unknown };
    if (block.type !== 'text' || typeof block.text !== 'string') return item;
    const marked = markSuspicious(block.text);
    marks += marked.marks;
    return marked.marks > 0 ? { ...block, text: marked.text } : item;
  });
  return marks > 0 ? { ...result, content } : result;
}
