/**
 * G10 — what changed between the pinned and the held text of a tool, as lines an operator reads
 * before approving: each definition pretty-printed with its keys sorted, then a line diff
 * (`-` pinned only, `+` held only, two spaces both).
 *
 * A server picks how big its tools are, so the diff is bounded (G5): lines the two texts share at
 * their start and end are matched in one pass, a longest-common-subsequence match runs only on
 * the rest and only while that fits `maxCells` (else the rest is shown as removed then added),
 * runs of unchanged lines shrink to three lines of context around each change, and the output
 * stops at `maxLines` lines of at most `maxLineChars` characters. Control and invisible characters
 * are written out (`\u202e`), so a reviewer sees every character the model would read.
 */
import { visibleText } from '../util/terminal-text.js';
import { canonicalJson, type ToolDefinition } from './definition.js';

export interface DiffBounds {
  /** Lines of output at most (the last says how many more there were). */
  readonly maxLines: number;
  readonly maxLineChars: number;
  /** The LCS table's size at most (pinned lines × held lines left after the shared start and end). */
  readonly maxCells: number;
}

export const DIFF_BOUNDS: DiffBounds = { maxLines: 400, maxLineChars: 400, maxCells: 250_000 };

/** Unchanged lines shown before and after each change. */
const CONTEXT = 3;

export function definitionLines(definition: ToolDefinition | undefined): string[] {
  if (definition === undefined) return [];
  return JSON.stringify(JSON.parse(canonicalJson(definition)), null, 2)
    .split('\n')
    .map(visibleText);
}

/** A line diff of the two texts: every line of both, marked (unbounded output; see `boundedDiff`). */
export function diffLines(before: readonly string[], after: readonly string[], maxCells = Infinity): string[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const middle = middleDiff(before.slice(start, before.length - end), after.slice(start, after.length - end), maxCells);
  return [
    ...before.slice(0, start).map((line) => `  ${line}`),
    ...middle,
    ...before.slice(before.length - end).map((line) => `  ${line}`),
  ];
}

/** LCS when the table fits `maxCells`, else every pinned line removed and every held line added. */
function middleDiff(before: readonly string[], after: readonly string[], maxCells: number): string[] {
  const n = before.length;
  const m = after.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > maxCells)
    return [...before.map((line) => `- ${line}`), ...after.map((line) => `+ ${line}`)];
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * width + j] =
        before[i] === after[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      out.push(`  ${before[i++]}`);
      j++;
    } else if (j < m && (i === n || lcs[i * width + j + 1]! >= lcs[(i + 1) * width + j]!)) out.push(`+ ${after[j++]}`);
    else out.push(`- ${before[i++]}`);
  }
  return out;
}

/** Unchanged runs cut to CONTEXT lines around each change, lines cut, output cut at maxLines. */
export function boundedDiff(lines: readonly string[], bounds: DiffBounds = DIFF_BOUNDS): string[] {
  const changed = lines.map((line) => !line.startsWith('  '));
  const near = new Array<boolean>(lines.length).fill(false);
  for (const [index, isChange] of changed.entries()) {
    if (!isChange) continue;
    for (let k = Math.max(0, index - CONTEXT); k <= Math.min(lines.length - 1, index + CONTEXT); k++) near[k] = true;
  }
  const out: string[] = [];
  let skipped = 0;
  const flush = () => {
    if (skipped > 0) out.push(`  … ${skipped} unchanged ${skipped === 1 ? 'line' : 'lines'}`);
    skipped = 0;
  };
  for (const [index, line] of lines.entries()) {
    if (!near[index]) {
      skipped++;
      continue;
    }
    flush();
    out.push(line.length > bounds.maxLineChars ? `${line.slice(0, bounds.maxLineChars)} … [line cut]` : line);
  }
  flush();
  if (out.length <= bounds.maxLines) return out;
  const rest = out.length - bounds.maxLines + 1;
  return [
    ...out.slice(0, bounds.maxLines - 1),
    `… ${rest} more lines ("toolsearch tools diff … --full" prints the whole held text)`,
  ];
}

/** The bounded diff of a held definition against its pin (all `+` for a tool never pinned). */
export function definitionDiff(
  pinned: ToolDefinition | undefined,
  held: ToolDefinition,
  bounds: DiffBounds = DIFF_BOUNDS,
): string[] {
  return boundedDiff(diffLines(definitionLines(pinned), definitionLines(held), bounds.maxCells), bounds);
}
