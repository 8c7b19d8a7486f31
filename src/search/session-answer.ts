/**
 * E5/C15 — a search answer as a session pays for it: the loaded hits and the listed ones as one
 * compact line each, full definitions only where the session policy asks (a `select:`, the best
 * hit of a fixed list and the hits close to it), and the tools a bounded working set let go named
 * as no longer available. A partial answer (servers still connecting) says so first. A server
 * listing names every tool of the server, deprecated ones last, within a token budget. The C8/C12
 * lines (failed servers, suggestions) and the policy note are `formatSearchResult`'s.
 */
import { boundedTextTokens } from '../core/announce-budget.js';
import { compactToolLine, modelFacingDefinition, type CompactToolInput } from '../core/compact-tool.js';
import { DELTA_REMOVED_HEADER } from '../core/markers.js';
import { plural } from '../core/plural.js';
import type { SessionDecision, SessionHit, SessionPolicyInput } from '../core/session-policy.js';
import { partialAnswerLines, searchContextLines } from './format-result.js';
import type { ToolSearchResult } from './search-types.js';

/**
 * A server listing's budget, in estimated tokens (an estimate that errs high): one line per tool
 * while they fit, then the remaining tools by name only, then a count of what is left.
 */
export const BROWSE_LINES_TOKENS = 1_200;
export const BROWSE_TOTAL_TOKENS = 1_800;

/** The hits of a search result the session could load (deferred ones), with their evidence. */
export function sessionHits(result: ToolSearchResult, loadable: (name: string) => boolean): SessionHit[] {
  return result.matches.flatMap((name, i) =>
    loadable(name)
      ? [
          {
            name,
            ...(result.confidence?.[i] !== undefined && { confidence: result.confidence[i] }),
            ...(result.scores?.[i] !== undefined && { score: result.scores[i] }),
          },
        ]
      : [],
  );
}

/** The policy's input for a search result; the caller adds what the session holds and its mode. */
export function policyInputOf(
  result: ToolSearchResult,
  loadable: (name: string) => boolean,
  startingServers: readonly string[] = [],
): Pick<SessionPolicyInput, 'kind' | 'hits' | 'lowConfidence' | 'startingServers'> {
  return {
    kind: result.kind,
    hits: sessionHits(result, loadable),
    ...(result.lowConfidence === true && { lowConfidence: true }),
    ...(startingServers.length > 0 && { startingServers }),
  };
}

export interface SessionAnswerOptions {
  /** The tool a fixed list calls through (`call_tool`); named in the answer. */
  readonly callTool?: string;
  /** The list never changes: nothing is "loaded", calls go through `callTool`. */
  readonly fixed?: boolean;
  /** F9: the loaded tools reach the model whole another way (a `tool_addition`): named, not described. */
  readonly loadedByName?: boolean;
}

/**
 * The model-facing answer: partial or not, what loaded (one line each), the full definitions asked
 * for, what else matched (one `select:` away), what was unloaded, then the C8/C12 lines.
 */
export function formatSessionAnswer(
  result: ToolSearchResult,
  decision: SessionDecision,
  lookup: (name: string) => CompactToolInput | undefined,
  options: SessionAnswerOptions = {},
): string {
  const byName = new Set(options.loadedByName ? decision.load : []);
  const described = new Set(decision.describe.filter((n) => !byName.has(n)));
  const listed = new Set(decision.list);
  const line = (name: string) => {
    const tool = lookup(name);
    return `- ${tool ? compactToolLine(tool) : name}`;
  };
  const show = (name: string) => {
    if (!described.has(name)) return line(name);
    // A select: asks for the definition: its output schema comes along.
    const tool = lookup(name);
    return JSON.stringify(tool ? modelFacingDefinition(tool, { outputSchema: result.kind === 'select' }) : { name });
  };
  const callWay = `call through ${options.callTool ?? 'call_tool'} {"name", "arguments"} (your tool list does not change)`;
  const lines: string[] = [...partialAnswerLines(result)];
  if (result.error !== undefined) lines.push(`Search error: ${result.error}`);
  // A fixed list loads only tools with an app view: they are called by name, not through call_tool.
  const loadedHere = new Set(options.fixed ? decision.load : []);
  if (loadedHere.size > 0) {
    lines.push(
      `Loaded ${plural(loadedHere.size, 'tool')} with an app view; call it by its own name from your next step on:`,
    );
    lines.push(...decision.load.map(show));
  }
  const head = result.matches.filter((n) => !listed.has(n) && !loadedHere.has(n) && !byName.has(n));
  if (byName.size > 0) lines.push(`Loaded: ${[...byName].join(', ')}.`);
  if (result.kind === 'prefix' && head.length === 0 && decision.list.length > 0) {
    lines.push(...serverListing(result, decision.list, line, options.fixed ? callWay : undefined));
  } else {
    if (head.length > 0) {
      lines.push(
        options.fixed
          ? `Found ${plural(head.length, 'tool')}; ${callWay}:`
          : `Loaded ${plural(head.length, 'tool')}; they can be called from your next step on:`,
      );
      if (options.fixed && result.kind !== 'select' && described.size > 1)
        lines.push(
          `The first ${described.size} match about equally well; each is shown in full: pick the one that fits.`,
        );
      lines.push(...head.map(show));
    }
    if (decision.list.length > 0) {
      lines.push(listHeading(head.length + byName.size > 0, decision.list.length, options.fixed ? callWay : undefined));
      lines.push(...decision.list.map(show));
    }
  }
  if (decision.unload.length > 0)
    lines.push(
      `${DELTA_REMOVED_HEADER} ${decision.unload.join(', ')} (unloaded: unused the longest; "select:<name>" loads one again).`,
    );
  return [...lines, ...searchContextLines(result)].join('\n');
}

/** The heading of the one-line hits: "Also found" after full definitions, else what was found and how to call it. */
function listHeading(afterFull: boolean, count: number, callWay: string | undefined): string {
  if (!callWay) return 'Also found, not loaded (calling one, or "select:<name>", loads it):';
  if (afterFull) return 'Also found (same way; "select:<name>" shows a definition in full):';
  return `Found ${plural(count, 'tool')}, none a clear match; ${callWay}; "select:<name>" shows a definition in full:`;
}

/**
 * C15: a server listing names every tool it found: one line each while `BROWSE_LINES_TOKENS`
 * holds, then names only while `BROWSE_TOTAL_TOKENS` holds, then how many are left and how to see
 * them (a longer prefix narrows the list).
 */
function serverListing(
  result: ToolSearchResult,
  names: readonly string[],
  line: (name: string) => string,
  callWay: string | undefined,
): string[] {
  const prefix = result.serversMatched ?? result.query;
  const total = result.listingTotal ?? names.length;
  const out = [
    `${plural(total, 'tool')} under ${prefix}${callWay ? `; ${callWay}` : ' (calling one, or "select:<name>", loads it)'}:`,
  ];
  let used = boundedTextTokens(out[0]!);
  let i = 0;
  for (; i < names.length; i++) {
    const text = line(names[i]!);
    const cost = boundedTextTokens(text) + 1;
    if (used + cost > BROWSE_LINES_TOKENS) break;
    out.push(text);
    used += cost;
  }
  const rest: string[] = [];
  for (; i < names.length; i++) {
    const cost = boundedTextTokens(names[i]!) + 1;
    if (used + cost > BROWSE_TOTAL_TOKENS) break;
    rest.push(names[i]!);
    used += cost;
  }
  if (rest.length > 0) out.push(`Also (by name; "select:<name>" shows one): ${rest.join(', ')}`);
  const unnamed = total - i;
  if (unnamed > 0)
    out.push(
      `${plural(unnamed, 'more tool')} not shown: search "${prefix}<first letters of a name>" to list fewer at a time.`,
    );
  return out;
}
