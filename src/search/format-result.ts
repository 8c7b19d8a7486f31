/**
 * C8/C12 — the text the model reads as the search tool's result.
 */
import { formatFailedServers } from './server-failures.js';
import type { ToolSearchResult } from './search-types.js';
import { formatServerSuggestions } from './suggest.js';
import { plural } from '../core/plural.js';

/** C8 and the normal case: the text the model reads as the search tool's result. */
export function formatSearchResult(result: ToolSearchResult): string {
  const lines: string[] = [...partialAnswerLines(result)];
  if (result.error !== undefined) lines.push(`Search error: ${result.error}`);
  if (result.matches.length > 0) {
    lines.push(`Loaded ${plural(result.matches.length, 'tool')}; they can be called from your next step on:`);
    for (const name of result.matches) lines.push(`- ${name}`);
  }
  lines.push(...searchContextLines(result));
  return lines.join('\n');
}

/**
 * C8/C15: an answer given while servers are still connecting says so first, before any hit, so a
 * model reads what follows as partial (the best tool may be on a server not searched yet). A
 * server's own state ("installing") is named when the gateway knows it.
 */
export function partialAnswerLines(result: Pick<ToolSearchResult, 'pendingServers' | 'pendingStates'>): string[] {
  if (result.pendingServers.length === 0) return [];
  const named = result.pendingServers.map((server) => {
    const state = result.pendingStates?.[server];
    return state ? `${server} (${state})` : server;
  });
  return [
    `Partial answer: MCP servers still connecting: ${named.join(', ')}. Their tools are not searched yet; search again in a moment to include them.`,
  ];
}

/** Everything but the error and the match list: names not found, no match, C12 failed and suggested servers, C15 policy. */
export function searchContextLines(result: ToolSearchResult): string[] {
  const lines: string[] = [];
  if (result.notFound.length > 0) lines.push(`Not found: ${result.notFound.join(', ')}.`);
  if (result.matches.length === 0) {
    lines.push(`No matching deferred tools found for "${truncate(result.query, 200)}".`);
    lines.push(
      `${plural(result.totalDeferred, 'deferred tool')} ${result.totalDeferred === 1 ? 'is' : 'are'} available to search.`,
    );
  }
  lines.push(...formatFailedServers(result.failedServers ?? []));
  lines.push(...policyNoteLines(result));
  lines.push(
    ...formatServerSuggestions(
      result.suggestedServers ?? [],
      result.matches.length > 0,
      result.serversMatched !== undefined ? `Servers whose names start with ${result.serversMatched}:` : undefined,
    ),
  );
  if (result.matches.length === 0) {
    lines.push(
      result.pendingServers.length > 0
        ? 'Retry in a moment, or search again with other words (or "select:<name>" for an exact name).'
        : 'Search again with other words, a shorter query, or "select:<name>" for an exact name.',
    );
  }
  return lines;
}

/**
 * G10: a search narrowed by policy says so: how many tools that match were left out, and why (one
 * of them's reason, without its name: what policy hides is not found), so a model does not conclude
 * that no such tool exists, and can tell the user why.
 */
export function policyNoteLines(result: Pick<ToolSearchResult, 'withheldByPolicy'>): string[] {
  const withheld = result.withheldByPolicy;
  if (!withheld || withheld.count === 0) return [];
  const matches = withheld.count === 1 ? 'matches but is' : 'match but are';
  const which = withheld.count === 1 ? 'it' : 'one of them';
  return [
    `Left out by policy: ${plural(withheld.count, 'more tool')} ${matches} not offered to this client (${which}: ${withheld.reason}).`,
  ];
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
