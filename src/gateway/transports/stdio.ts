/**
 * G3/G8 over stdio: one connection for the process, in the era the client opens with — a 2025
 * `initialize` makes the one session `stdio`; a 2026-07-28 `server/discover` (or any request with
 * the envelope) makes a stateless server whose list changes go to the client's
 * `subscriptions/listen` streams. The SDK's `serveStdio` tells the eras apart. Stdout carries
 * JSON-RPC only; logs go to stderr.
 *
 * Probe cost: a client in `auto` mode spawns a throwaway copy of the gateway just to send
 * `server/discover` and learn the era. `onFirstRequest` is called on the first message that is not
 * such a probe (or `probeGraceMs` after a probe when nothing follows), so the caller can spawn the
 * upstream servers there instead of at startup: a probe then costs no upstream spawn at all.
 */
import type { ServerEvent, Server } from '@modelcontextprotocol/server';
import { serveStdio as serveSdkStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { errorMessage } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import type { ToolsearchGateway } from '../gateway.js';
import { STDIO_IDENTITY } from '../sessions/identity.js';
import { PeekingTransport } from './peeking.js';

export const STDIO_SESSION_ID = 'stdio';
/** How long after a lone `server/discover` the upstream servers start anyway. */
export const DEFAULT_PROBE_GRACE_MS = 1_500;

export interface StdioServeOptions {
  /** Called once, on the first real request (see the file comment). */
  onFirstRequest?: () => void;
  probeGraceMs?: number;
  logger?: Logger;
}

/** Serve on this process's stdin/stdout; resolves when the client disconnects. */
export async function serveStdio(gateway: ToolsearchGateway, options: StdioServeOptions = {}): Promise<void> {
  let started = false;
  let grace: NodeJS.Timeout | undefined;
  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(grace);
    options.onFirstRequest?.();
  };
  const releases: Array<() => void> = [];
  let closedResolve: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    closedResolve = resolve;
  });
  const wire = new PeekingTransport(new StdioServerTransport(), {
    peek: (message) => {
      const method = 'method' in message ? message.method : undefined;
      if (method === 'server/discover') {
        grace ??= setTimeout(start, options.probeGraceMs ?? DEFAULT_PROBE_GRACE_MS);
      } else start();
      const uris = method === 'subscriptions/listen' ? listenedResources(message) : [];
      if (uris.length > 0) void gateway.listenToResources(uris).then((release) => releases.push(release));
    },
    closed: () => {
      clearTimeout(grace);
      for (const release of releases.splice(0)) release();
      closedResolve();
    },
  });
  // One user: what no request can be named for goes to it, and its roots pass through (README).
  gateway.proxy.singleUser = true;
  // C15: and the only identity that reaches this gateway: it learns from its own use at once.
  gateway.clients.learnFrom(gateway, STDIO_IDENTITY.proven);
  const handle = serveSdkStdio(({ era }) => (era === 'legacy' ? stdioSession(gateway) : modernStdioServer(gateway)), {
    transport: wire,
    onerror: (error) => options.logger?.debug(`stdio: ${errorMessage(error)}`),
  });
  process.stdin.once('end', () => void handle.close());
  await closed;
}

/** A 2025 connection's one session, its client the stdio user. */
function stdioSession(gateway: ToolsearchGateway): Server {
  const server = gateway.openSession(STDIO_SESSION_ID);
  gateway.clients.identify(STDIO_SESSION_ID, STDIO_IDENTITY);
  return server;
}

/** A 2026 connection's server: the gateway's change events become its notifications (the SDK puts them on listen streams). */
function modernStdioServer(gateway: ToolsearchGateway): Server {
  const server = gateway.createStatelessServer(STDIO_IDENTITY);
  const unsubscribe = gateway.listeners.bus.subscribe((event) => {
    void server.notification(notificationOf(event)).catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return server;
}

function notificationOf(event: ServerEvent): { method: string; params?: Record<string, unknown> } {
  switch (event.kind) {
    case 'tools_list_changed':
      return { method: 'notifications/tools/list_changed' };
    case 'prompts_list_changed':
      return { method: 'notifications/prompts/list_changed' };
    case 'resources_list_changed':
      return { method: 'notifications/resources/list_changed' };
    case 'resource_updated':
      return { method: 'notifications/resources/updated', params: { uri: event.uri } };
  }
}

function listenedResources(message: object): string[] {
  const params = (message as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params;
  const uris = params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
