/**
 * E5 — a search answer as a session pays for it: the loaded hits and the listed ones as one
 * compact line each, full definitions only where the session policy asks (a `select:`, the best
 * hit of a fixed list), and the tools a bounded working set let go named as no longer available.
 * The C8/C12 lines (still connecting, failed servers, suggestions) are `formatSearchResult`'s.
 */
import { compactToolLine, modelFacingDefinition, type CompactToolInput } from '../core/compact-tool.js';
import { DELTA_REMOVED_HEADER } from '../core/markers.js';
import { plural } from '../core/plural.js';
import type { SessionDecision, SessionHit, SessionPolicyInput } from '../core/session-policy.js';
import { searchContextLines } from './format-result.js';
import type { ToolSearchResult } from './search-types.js';

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
 * The model-facing answer: what loaded (one line each), the full definitions asked for, what else
 * matched (one `select:` away), what was unloaded, then the C8/C12 lines.
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
  const show = (name: string) => {
    const tool = lookup(name);
    // A select: asks for the definition: its output schema comes along.
    const full = tool && modelFacingDefinition(tool, { outputSchema: result.kind === 'select' });
    if (described.has(name)) return JSON.stringify(full ?? { name });
    return `- ${tool ? compactToolLine(tool) : name}`;
  };
  const lines: string[] = [];
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
  if (head.length > 0) {
    lines.push(
      options.fixed
        ? `Found ${plural(head.length, 'tool')}; call through ${options.callTool ?? 'call_tool'} {"name", "arguments"} (your tool list does not change):`
        : `Loaded ${plural(head.length, 'tool')}; they can be called from your next step on:`,
    );
    lines.push(...head.map(show));
  }
  if (decision.list.length > 0) {
    lines.push(
      options.fixed
        ? `Also found (same way; "select:<name>" shows a definition in full):`
        : 'Also found, not loaded (calling one, or "select:<name>", loads it):',
    );
    lines.push(...decision.list.map(show));
  }
  if (decision.unload.length > 0)
    lines.push(
      `${DELTA_REMOVED_HEADER} ${decision.unload.join(', ')} (unloaded: unused the longest; "select:<name>" loads one again).`,
    );
  return [...lines, ...searchContextLines(result)].join('\n');
}
