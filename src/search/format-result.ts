/**
 * C8/C12 — the text the model reads as the search tool's result.
 */
import { formatFailedServers } from './server-failures.js';
import type { ToolSearchResult } from './search-types.js';
import { formatServerSuggestions } from './suggest.js';
import { plural } from '../core/plural.js';
import { installingText, type InstallingServer } from '../core/installing.js';

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
 * C8/C15: an answer given while servers are still starting says so first, before any hit, so a
 * model reads what follows as partial (the best tool may be on a server not searched yet). G13:
 * servers a package runner is still installing are named apart, with how long so far.
 */
export function partialAnswerLines(result: Pick<ToolSearchResult, 'pendingServers' | 'installingServers'>): string[] {
  const installing = result.installingServers ?? [];
  const connecting = result.pendingServers.filter((server) => !installing.some((i) => i.server === server));
  const lines: string[] = [];
  if (connecting.length > 0)
    lines.push(
      `MCP servers still connecting: ${connecting.join(', ')}. Their tools are not searched yet; search again in a moment to include them.`,
    );
  lines.push(...formatInstallingServers(installing));
  if (lines.length > 0) lines[0] = `Partial answer: ${lines[0]}`;
  return lines;
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

/** G13: servers a package runner is installing, and for how long: not a failure, only slow. */
function formatInstallingServers(installing: readonly InstallingServer[]): string[] {
  if (installing.length === 0) return [];
  const now = Date.now();
  return [
    'MCP servers still installing (a first start through a package runner can take minutes; their tools are not searchable yet):',
    ...installing.map((server) => `- ${server.server}: ${installingText(server, now)}`),
  ];
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
