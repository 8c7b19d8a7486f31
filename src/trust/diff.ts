/**
 * G10 — what changed between the pinned and the held text of a tool, as lines an operator reads
 * before approving: each definition pretty-printed with its keys sorted, then a line diff
 * (`-` pinned only, `+` held only, two spaces both).
 */
import { canonicalJson, type ToolDefinition } from './definition.js';

export function definitionLines(definition: ToolDefinition | undefined): string[] {
  if (definition === undefined) return [];
  return JSON.stringify(JSON.parse(canonicalJson(definition)), null, 2).split('\n');
}

/** A longest-common-subsequence line diff; definitions are small, so O(n·m) is fine. */
export function diffLines(before: readonly string[], after: readonly string[]): string[] {
  const n = before.length;
  const m = after.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      out.push(`  ${before[i++]}`);
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) out.push(`+ ${after[j++]}`);
    else out.push(`- ${before[i++]}`);
  }
  return out;
}

/** The diff of a held definition against its pin (all `+` for a tool never pinned). */
export function definitionDiff(pinned: ToolDefinition | undefined, held: ToolDefinition): string[] {
  return diffLines(definitionLines(pinned), definitionLines(held));
}
