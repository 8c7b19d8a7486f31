/**
 * C12 — never empty-handed: when a keyword search finds nothing, or nothing it is sure of, the
 * result names the servers most likely to hold the tool, each with a one-line summary, and says
 * how to list one (`mcp__<server>`). Browsing a server is the model's way out when its words and
 * the tool's words never meet.
 */
import { neutralizeUntrusted } from '../core/untrusted.js';
import { MCP_PREFIX } from '../core/names.js';
import type { ServerInfo, ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';
import type { RankerIndex } from './ranker.js';
import { sourceName } from './text.js';

/** How many servers a weak search suggests. */
export const SUGGESTED_SERVERS = 3;
/**
 * A keyword search is weak when its best hit contains less than this share of the query's own
 * words (C12). Measured on the shared sets in bench/README.md ("Never empty-handed").
 */
export const LOW_CONFIDENCE = 0.5;
/** A server summary longer than this is cut: one line each. */
const SUMMARY_CHARS = 120;

export interface SuggestedServer {
  readonly server: string;
  /** One line: the server's own title/description when it gave one, else a count and a few tool names. */
  readonly summary: string;
  /** Its tools that match the query best (model-facing names). */
  readonly tools: readonly string[];
}

/** Is this result weak enough to add server suggestions? No hit, or a best hit that covers too little. */
export function isLowConfidence(
  index: RankerIndex,
  query: ParsedQuery,
  matches: readonly string[],
  threshold = LOW_CONFIDENCE,
): boolean {
  if (matches.length === 0) return true;
  if (!index.confidence) return false;
  return index.confidence(query, matches[0]!) < threshold;
}

/** The servers to suggest for a weak search, with their summaries. */
export function suggestServers(
  index: RankerIndex,
  query: ParsedQuery,
  summaryOf: (server: string) => string,
  limit = SUGGESTED_SERVERS,
): SuggestedServer[] {
  if (!index.suggestServers) return [];
  return index.suggestServers(query, limit).map((s) => ({
    server: s.server,
    summary: summaryOf(s.server),
    tools: s.tools,
  }));
}

/** "Title: first sentence of the instructions", else "N tools: a, b, c, …". */
export function serverSummary(server: string, tools: readonly ToolSpec[], info: ServerInfo | undefined): string {
  const own = [info?.title, firstSentence(info?.description ?? '')].filter((t): t is string => !!t && t.trim() !== '');
  if (own.length > 0) return cut(own.join(': ').replace(/\s+/g, ' ').trim());
  const names = tools.filter((t) => t.origin.kind === 'mcp' && t.origin.server === server).map(sourceName);
  const shown = names.slice(0, 4).join(', ');
  return cut(`${names.length} tool${names.length === 1 ? '' : 's'}: ${shown}${names.length > 4 ? ', …' : ''}`);
}

function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (match ? match[1]! : text).trim();
}

/** G5: the summary is third-party text (server titles, raw tool names): one line, no structural tags. */
function cut(raw: string): string {
  const text = neutralizeUntrusted(raw.replace(/[\u0000-\u001f\u007f]+/g, ' '));
  return text.length <= SUMMARY_CHARS ? text : `${text.slice(0, SUMMARY_CHARS - 1)}…`;
}

/** The lines a weak or empty search adds to the model-facing text (`heading` replaces the default first line). */
export function formatServerSuggestions(
  servers: readonly SuggestedServer[],
  weakMatches: boolean,
  heading?: string,
): string[] {
  if (servers.length === 0) return [];
  const lines = [
    heading ??
      (weakMatches
        ? 'These matches may be weak. The servers most likely to have the tool:'
        : 'The servers most likely to have the tool:'),
  ];
  for (const s of servers) lines.push(`- ${MCP_PREFIX}${s.server} — ${s.summary}`);
  lines.push(
    `Search "${MCP_PREFIX}<server>" to list and load a server's tools, or search again with words for what the tool does.`,
  );
  return lines;
}
