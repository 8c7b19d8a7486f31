/**
 * What the model is told about searching, decided in one place per search mode so the
 * announcement, the "not loaded" error and any hint can never name a tool or a query form the
 * request does not have:
 *
 * - `client`: our own `tool_search` (select:, mcp__<server>, keywords).
 * - `regex`: Anthropic's server-side `tool_search_tool_regex` — a Python `re.search()` pattern of
 *   at most 200 characters over names, descriptions and argument names/descriptions.
 * - `bm25`: Anthropic's server-side `tool_search_tool_bm25` — a natural-language query.
 *
 * Query forms for the server modes follow Anthropic's tool search page ("Regex variant query
 * format: Python regex, NOT natural language"; "BM25 variant query format: Natural language").
 */
import { SEARCH_TOOL_NAME } from './search-tool.js';

export type SearchToolMode = 'client' | 'regex' | 'bm25';

/** Anthropic's names for its server-side search tools (the wire contract, F1). */
export const SERVER_SEARCH_TOOL_NAMES = { regex: 'tool_search_tool_regex', bm25: 'tool_search_tool_bm25' } as const;

export interface SearchInstructions {
  readonly mode: SearchToolMode;
  /** The search tool the request carries. */
  readonly toolName: string;
  /** First line of the name-list announcement (E1). */
  readonly listIntro: string;
  /** First line of the grouped announcement (E3). */
  readonly groupedIntro: (count: number) => string;
  /** E4: the one line that stands for the servers the budget left unnamed. */
  readonly moreServers: (count: number) => string;
  /** F3: how to load one named tool, as a sentence with the exact call. */
  readonly loadFirst: (toolName: string) => string;
}

/** A BM25 query for one tool: its name with separators as spaces ("mcp__slack__send_message" → "mcp slack send message"). */
export function nameAsWords(name: string): string {
  return name.replace(/[_\-.]+/g, ' ').trim();
}

/** A regex that finds exactly this name (names are [A-Za-z0-9_-], but escape anyway). */
export function nameAsPattern(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function servers(count: number): string {
  return count === 1 ? 'server' : 'servers';
}

export function searchInstructions(
  mode: SearchToolMode = 'client',
  clientToolName: string = SEARCH_TOOL_NAME,
): SearchInstructions {
  switch (mode) {
    case 'client': {
      const tool = clientToolName;
      return {
        mode,
        toolName: tool,
        listIntro: `These tools are available but not loaded. Load one with ${tool} (e.g. "select:<name>") before calling it.`,
        groupedIntro: (count) =>
          `${count} tools are available but not loaded, too many to list by name. ` +
          `Search for a capability with ${tool} (keywords), or load a server's tools with "mcp__<server>".`,
        moreServers: (count) =>
          `… and ${count} more ${servers(count)}: search by what the tool does, or list a server with "mcp__<server>".`,
        loadFirst: (name) => `Load it first with ${tool}({"query": "select:${name}"}), then call it again.`,
      };
    }
    case 'regex': {
      const tool = SERVER_SEARCH_TOOL_NAMES.regex;
      return {
        mode,
        toolName: tool,
        listIntro:
          `These tools are available but not loaded. Load one by searching with ${tool}: the query is a Python regular ` +
          `expression (at most 200 characters), e.g. {"query": "<name>"} or {"query": "(?i)slack"}.`,
        groupedIntro: (count) =>
          `${count} tools are available but not loaded, too many to list by name. Search for them with ${tool}: the query ` +
          `is a Python regular expression over names and descriptions, e.g. {"query": "(?i)weather|forecast"}, or {"query": "mcp__<server>__"} for one server's tools.`,
        moreServers: (count) =>
          `… and ${count} more ${servers(count)}: search by what the tool does, or list a server's tools with {"query": "mcp__<server>"}.`,
        loadFirst: (name) => `Load it first with ${tool}({"query": "${nameAsPattern(name)}"}), then call it again.`,
      };
    }
    case 'bm25': {
      const tool = SERVER_SEARCH_TOOL_NAMES.bm25;
      return {
        mode,
        toolName: tool,
        listIntro:
          `These tools are available but not loaded. Load one by searching with ${tool}: the query is natural language ` +
          `describing what the tool does or naming it, e.g. {"query": "send a slack message"}.`,
        groupedIntro: (count) =>
          `${count} tools are available but not loaded, too many to list by name. Search for a capability with ${tool} ` +
          `in natural language, e.g. {"query": "weather forecast for a city"}.`,
        moreServers: (count) =>
          `… and ${count} more ${servers(count)}: search by what the tool does, or by a server's name.`,
        loadFirst: (name) => `Load it first with ${tool}({"query": "${nameAsWords(name)}"}), then call it again.`,
      };
    }
  }
}
