/**
 * C15 — "Did you mean …" for a tool name that is not in the catalog, so a near miss costs one step:
 * a typo (`mcp__filesystem__read_flie`), a missing server prefix (`read_text_file`), another
 * separator (`filesystem.read_file`, `filesystem/read-file`, `mcp-filesystem-read_file`).
 *
 * The closest names, in this order:
 * 1. the same name once case and separators are set aside (`filesystem.read_file` is
 *    `mcp__filesystem__read_file`, and so is the server's own name for it without the prefix);
 * 2. names within a typo of it (`maxEdits`: 1 edit for up to 4 characters, else 2; a swap of two
 *    neighbouring letters is one), fewer edits first;
 * 3. what the search ranks first for the name's words (the same scorer `tool_search` uses), so
 *    `filesystem.open_file` still reaches `read_text_file`.
 * Bounded: the name is read up to `NAME_CHARS`, and edit distances are computed in a band, so a
 * hostile name costs at most O(tools × name length).
 */
import { compactToolLine, type CompactToolInput } from '../core/compact-tool.js';
import { MCP_PREFIX } from '../core/names.js';
import { SEARCH_TOOL_NAME } from '../core/search-tool.js';
import type { ToolSpec } from '../core/tool.js';
import { neutralizeUntrusted } from '../core/untrusted.js';

/** Suggestions named at most. */
export const DID_YOU_MEAN = 3;
/** Characters of a requested name read for matching. */
export const NAME_CHARS = 128;

/** The scorer's ranking for a text (the default searcher over the same pool), best first. */
export type RankNames = (text: string, limit: number) => readonly string[];

/** The closest tool names to `name`, best first (none when nothing is close). */
export function closestToolNames(
  name: string,
  tools: readonly Pick<ToolSpec, 'name' | 'originalName'>[],
  rank?: RankNames,
  limit: number = DID_YOU_MEAN,
): string[] {
  const wanted = normalizeName(name.slice(0, NAME_CHARS));
  if (wanted === '') return [];
  const budget = maxEdits(wanted.length);
  const scored: { name: string; edits: number; order: number }[] = [];
  tools.forEach((tool, order) => {
    let best = Number.POSITIVE_INFINITY;
    for (const form of formsOf(tool)) {
      const edits = boundedEdits(wanted, form, Math.min(budget, best));
      if (edits < best) best = edits;
      if (best === 0) break;
    }
    if (best <= budget) scored.push({ name: tool.name, edits: best, order });
  });
  scored.sort((a, b) => a.edits - b.edits || a.order - b.order);
  const out = scored.slice(0, limit).map((s) => s.name);
  if (out.length < limit && rank) {
    for (const hit of rank(nameWords(name), limit)) {
      if (out.length >= limit) break;
      if (!out.includes(hit)) out.push(hit);
    }
  }
  return out;
}

/** A name as search words (`mcp__github__open_issue` → `github open issue`): what the scorer is asked. */
export function nameWords(name: string): string {
  return normalizeName(name.slice(0, NAME_CHARS)).replace(/_/g, ' ').replace(/^mcp /, '');
}

/** Lowercase, every run of separators (`_`, `.`, `/`, `-`, `:`, spaces) as one `_`. */
export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Edits allowed for a name of this length (after normalizing). */
export function maxEdits(length: number): number {
  return length <= 4 ? 1 : 2;
}

/**
 * A tool's name forms, normalized once per tool object: keyed by the object, not by the list, so a
 * list changed in place can never answer with another tool's forms.
 */
const formCache = new WeakMap<object, string[]>();

function formsOf(tool: Pick<ToolSpec, 'name' | 'originalName'>): string[] {
  let forms = formCache.get(tool);
  if (!forms) formCache.set(tool, (forms = nameForms(tool)));
  return forms;
}

/** A tool as a model may write it: its full name, without `mcp__`, and the server's own name. */
function nameForms(tool: Pick<ToolSpec, 'name' | 'originalName'>): string[] {
  const full = normalizeName(tool.name);
  const forms = [full];
  if (tool.name.startsWith(MCP_PREFIX)) forms.push(normalizeName(tool.name.slice(MCP_PREFIX.length)));
  if (tool.originalName !== undefined) forms.push(normalizeName(tool.originalName));
  return forms;
}

/**
 * Optimal string alignment distance (adjacent swaps count one), or `max + 1` as soon as it must
 * exceed `max`: a band of width 2·max+1 around the diagonal, so the cost is O(length × max).
 */
export function boundedEdits(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) return over;
  const width = b.length + 1;
  if (scratch.length < 3 * width) scratch = new Int32Array(3 * width * 2);
  // Three rows in one buffer, rotated: two rows back (for swaps), the last one, this one.
  let prevPrev = 0;
  let prev = width;
  let row = 2 * width;
  for (let j = 0; j < width; j++) scratch[prev + j] = j <= max ? j : over;
  for (let i = 1; i <= a.length; i++) {
    scratch.fill(over, row, row + width);
    scratch[row] = i <= max ? i : over;
    let rowMin = scratch[row]!;
    const to = Math.min(b.length, i + max);
    for (let j = Math.max(1, i - max); j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(scratch[prev + j]! + 1, scratch[row + j - 1]! + 1, scratch[prev + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, scratch[prevPrev + j - 2]! + 1);
      scratch[row + j] = Math.min(d, over);
      if (scratch[row + j]! < rowMin) rowMin = scratch[row + j]!;
    }
    if (rowMin > max) return over;
    [prevPrev, prev, row] = [prev, row, prevPrev];
  }
  return Math.min(scratch[prev + b.length]!, over);
}

/** The rows of `boundedEdits`, reused: a near-miss check over 10,000 tools allocates nothing per tool. */
let scratch = new Int32Array(256);

/**
 * C15: the answer to a call of a name that is not there — one line a model acts on: the closest
 * name with its signature (so the next call can be right), the other close names, and that nothing
 * ran. Without a close name, where to look instead.
 */
export function unknownToolText(
  name: string,
  suggestions: readonly CompactToolInput[],
  searchTool: string = SEARCH_TOOL_NAME,
): string {
  const asked = JSON.stringify(neutralizeUntrusted(name.slice(0, NAME_CHARS)));
  const [first, ...rest] = suggestions;
  const head = `Tool ${asked} is not available here, so nothing was run.`;
  if (!first) return `${head} Search with ${searchTool} to see what is available.`;
  const others = rest.length > 0 ? ` Other close names: ${rest.map((t) => t.name).join(', ')}.` : '';
  return `${head} Did you mean ${compactToolLine(first)}?${others} Call it again by its exact name.`;
}
