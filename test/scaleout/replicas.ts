/**
 * Gateway replicas for the scale-out tests (G6): in-process ones (fast, their logs captured) and
 * `toolsearch serve --session-store …` child processes (killable), plus raw Streamable HTTP
 * requests for what the SDK client hides (status codes, concurrent requests of one session).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import type { SessionStore } from '../../src/gateway/sessions/store.js';
import { createStderrLogger } from '../../src/util/log.js';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { cliEnv } from '../fixtures/state.js';
import { cliArgs } from '../fixtures/cli.js';

/** A config with two fixture servers, written to a temp dir. */
/** Two fixture servers; `toolSearch` as given (absent: the gateway's defaults, a fixed tool list). */
export function fixtureConfig(toolSearch?: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolsearch-scaleout-')), 'mcp.json');
  const mcpServers = { fx: fixtureServer('fx'), other: fixtureServer('other') };
  writeFileSync(path, JSON.stringify({ mcpServers, ...(toolSearch && { toolSearch }) }));
  return path;
}

export interface Replica {
  stack: GatewayStack;
  http: RunningHttpGateway;
  url: string;
  /** Everything it logged (debug and up). */
  logs: string[];
  close(): Promise<void>;
}

/** `sessions` replaces the store made from `sessionStore` (the bus still comes from it). */
export async function startReplica(config: string, sessionStore: string, sessions?: SessionStore): Promise<Replica> {
  const logs: string[] = [];
  const logger = createStderrLogger('debug', (line) => logs.push(line));
  const stack = await createGatewayFromConfig({
    config,
    sessionStore,
    logger,
    ...(sessions && { gateway: { sessions } }),
  });
  const http = await startHttpGateway(stack.gateway, { logger });
  await stack.hub.settled();
  return {
    stack,
    http,
    url: http.url,
    logs,
    close: async () => {
      await http.close();
      await stack.close();
    },
  };
}

export interface ReplicaProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  kill(): Promise<void>;
}

/** `toolsearch serve --http 127.0.0.1:PORT [--session-store URL]` as its own process. */
export async function spawnReplica(
  config: string,
  sessionStore: string | undefined,
  port: number,
  /** More `serve` flags (limits, --trust-proxy). */
  extra: readonly string[] = [],
): Promise<ReplicaProcess> {
  const child = spawn(
    process.execPath,
    cliArgs(
      'serve',
      '--config',
      config,
      '--http',
      `127.0.0.1:${port}`,
      ...(sessionStore !== undefined ? ['--session-store', sessionStore] : []),
      '--settle-ms',
      '10000',
      '--log-level',
      'debug',
      ...extra,
    ),
    {
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // The summary follows the listening line once servers settled.
  await waitFor(() => out.includes('tools:') || child.exitCode !== null, 'the replica to start', 30_000);
  if (child.exitCode !== null) throw new Error(`replica exited: ${err}`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stderr: () => err,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** A `fetch` for the SDK client that sends each request where `pick` says (a load balancer). */
export function balancedFetch(pick: (method: string) => string): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.host = new URL(pick(init?.method ?? 'GET')).host;
    return fetch(url, init);
  };
}

export interface BalancedClient extends TestClient {
  transport: StreamableHTTPClientTransport;
  /** Every notification other than list_changed, in arrival order. */
  notifications: { method: string; params?: unknown }[];
}

export async function balancedClient(entry: string, pick: (method: string) => string): Promise<BalancedClient> {
  const transport = new StreamableHTTPClientTransport(new URL(entry), { fetch: balancedFetch(pick) });
  const client = await connectClient(transport);
  const notifications: BalancedClient['notifications'] = [];
  client.client.fallbackNotificationHandler = async (n) => {
    notifications.push(n);
  };
  return { ...client, transport, notifications };
}

/** Round robin over `urls` for POST/DELETE; GET (the standing stream) always to `getTo`. */
export function roundRobin(urls: string[], getTo: string = urls[0]!): (method: string) => string {
  let next = 0;
  return (method) => (method === 'GET' ? getTo : urls[next++ % urls.length]!);
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface RawAnswer {
  status: number;
  sessionId: string | null;
  /** The JSON-RPC message answering the request, if any. */
  message?: { result?: Record<string, unknown>; error?: { message: string } };
}

/** One JSON-RPC request as a raw POST; hangs become failures after 20 s. */
export async function rawRequest(
  url: string,
  sessionId: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): Promise<RawAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, ...(sessionId !== undefined && { 'mcp-session-id': sessionId }) },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  const messages = res.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
    : text
      ? [JSON.parse(text) as Record<string, unknown>]
      : [];
  const message = messages.find((m) => m['id'] === id || m['error'] !== undefined) as RawAnswer['message'];
  return { status: res.status, sessionId: res.headers.get('mcp-session-id'), ...(message && { message }) };
}

/** initialize + notifications/initialized as raw requests; the new session id. */
export async function rawSession(url: string): Promise<string> {
  const init = await rawRequest(
    url,
    undefined,
    'initialize',
    { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    0,
  );
  if (init.status !== 200 || !init.sessionId) throw new Error(`initialize failed: ${init.status}`);
  await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': init.sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return init.sessionId;
}

/** Open the standing GET stream; resolves with its status once headers arrive. */
export async function openStream(url: string, sessionId: string, signal: AbortSignal): Promise<number> {
  const res = await fetch(url, {
    method: 'GET',
    headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
    signal,
  });
  return res.status;
}
