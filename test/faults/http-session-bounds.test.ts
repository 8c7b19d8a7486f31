import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { GatewayMetrics } from '../../src/gateway/status/metrics.js';
import { InitializeRate } from '../../src/gateway/transports/http/initialize-rate.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { QueuedBytes } from '../../src/gateway/transports/http/stream-queue.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import type { Logger } from '../../src/util/log.js';
import { PEER_SERVER } from '../fixtures/servers/index.js';
import {
  initializeAndDelete,
  rawCall,
  rawSession,
  toolCallRequest,
  unreadPost,
  unreadStream,
} from '../fixtures/raw-http.js';
import { waitFor } from '../fixtures/wait.js';

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const capture = (warnings: string[]): Logger => ({
  error: () => undefined,
  warn: (message) => void warnings.push(message),
  info: () => undefined,
  debug: () => undefined,
});

/** G5 — bytes queued per session stream (streamQueuedBytes), over real HTTP with a real upstream. */
describe('G5 a stream its client never reads is closed, not buffered', () => {
  const CAP = 256 * 1024;
  const LINE = 10_000;
  const warnings: string[] = [];
  let stack: GatewayStack;
  let http: RunningHttpGateway;

  beforeAll(async () => {
    stack = await createGatewayFromConfig({
      config: parseHubConfig({ mcpServers: { peer: { command: process.execPath, args: [PEER_SERVER] } } }, 'test'),
      gateway: { mode: 'never' },
    });
    http = await startHttpGateway(stack.gateway, { port: 0, maxStreamQueuedBytes: CAP, logger: capture(warnings) });
    await stack.hub.settled();
  }, 30_000);
  afterAll(async () => {
    await http?.close();
    await stack?.close();
  });

  it('G5: a GET stream never read while 40 MB of logs arrive is closed past streamQueuedBytes; the session and others go on', async () => {
    const sessionId = await rawSession(http.url);
    const socket = unreadStream(http.url, sessionId);
    let closed = false;
    socket.once('close', () => (closed = true));
    // Let the GET stream open before the flood (its first bytes are then queued behind the paused socket).
    await waitFor(() => (stack.gateway.liveSessions >= 1 ? true : undefined), 'the session');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = await rawCall(http.url, sessionId, 'mcp__peer__log_flood', { count: 4_000, bytes: LINE });
    expect(answer).toContain('flooded');

    const warning = await waitFor(() => warnings.find((w) => w.includes('streamQueuedBytes')), 'the stream warning');
    expect(warning).toContain(`session ${sessionId}: closed its GET stream`);
    const queued = Number(/: (\d+) bytes queued/.exec(warning)?.[1]);
    // Never more than the cap plus the one event that crossed it (a log line and its SSE framing).
    expect(queued).toBeGreaterThan(CAP);
    expect(queued).toBeLessThanOrEqual(CAP + LINE + 1_000);
    socket.resume();
    await waitFor(() => closed, 'the unread stream to be closed');

    // The session itself lives on (its next call works), and so does another session.
    expect(await rawCall(http.url, sessionId, 'mcp__peer__lists', {})).toMatch(/"text":"\d+"/);
    const other = new Client({ name: 'other', version: '1.0.0' });
    await other.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(Number(text(await other.callTool({ name: 'mcp__peer__lists', arguments: {} })))).toBeGreaterThan(0);
    await other.close();
    expect(warnings.filter((w) => w.includes('streamQueuedBytes'))).toHaveLength(1);
  }, 60_000);

  /** A call's response stream never read while the upstream sends 40 MB of progress: closed, and why. */
  const unreadProgress = async (era: { sessionId: string } | 'modern', expected: string) => {
    warnings.length = 0;
    const { headers, body } = toolCallRequest('mcp__peer__progress_flood', { count: 4_000, bytes: LINE }, era);
    const socket = unreadPost(http.url, headers, body);
    let closed = false;
    socket.once('close', () => (closed = true));
    const warning = await waitFor(() => warnings.find((w) => w.includes('streamQueuedBytes')), 'the warning', 30_000);
    expect(warning).toContain(expected);
    const queued = Number(/: (\d+) bytes queued/.exec(warning)?.[1]);
    expect(queued).toBeGreaterThan(CAP);
    expect(queued).toBeLessThanOrEqual(CAP + LINE + 1_000);
    socket.resume();
    await waitFor(() => closed, 'the unread response to be closed');
  };

  it('G5: a 2025 POST response never read while the upstream sends 40 MB of progress is closed past streamQueuedBytes', async () => {
    const sessionId = await rawSession(http.url);
    await unreadProgress({ sessionId }, `session ${sessionId}: closed its POST stream`);
    expect(await rawCall(http.url, sessionId, 'mcp__peer__lists', {})).toMatch(/"text":"\d+"/);
  }, 60_000);

  it('G5: a 2026-07-28 call whose response is never read is closed the same way', async () => {
    await unreadProgress('modern', '2026-07-28 POST stream closed');
  }, 60_000);
});

/** G5 — initialize rate per client address (initializePerMinute, initializeBurst), over real HTTP. */
describe('G5 initialize is rate-limited per client address', () => {
  const BURST = 5;
  const warnings: string[] = [];
  let stack: GatewayStack;
  let http: RunningHttpGateway;
  let metrics: GatewayMetrics;

  beforeAll(async () => {
    stack = await createGatewayFromConfig({
      config: parseHubConfig({ mcpServers: {} }, 'test'),
      gateway: { mode: 'never' },
    });
    metrics = new GatewayMetrics({ gateway: stack.gateway, servers: () => [], processMetrics: false });
    http = await startHttpGateway(stack.gateway, {
      port: 0,
      initializeRate: { perMinute: 1, burst: BURST },
      logger: capture(warnings),
    });
  }, 30_000);
  afterAll(async () => {
    metrics?.close();
    await http?.close();
    await stack?.close();
  });

  const initialize = async (localAddress: string) => {
    const answer = await initializeAndDelete(http.url, localAddress);
    return { ...answer, retryAfter: answer.headers['retry-after'] };
  };

  it('G5: initializeBurst + 1 initialize + DELETE from one address: the last gets 429 with Retry-After; another address is not affected', async () => {
    for (let i = 0; i < BURST; i++) expect((await initialize('127.0.0.1')).status).toBe(200);
    const refused = await initialize('127.0.0.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    const error = JSON.parse(refused.body) as { jsonrpc: string; error: { message: string } };
    expect(error.jsonrpc).toBe('2.0');
    expect(error.error.message).toMatch(/initializeBurst, initializePerMinute/);
    expect(warnings.some((w) => w.includes('initialize from 127.0.0.1 refused: 429'))).toBe(true);
    expect(await metrics.render()).toContain('toolsearch_limits_applied_total{limit="initializePerMinute"} 1');
    // Another client address (loopback has all of 127/8) still opens sessions.
    expect((await initialize('127.0.0.2')).status).toBe(200);
    expect(http.sessionCount()).toBe(0);
  });
});

describe('G5 the pieces: token bucket and queued bytes', () => {
  it('G5: a bucket refills at perMinute, never past the burst; full buckets are forgotten', () => {
    let now = 0;
    const rate = new InitializeRate(60, 2, () => now);
    expect([rate.take('a').ok, rate.take('a').ok, rate.take('a')]).toEqual([
      true,
      true,
      { ok: false, retryAfterSeconds: 1 },
    ]);
    now += 1_000;
    expect(rate.take('a').ok).toBe(true);
    expect(rate.take('a').ok).toBe(false);
    now += 3_600_000;
    expect([rate.take('a').ok, rate.take('a').ok, rate.take('a').ok]).toEqual([true, true, false]);
    for (let i = 0; i < 5_000; i++) rate.take(`addr${i}`);
    now += 3_600_000;
    rate.take('z');
    for (let i = 0; i < 5_000; i++) rate.take(`late${i}`);
    expect(rate.size).toBeLessThan(7_000);
  });

  it('G5: queued bytes are the sizes of the chunks the stream still holds', () => {
    const queue = new QueuedBytes();
    expect(queue.push(100, 0)).toBe(0); // handed straight to a waiting reader
    expect(queue.push(10, 1)).toBe(10);
    expect(queue.push(20, 2)).toBe(30);
    expect(queue.push(40, 2)).toBe(60); // the 10 was read
    expect(queue.push(5, 0)).toBe(0);
  });
});
