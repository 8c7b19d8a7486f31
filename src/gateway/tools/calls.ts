/**
 * G3/F3/C15 — what a session's `tools/call` does: the search tool (C1–C4, C8) loads what it finds
 * into the session; `call_tool` runs a tool by name for clients that never refresh their tool list;
 * any other catalog name runs once its arguments fit the tool's input schema, whether or not this
 * session searched (a one-shot client, such as the MCP Inspector's CLI, opens a session per call).
 * Arguments that do not fit are answered in one line with the expected signature, before anything
 * goes upstream; a name that is not there gets "did you mean" with the closest names; a tool held,
 * left out by policy or on a server still connecting or failed gets why.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Catalog } from '../../core/catalog.js';
import { installingText } from '../../core/installing.js';
import { hasAppUi } from '../../core/visibility.js';
import { parseMcpName } from '../../core/names.js';
import { DEFAULT_MAX_RESULTS, SEARCH_TOOL_NAME } from '../../core/search-tool.js';
import type { ToolSpec } from '../../core/tool.js';
import { errorMessage } from '../../util/errors.js';
import type { UpstreamCaller } from '../ports.js';
import type { ClientChannel } from '../proxy/channel.js';
import type { ForwardContext, RequestRouter, SessionExtra } from '../proxy/server-requests.js';
import type { SessionStore } from '../sessions/store.js';
import type { CallOutcome } from '../status/events.js';
import type { CallProbe, Operations } from '../status/operations.js';
import { CALL_TOOL_NAME } from './definitions.js';
import { searchWhilePending } from './pending-wait.js';
import type { GatewaySearcher, SearchOutcome } from './search.js';
import { decideSession, type ToolListMode } from '../../core/session-policy.js';
import { formatSessionAnswer, policyInputOf } from '../../search/session-answer.js';
import { RecentUse } from './recent-use.js';
import { type CallTarget, resolveCallTarget } from './call-target.js';
import type { UsageSignal } from '../../usage/signal.js';
import { isStateless, usageKey } from './stateless.js';
import { checkArguments, uncheckedNote } from '../../core/argument-check.js';
import { closestToolNames, nameWords, unknownToolText } from '../../search/did-you-mean.js';
import type { Logger } from '../../util/log.js';
import { policyHiddenTools } from './policy-hidden.js';

/** What the calls need from the gateway. */
export interface ToolCallDeps {
  readonly catalog: Catalog;
  readonly sessions: SessionStore;
  readonly searcher: GatewaySearcher;
  readonly upstream: UpstreamCaller | undefined;
  /** Routes an upstream call with its cancellation, progress and server → client requests. */
  readonly router: RequestRouter;
  readonly callThrough: boolean;
  readonly pendingWaitMs: number;
  /** G5: characters of one search query accepted (`searchQueryChars`). */
  readonly maxQueryChars: number;
  /** G5/C15: parts of an input schema compiled to check a call's arguments (`argumentSchemaParts`). */
  readonly maxSchemaParts?: number;
  /** Servers still on their first connect (a search waits for them, bounded). */
  firstConnectPending(): string[];
  /** Names deferred in the current pool. */
  deferred(): ReadonlySet<string>;
  /** What the session loaded (throws SessionGoneError when a shared store lost it). */
  discovered(sessionId: string): Promise<readonly string[]>;
  /** G9: probes for searches and calls (metrics, audit, traces). */
  readonly operations?: Operations;
  /** C13: searches and calls as labels for the learned channel (absent when learning is off). */
  readonly usage?: UsageSignal;
  /** C15: who teaches what a session's searches and calls teach (absent: nobody the gateway can name). */
  teacher?(sessionId: string): string | undefined;
  /** G11: the gateway's own tools besides search and call-through (`run_code`), by name. */
  readonly ownTools?: ReadonlyMap<string, OwnTool>;
  /** E5: `fixed` keeps every session's tool list unchanged (calls go through `call_tool`); the gateway passes its mode. */
  readonly toolList?: ToolListMode;
  /** E5: tools a growing list holds before the least recently used are unloaded (0: never). */
  readonly workingSetCap?: number;
  /** Where the operator hears that a tool's arguments cannot be checked (once per tool). */
  readonly logger?: Logger;
}

/** A tool the gateway itself answers (G11's `run_code`), with the request it came in. */
export type OwnTool = (
  sessionId: string,
  args: Record<string, unknown>,
  extra: SessionExtra,
  channel?: ClientChannel,
) => Promise<CallToolResult>;

export class ToolCalls {
  /** E5: when each session last loaded or called each tool (its working set's clock). */
  private readonly recent = new RecentUse();
  /** C15: tools whose schema could not be checked, said once each to the operator (the model reads it per call). */
  private readonly unchecked = new Set<string>();

  constructor(private readonly deps: ToolCallDeps) {}

  async handle(
    sessionId: string,
    name: string,
    args: Record<string, unknown>,
    extra: SessionExtra,
    /** G8: how server → client requests reach a 2026 caller (input_required); default the session's stream. */
    channel?: ClientChannel,
  ): Promise<{ result: CallToolResult; listChanged: boolean }> {
    if (name === SEARCH_TOOL_NAME) return this.search(sessionId, args, extra);
    const own = this.deps.ownTools?.get(name);
    if (own && !this.deps.catalog.has(name))
      return { result: await own(sessionId, args, extra, channel), listChanged: false };
    if (name === CALL_TOOL_NAME && this.deps.callThrough && !this.deps.catalog.has(CALL_TOOL_NAME)) {
      const target = args['name'];
      const targetArgs = args['arguments'] ?? {};
      if (
        typeof target !== 'string' ||
        typeof targetArgs !== 'object' ||
        targetArgs === null ||
        Array.isArray(targetArgs)
      ) {
        return {
          result: toolError(`${CALL_TOOL_NAME} needs {"name": string, "arguments": object}.`),
          listChanged: false,
        };
      }
      const listChanged = await this.loadIfListed(sessionId, target);
      return {
        result: await this.run(sessionId, target, targetArgs as Record<string, unknown>, extra, channel),
        listChanged,
      };
    }
    const listChanged = await this.loadIfListed(sessionId, name);
    return { result: await this.run(sessionId, name, args, extra, channel), listChanged };
  }

  /**
   * E5: a tool a search listed (not loaded) is loaded by calling it: the model saw its signature,
   * and one `select:` round trip would only cost it a turn. Appended like any load.
   */
  private async loadIfListed(sessionId: string, name: string): Promise<boolean> {
    // A fixed list never changes (what a search named is callable through call_tool already).
    if (this.deps.toolList === 'fixed') return false;
    if (isStateless(sessionId) || !this.recent.wasListed(sessionId, name) || !this.deps.deferred().has(name))
      return false;
    const added = await this.deps.sessions.addDiscovered(sessionId, [name]);
    this.recent.touch(sessionId, added);
    return added.length > 0;
  }

  /** C1–C4, C8: search, load the matches into this session, describe them. */
  private async search(
    sessionId: string,
    args: Record<string, unknown>,
    extra: SessionExtra,
  ): Promise<{ result: CallToolResult; listChanged: boolean }> {
    const query = args['query'];
    if (typeof query !== 'string' || query.trim() === '') {
      return {
        result: toolError(
          `${SEARCH_TOOL_NAME} needs {"query": string}: keywords, "select:<name>,…" or "mcp__<server>".`,
        ),
        listChanged: false,
      };
    }
    if (query.length > this.deps.maxQueryChars) {
      // G5: refused before any search work, metric or audit line holds it.
      return {
        result: toolError(
          `${SEARCH_TOOL_NAME}: the query is ${query.length} characters; this gateway accepts at most ${this.deps.maxQueryChars} (limit searchQueryChars). Search with a few keywords.`,
        ),
        listChanged: false,
      };
    }
    const max = args['max_results'];
    const maxResults =
      typeof max === 'number' && Number.isFinite(max) && max >= 1 ? Math.floor(max) : DEFAULT_MAX_RESULTS;
    const outcome = await this.find(sessionId, query, maxResults, extra);
    const { text, listChanged } = await this.answer(sessionId, outcome);
    const content: CallToolResult['content'] = [{ type: 'text', text }];
    const withheld = withheldNote(this.deps.catalog, outcome.notFound);
    if (withheld) content.push({ type: 'text', text: withheld });
    return { result: { content }, listChanged };
  }

  /** C1–C4, C8: a search as the model's search tool and a script's `search()` (G11) run it, probed and learned from. */
  async find(sessionId: string, query: string, maxResults: number, extra: SessionExtra): Promise<SearchOutcome> {
    const probe = this.deps.operations?.startSearch(sessionId, extra.mcpReq.id, query);
    const outcome: SearchOutcome = await searchWhilePending(
      this.deps.catalog,
      this.deps.pendingWaitMs,
      async () =>
        this.deps.searcher.search(
          {
            tools: this.deps.catalog.tools,
            deferred: this.deps.deferred(),
            pendingServers: this.deps.catalog.pendingServers,
            failedServers: this.deps.catalog.failedServers,
            installingServers: this.deps.catalog.installingServers,
            servers: this.deps.catalog.serverInfo,
            policyHidden: policyHiddenTools(this.deps.catalog),
          },
          query,
          { maxResults },
        ),
      () => this.deps.firstConnectPending(),
    );
    probe?.end(outcome.matches, outcome.lowConfidence === true);
    this.deps.usage?.searched(usageKey(sessionId), query, outcome, this.deps.teacher?.(sessionId));
    return outcome;
  }

  /**
   * G11: a script's `call()` — the same path as a direct call (probes, audit, traces, usage,
   * routing, trust, the argument check); nothing is loaded into the model's tool list.
   */
  callFromScript(
    sessionId: string,
    name: string,
    args: Record<string, unknown>,
    extra: SessionExtra,
    channel?: ClientChannel,
  ): Promise<CallToolResult> {
    return this.run(sessionId, name, args, extra, channel);
  }

  /**
   * E5: the session policy decides what the search loads, lists, shows in full and unloads; the
   * session's record follows it, and the answer says it in compact lines. A 2026 request has no
   * session: it answers as a fixed list does (every catalog tool runs through `call_tool`).
   */
  private async answer(sessionId: string, outcome: SearchOutcome): Promise<{ text: string; listChanged: boolean }> {
    const deferred = this.deps.deferred();
    const stateless = isStateless(sessionId);
    const fixed = stateless || this.deps.toolList === 'fixed';
    const store = this.deps.sessions;
    const decision = decideSession({
      ...policyInputOf(outcome, (name) => deferred.has(name), this.deps.firstConnectPending()),
      held: stateless ? [] : await this.deps.discovered(sessionId),
      lastUsed: this.recent.of(sessionId),
      toolList: fixed ? 'fixed' : 'growing',
      joinsFixedList: (name) => hasAppUi(this.deps.catalog.get(name)),
      workingSetCap: store.removeDiscovered ? (this.deps.workingSetCap ?? 0) : 0,
    });
    let listChanged = false;
    if (!stateless && fixed) {
      // The list stays as it is (but for tools with an app view); what the answer names becomes
      // callable through call_tool.
      const added = await store.addDiscovered(sessionId, [...decision.load, ...decision.describe, ...decision.list]);
      listChanged = decision.load.some((name) => added.includes(name));
    } else if (!stateless) {
      if (decision.unload.length > 0) {
        await store.removeDiscovered!(sessionId, decision.unload);
        this.recent.forget(sessionId, decision.unload);
      }
      const added = await store.addDiscovered(sessionId, decision.load);
      this.recent.touch(sessionId, added);
      this.recent.offer(sessionId, decision.list);
      listChanged = added.length > 0 || decision.unload.length > 0;
    }
    const text = this.deps.searcher.format
      ? this.deps.searcher.format(outcome)
      : formatSessionAnswer(outcome, decision, (name) => this.deps.catalog.get(name), {
          fixed,
          ...(this.deps.callThrough && { callTool: CALL_TOOL_NAME }),
        });
    return { text, listChanged };
  }

  /** The session ended: forget what it used. */
  ended(sessionId: string): void {
    this.recent.forget(sessionId);
  }

  /** G9: one probe per call, whatever its fate (not loaded, local, upstream, failed). */
  private async run(
    sessionId: string,
    name: string,
    args: Record<string, unknown>,
    extra: SessionExtra,
    channel?: ClientChannel,
  ): Promise<CallToolResult> {
    const target = resolveCallTarget(this.deps.catalog, name);
    // Probes and usage labels name the tool only when it was called by its gateway name.
    const tool = target.kind === 'tool' && !target.byUpstreamName ? target.tool : undefined;
    // G5: the server label and span come from the catalog only; a name the client made up has none.
    const known = target.kind === 'tool' ? target.tool : undefined;
    const server = known?.origin.kind === 'mcp' ? known.origin.server : undefined;
    const probe = this.deps.operations?.startCall(sessionId, extra.mcpReq.id, name, server, args);
    const result = await this.route(sessionId, name, target, args, extra, probe, channel);
    // C13: a call that reached the tool is a label (its own error, e.g. bad arguments, counts too).
    // The model chose this tool: its arguments not fitting (checked here now, C15) still says so.
    const chosen = !gatewayErrors.has(result) || argumentErrors.has(result);
    if (chosen) this.deps.usage?.called(usageKey(sessionId), tool?.name ?? name, this.deps.teacher?.(sessionId));
    if (chosen && tool) this.recent.touch(sessionId, [tool.name]);
    if (probe) {
      const text = result.isError === true && result.content[0]?.type === 'text' ? result.content[0].text : undefined;
      probe.end(callOutcome(result), Buffer.byteLength(JSON.stringify(result)), text);
    }
    return result;
  }

  /**
   * Route a call. C15: a catalog tool runs once its arguments fit its input schema, loaded in this
   * session or not (F3 is the check, not a search first); the rest get an actionable error.
   */
  private async route(
    sessionId: string,
    name: string,
    target: CallTarget,
    args: Record<string, unknown>,
    extra: SessionExtra,
    probe: CallProbe | undefined,
    channel?: ClientChannel,
  ): Promise<CallToolResult> {
    if (target.kind === 'ambiguous') return toolError(target.message);
    if (target.kind === 'unknown') return toolError(await this.describeMissing(name));
    const { tool } = target;
    const check = checkArguments(tool, args, {
      ...(this.deps.maxSchemaParts && { maxSchemaParts: this.deps.maxSchemaParts }),
    });
    if (!check.ok) return argumentError(check.message);
    if (check.skipped !== undefined) this.warnUnchecked(tool, check.skipped);
    const result = await this.dispatch(sessionId, name, tool, args, extra, probe, channel);
    return check.skipped === undefined ? result : withNote(result, uncheckedNote(tool, check.skipped));
  }

  private warnUnchecked(tool: ToolSpec, reason: string): void {
    if (this.unchecked.has(tool.name)) return;
    this.unchecked.add(tool.name);
    this.deps.logger?.warn(`${tool.name}: arguments are not checked before calls: ${reason}`);
  }

  /** The call itself, once the gateway has nothing against it: local handler or upstream server. */
  private async dispatch(
    sessionId: string,
    name: string,
    tool: ToolSpec,
    args: Record<string, unknown>,
    extra: SessionExtra,
    probe: CallProbe | undefined,
    channel?: ClientChannel,
  ): Promise<CallToolResult> {
    if (tool.origin.kind === 'local') return this.runLocal(tool, args);
    if (!this.deps.upstream)
      return toolError(`Tool "${name}" cannot be called: this gateway has no upstream connection.`);
    const { server } = tool.origin;
    const upstream = this.deps.upstream;
    try {
      // Through the router: cancellation, progress, and server → client requests back to this session.
      const call = (context: ForwardContext) =>
        upstream.callTool(server, tool.originalName ?? tool.name, args, {
          ...context,
          ...(probe?.meta && { meta: { ...probe.meta } }),
        });
      return (await (channel
        ? this.deps.router.forwardVia(server, sessionId, channel, call)
        : this.deps.router.forward(server, sessionId, extra, call))) as CallToolResult;
    } catch (error) {
      return toolError(`Tool "${name}" failed: ${errorMessage(error)}`);
    }
  }

  private async runLocal(tool: ToolSpec, args: Record<string, unknown>): Promise<CallToolResult> {
    if (!tool.handler) return toolError(`Tool "${tool.name}" has no handler in this gateway.`);
    try {
      const value = await tool.handler(args);
      if (isCallToolResult(value)) return value;
      return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
    } catch (error) {
      return toolError(`Tool "${tool.name}" failed: ${errorMessage(error)}`);
    }
  }

  private async describeMissing(name: string): Promise<string> {
    // G7: a tool the config hides is not "unknown": say who hid it, so nobody hunts for a bug.
    const hidden = this.deps.catalog.hiddenTool(name);
    // G10: held until an operator approves it, or of a class this client may not use.
    if (hidden?.kind === 'held') return `Tool "${name}" is held by the gateway: ${hidden.reason}.`;
    if (hidden?.kind === 'policy') return `Tool "${name}" may not be used here: ${hidden.reason}.`;
    if (hidden)
      return `Tool "${name}" is not available: the gateway's config hides "${hidden.tool}" of MCP server "${hidden.server}" (${hidden.reason}).`;
    const parsed = parseMcpName(name);
    // G13: a package runner installing the server: slow, not broken.
    const installing = parsed && this.deps.catalog.installingServers.find((i) => i.server === parsed.server);
    if (installing)
      return `Tool "${name}" is not available yet: MCP server "${installing.server}" is still ${installingText(installing, Date.now())}. Try again in a minute.`;
    if (parsed && this.deps.catalog.pendingServers.includes(parsed.server)) {
      return `Tool "${name}" is not available yet: MCP server "${parsed.server}" is still connecting (or reconnecting). Try again shortly.`;
    }
    const failed = parsed && this.deps.catalog.failedServers.find((f) => f.server === parsed.server);
    if (failed) return `Tool "${name}" is not available: MCP server "${failed.server}" failed: ${failed.reason}`;
    // C15: a near miss (a typo, no server prefix, another separator) gets the closest names.
    return unknownToolText(name, await this.closestTools(name));
  }

  /** C15: the catalog tools closest to a name nobody has: by name, then as the search ranks its words. */
  private async closestTools(name: string): Promise<ToolSpec[]> {
    const catalog = this.deps.catalog;
    const words = nameWords(name);
    let ranked: readonly string[] = [];
    if (words !== '') {
      const outcome = await this.deps.searcher.search(
        { tools: catalog.tools, deferred: this.deps.deferred(), pendingServers: [], servers: catalog.serverInfo },
        words,
        { maxResults: 3 },
      );
      ranked = outcome.kind === 'keyword' ? outcome.matches : [];
    }
    return closestToolNames(name, catalog.tools, () => ranked).flatMap((n) => catalog.get(n) ?? []);
  }
}

/** C15: a result with a note of the gateway's after the server's own content. */
function withNote(result: CallToolResult, note: string): CallToolResult {
  return { ...result, content: [...result.content, { type: 'text', text: note }] };
}

/** G10: why `select:` names the search could not load are withheld (held, or not for this client). */
function withheldNote(catalog: Catalog, names: readonly string[] | undefined): string | undefined {
  const lines = (names ?? []).flatMap((name) => {
    const hidden = catalog.hiddenTool(name);
    if (hidden?.kind === undefined) return [];
    return [`${name}: ${hidden.kind === 'held' ? 'held by the gateway' : 'may not be used here'}: ${hidden.reason}.`];
  });
  return lines.length > 0 ? `Not available:\n${lines.join('\n')}` : undefined;
}

/** Errors the gateway wrote (not loaded, unknown, upstream unreachable), told apart from a tool's own (G9 outcome). */
const gatewayErrors = new WeakSet<CallToolResult>();

/** C15: the gateway's answer to arguments that do not fit: its error, but a choice of tool all the same (C13's label). */
const argumentErrors = new WeakSet<CallToolResult>();

function argumentError(text: string): CallToolResult {
  const result = toolError(text);
  argumentErrors.add(result);
  return result;
}

function toolError(text: string): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text }], isError: true };
  gatewayErrors.add(result);
  return result;
}

function callOutcome(result: CallToolResult): CallOutcome {
  if (gatewayErrors.has(result)) return 'error';
  return result.isError === true ? 'tool-error' : 'ok';
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}
