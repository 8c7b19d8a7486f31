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
  const lines: string[] = [];
  if (result.error !== undefined) lines.push(`Search error: ${result.error}`);
  if (result.matches.length > 0) {
    lines.push(`Loaded ${plural(result.matches.length, 'tool')}; they can be called from your next step on:`);
    for (const name of result.matches) lines.push(`- ${name}`);
  }
  lines.push(...searchContextLines(result));
  return lines.join('\n');
}

/** Everything but the error and the match list: names not found, no match, C8 pending, C12 failed and suggested servers. */
export function searchContextLines(result: ToolSearchResult): string[] {
  const lines: string[] = [];
  if (result.notFound.length > 0) lines.push(`Not found: ${result.notFound.join(', ')}.`);
  if (result.matches.length === 0) {
    lines.push(`No matching deferred tools found for "${truncate(result.query, 200)}".`);
    lines.push(
      `${plural(result.totalDeferred, 'deferred tool')} ${result.totalDeferred === 1 ? 'is' : 'are'} available to search.`,
    );
  }
  const installing = result.installingServers ?? [];
  const connecting = result.pendingServers.filter((server) => !installing.some((i) => i.server === server));
  if (connecting.length > 0) {
    lines.push(`MCP servers still connecting: ${connecting.join(', ')}. Their tools are not searchable yet.`);
  }
  lines.push(...formatInstallingServers(installing));
  lines.push(...formatFailedServers(result.failedServers ?? []));
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
