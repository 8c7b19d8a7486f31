/**
 * Text helpers shared by the rankers: identifier splitting, word tokens, word-boundary tests.
 * Pure functions over strings; no ranker policy here.
 */
import type { ToolSpec } from '../core/tool.js';
import { MCP_PREFIX } from '../core/names.js';

/** Runs of Unicode letters and digits (the `[^\W_]+` of the data README, Unicode-aware). */
const WORD = /[\p{L}\p{N}]+/gu;

const ASCII_WORD = /[a-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A copy of `text` that shares no characters with the string it was cut from. A slice of a long
 * string can keep the whole parent alive; what outlives a request (memo keys, a cut query) is
 * copied so a multi-megabyte request is not retained for a few words of it.
 */
export function ownCopy(text: string): string {
  // Short strings are copied by the engine anyway; `join` builds a fresh flat string.
  return text.length < 13 ? text : text.split('').join('');
}

/** Lowercased word tokens of free text. ASCII text takes a faster regex with the same result. */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  return lower.match(NON_ASCII.test(lower) ? WORD : ASCII_WORD) ?? [];
}

/**
 * Split an identifier into lowercased parts: on `__`, `_`, `-`, `.`, `/`, spaces and camelCase
 * (`NotebookEdit` → notebook, edit; `getHTTPResponse` → get, http, response).
 */
export function identifierParts(identifier: string): string[] {
  // Same splits; the ASCII regexes (no `u` flag) are several times faster on the common case.
  const spaced = NON_ASCII.test(identifier)
    ? identifier.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    : identifier.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return words(spaced);
}

/** The tool's own name as its source spells it (before qualification and provider-safety). */
export function sourceName(tool: ToolSpec): string {
  if (tool.originalName !== undefined) return tool.originalName;
  if (tool.origin.kind === 'mcp') {
    const prefix = `${MCP_PREFIX}${tool.origin.server}__`;
    if (tool.name.startsWith(prefix)) return tool.name.slice(prefix.length);
  }
  return tool.name;
}

/**
 * Name parts as Claude Code's parser sees them: `mcp__slack__send_message` → slack, send,
 * message. Built from server + source name, so a provider-safety hash never becomes a part.
 */
export function toolNameParts(tool: ToolSpec): string[] {
  const server = tool.origin.kind === 'mcp' ? identifierParts(tool.origin.server) : [];
  return [...server, ...identifierParts(sourceName(tool))];
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A compiled `\bterm\b` test. `\b` only knows ASCII word characters, so terms that start or end
 * with another character (CJK, accents, punctuation) fall back to Unicode-aware lookarounds.
 */
export function wordBoundaryPattern(term: string): RegExp {
  if (/^\w(.*\w)?$/s.test(term) && /^[\x00-\x7f]*$/.test(term)) return new RegExp(`\\b${escapeRegExp(term)}\\b`, 'i');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(term)}(?![\\p{L}\\p{N}_])`, 'iu');
}

/** Top-level parameter names and their descriptions of a tool's input schema. */
export function schemaParameters(tool: ToolSpec): { name: string; description: string }[] {
  const properties = tool.inputSchema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.entries(properties).map(([name, value]) => {
    const description =
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { description?: unknown }).description === 'string'
        ? (value as { description: string }).description
        : '';
    return { name, description };
  });
}

/** Most enum values of one parameter that are indexed (a long enum is a code list, not words). */
export const MAX_ENUM_VALUES = 12;

/**
 * C14: the string values a tool's parameters accept (`state: open | closed`): the words a request
 * uses for what the tool does ("close issue 88" → update_issue with state closed). Short values of
 * short enums only.
 */
export function parameterValues(tool: ToolSpec): string[] {
  const properties = tool.inputSchema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const out: string[] = [];
  for (const value of Object.values(properties)) {
    const values = typeof value === 'object' && value !== null ? (value as { enum?: unknown }).enum : undefined;
    if (!Array.isArray(values) || values.length > MAX_ENUM_VALUES) continue;
    for (const v of values) if (typeof v === 'string' && v.length <= 32) out.push(v);
  }
  return out;
}
