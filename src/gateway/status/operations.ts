/**
 * G9 — the gateway's one seam for operations: it watches each session's transport (a request's
 * method, era and duration; its trace span) and gives the tool-call code probes for searches and
 * calls (timing, outcome, result size, the trace context to pass upstream, whether a call followed
 * a search). Everything goes out as events (events.ts); metrics, the audit log and the status page
 * listen. With no listener and no tracer, `watch` leaves the transport untouched and probes do
 * nothing but read the clock.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../mcp/remote/eras.js';
import { OperationsEvents, type CallOutcome } from './events.js';
import type { ToolDefinitionLike } from '../../core/tool.js';
import { traceCarrier, type GatewayTracer, type TraceCarrier, type TraceSpan } from './tracing.js';

/** Methods counted by name; anything else is `other` (label values stay bounded). */
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'server/discover',
  'subscriptions/listen',
]);
/**
 * G5: eras counted by name (the 2025 revisions the SDK speaks and the 2026-07-28 one); any other
 * date a client sends is `other`, so a client cannot mint label values.
 */
const KNOWN_ERAS: ReadonlySet<string> = new Set([...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION]);
/** A call within this long of a search, to one of its matches, "followed" it. */
export const FOLLOW_WINDOW_MS = 10 * 60_000;
/** A client name longer than this is cut (it is the client's own text). */
const CLIENT_CHARS = 100;
/**
 * G5: characters of a search's query kept in its event (status page, audit, learning see this).
 * The search itself reads 8,192; listeners keep queries for minutes, so a client's long queries
 * must not hold megabytes there.
 */
export const RECORDED_QUERY_CHARS = 2_048;

/** The query as events carry it: cut, and copied so the cut does not keep the whole request alive. */
function recordedQuery(query: string): string {
  if (query.length <= RECORDED_QUERY_CHARS) return query;
  return `${query.slice(0, RECORDED_QUERY_CHARS).split('').join('')} …`;
}

interface PendingRequest {
  readonly method: string;
  readonly start: number;
  readonly span?: TraceSpan;
}

interface SessionState {
  era: string;
  client?: string;
  readonly pending: Map<string | number, PendingRequest>;
  lastSearch?: { id: number; time: number; matches: ReadonlySet<string>; followed: boolean };
}

export interface CallProbe {
  /** `_meta` to add to the upstream request (W3C trace context), when tracing. */
  readonly meta?: TraceCarrier;
  end(outcome: CallOutcome, resultBytes: number, error?: string): void;
}

export interface SearchProbe {
  end(matches: readonly string[], lowConfidence: boolean): void;
}

export interface OperationsOptions {
  events?: OperationsEvents;
  tracer?: GatewayTracer;
  /** The profile this gateway serves (profiles), recorded on every event. */
  profile?: string;
}

/** A tool name a span may carry: a catalog name, cut; a client's made-up name is `unknown`. */
const SPAN_TOOL_CHARS = 200;

export class Operations {
  readonly events: OperationsEvents;
  tracer: GatewayTracer | undefined;
  readonly profile: string | undefined;
  private readonly sessions = new Map<string, SessionState>();
  private nextSearchId = 1;

  constructor(options: OperationsOptions = {}) {
    this.events = options.events ?? new OperationsEvents();
    this.tracer = options.tracer;
    this.profile = options.profile;
  }

  /** G5: whether a tool name is the catalog's (set by the gateway; span names carry only those). */
  knownTool: (name: string) => boolean = () => false;

  private toolSpanName(name: unknown): string {
    return typeof name === 'string' && this.knownTool(name) ? name.slice(0, SPAN_TOOL_CHARS) : 'unknown';
  }

  private get active(): boolean {
    return this.events.observed || this.tracer !== undefined;
  }

  /** Call once the session's `Server` is connected to `transport` (it has set `onmessage`). */
  watch(transport: Transport, sessionId: string): void {
    if (!this.active) return;
    const state: SessionState = { era: 'unknown', pending: new Map() };
    this.sessions.set(sessionId, state);
    this.emitSession('opened', sessionId);
    const receive = transport.onmessage;
    const send = transport.send.bind(transport);
    if (receive) {
      transport.onmessage = (message, extra) => {
        this.received(state, sessionId, message, extra?.request && Object.fromEntries(extra.request.headers));
        receive(message, extra);
      };
    }
    transport.send = (message, options) => {
      this.answered(state, sessionId, message);
      return send(message, options);
    };
  }

  /** The session ended: its unanswered requests end with it. */
  closed(sessionId: string): void {
    const state = this.sessions.get(sessionId);
    if (!state) return;
    this.sessions.delete(sessionId);
    for (const pending of state.pending.values()) pending.span?.end('session closed');
    this.emitSession('closed', sessionId);
  }

  /** The trace span of a request being handled, for its children. */
  requestSpan(sessionId: string, requestId: string | number): TraceSpan | undefined {
    return this.sessions.get(sessionId)?.pending.get(requestId)?.span;
  }

  startSearch(sessionId: string, requestId: string | number, fullQuery: string): SearchProbe | undefined {
    if (!this.active) return undefined;
    const query = recordedQuery(fullQuery);
    const start = performance.now();
    const span = this.tracer?.startChild(this.requestSpan(sessionId, requestId), 'tool_search', 'internal', {});
    return {
      end: (matches, lowConfidence) => {
        span?.setAttribute('toolsearch.search.matches', matches.length);
        span?.end();
        const id = this.nextSearchId++;
        const time = Date.now();
        const state = this.sessions.get(sessionId);
        if (state) state.lastSearch = { id, time, matches: new Set(matches), followed: false };
        this.events.emit({
          type: 'search',
          id,
          time,
          sessionId,
          ...(state?.client !== undefined && { client: state.client }),
          ...(this.profile !== undefined && { profile: this.profile }),
          query,
          matches,
          lowConfidence,
          durationMs: performance.now() - start,
        });
      },
    };
  }

  startCall(
    sessionId: string,
    requestId: string | number,
    tool: string,
    server: string | undefined,
    args: Record<string, unknown>,
  ): CallProbe | undefined {
    if (!this.active) return undefined;
    const start = performance.now();
    const span =
      server === undefined
        ? undefined
        : this.tracer?.startChild(this.requestSpan(sessionId, requestId), `tools/call ${server}`, 'client', {
            'mcp.server': server,
            'gen_ai.tool.name': tool,
          });
    const meta = span?.carrier();
    return {
      ...(meta?.traceparent !== undefined && { meta }),
      end: (outcome, resultBytes, error) => {
        span?.end(outcome === 'ok' ? undefined : (error ?? outcome));
        const followedSearch = this.followed(sessionId, tool);
        const client = this.sessions.get(sessionId)?.client;
        this.events.emit({
          type: 'tool-call',
          time: Date.now(),
          sessionId,
          ...(client !== undefined && { client }),
          ...(this.profile !== undefined && { profile: this.profile }),
          ...(server !== undefined && { server }),
          tool,
          durationMs: performance.now() - start,
          outcome,
          resultBytes,
          arguments: args,
          ...(followedSearch !== undefined && { followedSearch }),
        });
      },
    };
  }

  /** The id of the session's last search when this call is the first to one of its matches. */
  private followed(sessionId: string, tool: string): number | undefined {
    const search = this.sessions.get(sessionId)?.lastSearch;
    if (!search || search.followed || !search.matches.has(tool)) return undefined;
    if (Date.now() - search.time > FOLLOW_WINDOW_MS) return undefined;
    search.followed = true;
    this.events.emit({ type: 'search-followed', id: search.id, sessionId, tool });
    return search.id;
  }

  private received(
    state: SessionState,
    sessionId: string,
    message: JSONRPCMessage,
    headers: Record<string, string | string[] | undefined> | undefined,
  ): void {
    if (!('method' in message) || !('id' in message)) return;
    const method = KNOWN_METHODS.has(message.method) ? message.method : 'other';
    const params = message.params as
      | { _meta?: Record<string, unknown>; protocolVersion?: unknown; clientInfo?: { name?: unknown } }
      | undefined;
    if (method === 'initialize') {
      if (typeof params?.protocolVersion === 'string')
        state.era = KNOWN_ERAS.has(params.protocolVersion) ? params.protocolVersion : 'other';
      if (typeof params?.clientInfo?.name === 'string') state.client = params.clientInfo.name.slice(0, CLIENT_CHARS);
    }
    const span = this.tracer?.startRequest(
      method === 'tools/call' ? `tools/call ${this.toolSpanName((params as { name?: unknown }).name)}` : method,
      { 'mcp.method.name': method, 'mcp.session.id': sessionId },
      traceCarrier(params?._meta, headers),
    );
    state.pending.set(message.id, { method, start: performance.now(), ...(span && { span }) });
  }

  private answered(state: SessionState, sessionId: string, message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message) || message.id === null || message.id === undefined) return;
    const pending = state.pending.get(message.id);
    if (!pending) return;
    state.pending.delete(message.id);
    pending.span?.end('error' in message ? message.error.message : undefined);
    const listed = pending.method === 'tools/list' ? listedTools(message) : undefined;
    this.events.emit({
      type: 'request',
      method: pending.method,
      era: state.era,
      sessionId,
      ...(this.profile !== undefined && { profile: this.profile }),
      durationMs: performance.now() - pending.start,
      ...(listed && { listed }),
    });
  }

  private emitSession(change: 'opened' | 'closed', sessionId: string): void {
    this.events.emit({
      type: 'session',
      change,
      sessionId,
      ...(this.profile !== undefined && { profile: this.profile }),
    });
  }
}

/** G9: the tools a `tools/list` answer carried (undefined for an error answer). */
function listedTools(message: JSONRPCMessage): readonly ToolDefinitionLike[] | undefined {
  const tools = (message as { result?: { tools?: unknown } }).result?.tools;
  return Array.isArray(tools) ? (tools as ToolDefinitionLike[]) : undefined;
}
