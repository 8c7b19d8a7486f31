/**
 * G1/H3 — the hub's record of one configured server: its state, connection, retry bookkeeping and
 * refresh queue, and how that record reads in a status report or an error message.
 */
import type { ServerConfig } from './config.js';
import type { McpConnection } from './connection.js';
import type { PackageRunner } from './package-runner.js';
import { StderrTail } from './stderr-reason.js';
import { installingText } from '../core/installing.js';
import { BackoffState, type ReconnectOptions, type ServerState, type ServerStatus } from './server-state.js';
import { ToolRules } from './tool-rules.js';

export interface ServerEntry {
  readonly name: string;
  readonly config: ServerConfig;
  /** G7: its compiled `tools` section. */
  readonly rules: ToolRules;
  state: ServerState;
  connection: McpConnection | undefined;
  /** Consecutive failures, drops, quarantines: the retry decisions (server-state.ts). */
  backoff: BackoffState;
  lastError: string | undefined;
  /** G13: what to do about `lastError`, when known. */
  lastFix: string | undefined;
  /** What the server wrote to stderr in the current attempt (bounded): why it would not start. */
  stderr: StderrTail;
  /** G13: the package runner the server is started through (npx, uvx, …), if any. */
  readonly runner: PackageRunner | undefined;
  retryTimer: NodeJS.Timeout | undefined;
  nextRetryAt: number | undefined;
  since: number;
  /** Serializes tool-list refreshes so an older list never overwrites a newer one. */
  refresh: Promise<void>;
  firstAttempt: Promise<void>;
  resolveFirstAttempt: () => void;
}

/** A new record, connecting, with its first attempt still to settle. */
export function createServerEntry(
  name: string,
  config: ServerConfig,
  reconnect: Required<ReconnectOptions>,
  runner?: PackageRunner,
): ServerEntry {
  let resolveFirstAttempt = () => {};
  const firstAttempt = new Promise<void>((resolve) => (resolveFirstAttempt = resolve));
  return {
    name,
    config,
    rules: new ToolRules(config.tools),
    state: 'connecting',
    connection: undefined,
    backoff: new BackoffState(reconnect),
    lastError: undefined,
    lastFix: undefined,
    stderr: new StderrTail(),
    runner,
    retryTimer: undefined,
    nextRetryAt: undefined,
    since: Date.now(),
    refresh: Promise.resolve(),
    firstAttempt,
    resolveFirstAttempt,
  };
}

/** A state change, with the time it happened (the status page's "since"). */
export function setEntryState(entry: ServerEntry, state: ServerState): void {
  if (entry.state !== state) entry.since = Date.now();
  entry.state = state;
}

/** H3: one server's line of `hub.status()`. */
export function entryStatus(
  entry: ServerEntry,
  tools: number,
  counts: { resources: number; templates: number; prompts: number },
): ServerStatus {
  return {
    server: entry.name,
    state: entry.state,
    tools,
    attempts: entry.backoff.attempts,
    reconnects: entry.backoff.reconnects,
    since: entry.since,
    ...(entry.lastError !== undefined && { lastError: entry.lastError }),
    ...(entry.lastFix !== undefined && { fix: entry.lastFix }),
    ...(entry.runner !== undefined && { runner: entry.runner.runner }),
    ...(entry.nextRetryAt !== undefined && { nextRetryAt: entry.nextRetryAt }),
    ...(entry.connection?.pid !== undefined && { pid: entry.connection.pid }),
    resources: counts.resources + counts.templates,
    prompts: counts.prompts,
  };
}

/** Why a server cannot take a request now, in words. */
export function describeState(entry: Pick<ServerEntry, 'state' | 'lastError' | 'runner' | 'since'>): string {
  switch (entry.state) {
    case 'connecting':
      return entry.lastError !== undefined ? `reconnecting after: ${entry.lastError}` : 'still connecting';
    case 'installing':
      return `still ${installingText({ runner: entry.runner?.runner ?? 'a package runner', since: entry.since }, Date.now())}`;
    case 'failed':
      return `failed: ${entry.lastError ?? 'unknown error'}`;
    case 'quarantined':
      return `quarantined after repeated crashes: ${entry.lastError ?? 'unknown error'}`;
    case 'needs-sign-in':
      return entry.lastError ?? 'needs sign-in';
    case 'closed':
      return 'the hub is closed';
    case 'connected':
      return 'connected';
  }
}
