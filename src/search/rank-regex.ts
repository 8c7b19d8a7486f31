/**
 * C7 — regex mode, as Anthropic's server-side `tool_search_tool_regex`: the query is a pattern
 * (at most 200 characters, always case-insensitive) matched against each deferred tool's name,
 * description, argument names and argument descriptions. Tools that match are returned in pool
 * order, name matches first. Patterns run on SafeRegex (linear time), so none can hang the process.
 */
import type { ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';
import type { Ranker, RankerIndex, RankedTool } from './ranker.js';
import { SafeRegex, UnsupportedPatternError } from './safe-regex.js';
import { schemaParameters, sourceName } from './text.js';

export const MAX_REGEX_LENGTH = 200;
/** Each searched field is cut to this many characters: bounds the work per tool. */
export const MAX_REGEX_SUBJECT = 10_000;

interface RegexEntry {
  name: string;
  nameFields: string[];
  otherFields: string[];
}

function entryOf(tool: ToolSpec): RegexEntry {
  const cut = (text: string) => text.slice(0, MAX_REGEX_SUBJECT);
  const parameters = schemaParameters(tool);
  return {
    name: tool.name,
    nameFields: [tool.name, sourceName(tool)].map(cut),
    otherFields: [tool.description, ...parameters.map((p) => p.name), ...parameters.map((p) => p.description)]
      .filter((f) => f !== '')
      .map(cut),
  };
}

/** Why a pattern cannot be used, or undefined when it can. */
export function validateRegexPattern(pattern: string): string | undefined {
  if (pattern.length === 0) return 'empty pattern';
  if (pattern.length > MAX_REGEX_LENGTH) return `pattern longer than ${MAX_REGEX_LENGTH} characters`;
  try {
    new SafeRegex(pattern);
    return undefined;
  } catch (error) {
    return error instanceof UnsupportedPatternError ? `invalid pattern: ${error.message}` : String(error);
  }
}

class RegexIndex implements RankerIndex {
  constructor(private readonly entries: RegexEntry[]) {}

  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[] {
    if (validateRegexPattern(query.text) !== undefined) return [];
    const regex = new SafeRegex(query.text);
    const byName: RankedTool[] = [];
    const byOther: RankedTool[] = [];
    for (const entry of this.entries) {
      if (byName.length >= limit) break;
      if (accept && !accept(entry.name)) continue;
      if (entry.nameFields.some((f) => regex.test(f))) byName.push({ name: entry.name, score: 2 });
      else if (byName.length + byOther.length < limit && entry.otherFields.some((f) => regex.test(f))) {
        byOther.push({ name: entry.name, score: 1 });
      }
    }
    return [...byName, ...byOther].slice(0, limit);
  }
}

export function regexRanker(): Ranker & { validate: (pattern: string) => string | undefined } {
  return { name: 'regex', build: (tools) => new RegexIndex(tools.map(entryOf)), validate: validateRegexPattern };
}
