/**
 * G9 — what happens in the gateway, as events the operator-facing parts listen to: metrics
 * (metrics.ts), the audit log (audit.ts) and the status page's searches panel (activity.ts).
 *
 * One small observer: the gateway emits requests, tool calls, searches and sessions; other parts
 * of the codebase emit what only they see — upstream sign-ins and OAuth token refreshes (the OAuth
 * upstreams), config reloads (live reload), limits the HTTP layer applies — through `gateway.operations.events.emit(…)`. With no
 * listener an emit costs one array check.
 */
import type { ToolDefinitionLike } from '../../core/tool.js';

export type CallOutcome = 'ok' | 'tool-error' | 'error';

/** A client → gateway request (any JSON-RPC method). */
export interface RequestEvent {
  readonly type: 'request';
  readonly method: string;
  /** The protocol version the session negotiated (`2025-11-25`, …) or `2026-07-28` for the stateless era. */
  readonly era: string;
  readonly sessionId?: string;
  readonly profile?: string;
  readonly durationMs: number;
  /** G9: for `tools/list`, the tools its answer carried (what the client paid for; metrics count it). */
  readonly listed?: readonly ToolDefinitionLike[];
}

/** One upstream (or local) tool run for a session: directly, or through `call_tool`. */
export interface ToolCallEvent {
  readonly type: 'tool-call';
  readonly time: number;
  readonly sessionId: string;
  /** The client's name from its initialize (`clientInfo.name`), when known. */
  readonly client?: string;
  readonly profile?: string;
  /** The upstream server; absent for a local tool or an unknown name. */
  readonly server?: string;
  /** The model-facing name (`mcp__server__tool`). */
  readonly tool: string;
  readonly durationMs: number;
  readonly outcome: CallOutcome;
  /** Bytes of the result's JSON (what went back to the client). */
  readonly resultBytes: number;
  /** The call's arguments: the audit log keeps them only when `audit.arguments` is on. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The search of this session this call followed (its `id`), when it called one of its matches. */
  readonly followedSearch?: number;
}

/** A `tool_search` of a session. */
export interface SearchEvent {
  readonly type: 'search';
  /** Per process, increasing: a later call names the search it followed by this. */
  readonly id: number;
  readonly time: number;
  readonly sessionId: string;
  readonly client?: string;
  readonly profile?: string;
  readonly query: string;
  /** What it found, best first. */
  readonly matches: readonly string[];
  readonly lowConfidence: boolean;
  readonly durationMs: number;
}

/** A search's matches were called (first call only) — "the search worked". */
export interface SearchFollowedEvent {
  readonly type: 'search-followed';
  readonly id: number;
  readonly sessionId: string;
  readonly tool: string;
}

export interface SessionEvent {
  readonly type: 'session';
  readonly change: 'opened' | 'closed';
  readonly sessionId: string;
  readonly profile?: string;
}

/** Emitted by the OAuth upstreams: an interactive sign-in or a token refresh, and how it went. */
export interface SignInEvent {
  readonly type: 'sign-in' | 'oauth-refresh';
  readonly server: string;
  readonly outcome: 'ok' | 'failed';
  readonly detail?: string;
}

/** Emitted by live reload: the config was read again (servers added, removed, changed). */
export interface ReloadEvent {
  readonly type: 'reload';
  readonly outcome: 'ok' | 'failed';
  readonly source?: string;
  readonly detail?: string;
}

/** G5: a named limit applied to a client (a stream closed, an initialize refused, the gateway full). */
export interface LimitEvent {
  readonly type: 'limit';
  /** The limit's name in `toolSearch.limits` (`streamQueuedBytes`, `initializePerMinute`, `sessions`). */
  readonly limit: string;
  readonly sessionId?: string;
}

/** G10: a tool held by the trust gate (changed, flagged, new server) or approved by an operator. */
export interface TrustDecisionEvent {
  readonly type: 'trust';
  readonly action: 'held' | 'approved';
  readonly server: string;
  /** The server's own name for the tool. */
  readonly tool: string;
  readonly reason?: 'changed' | 'new-server' | 'findings';
  readonly detail?: string;
}

export type OperationsEvent =
  | TrustDecisionEvent
  | LimitEvent
  | RequestEvent
  | ToolCallEvent
  | SearchEvent
  | SearchFollowedEvent
  | SessionEvent
  | SignInEvent
  | ReloadEvent;

export type OperationsListener = (event: OperationsEvent) => void;

/** The observer: emit from anywhere, subscribe from the operator-facing parts. */
export class OperationsEvents {
  private listeners: OperationsListener[] = [];

  get observed(): boolean {
    return this.listeners.length > 0;
  }

  /** Listen; returns the unsubscribe function. A listener that throws is skipped, never the emitter. */
  subscribe(listener: OperationsListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: OperationsEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // An observer's bug must not fail the client's request.
      }
    }
  }
}
