/** C4 — `+term` in a keyword query: a term every result must match. */
import type { ToolSpec } from '../core/tool.js';
import { toolNameParts, wordBoundaryPattern } from './text.js';

/** C4: a required term must match a name part (substring), or the hint or description (word boundary). */
export function requiredTermFilter(tools: readonly ToolSpec[], required: readonly string[]): (name: string) => boolean {
  const patterns = required.map(wordBoundaryPattern);
  const accepted = new Set<string>();
  for (const tool of tools) {
    const parts = toolNameParts(tool);
    const ok = required.every(
      (term, i) =>
        parts.some((part) => part.includes(term)) ||
        patterns[i]!.test(tool.description) ||
        (tool.searchHint !== undefined && patterns[i]!.test(tool.searchHint)),
    );
    if (ok) accepted.add(tool.name);
  }
  return (name) => accepted.has(name);
}
