/**
 * G6 scale-out (issue 15): two gateway replicas sharing a real `redis-server` behave, for a
 * client, like one gateway. The client's `fetch` plays a load balancer without stickiness.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/gateway/redis/store.js';
import { connectClient } from '../fixtures/clients.js';
import { waitFor } from '../fixtures/wait.js';
import { redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';
import {
  balancedClient,
  fixtureConfig,
  openStream,
  rawRequest,
  rawSession,
  roundRobin,
  startReplica,
  type BalancedClient,
  type Replica,
} from './replicas.js';

const skipReason = redisUnavailable();
if (skipReason) console.log(skipReason);

describe.skipIf(skipReason !== undefined)('G6: two replicas on one Redis', () => {
  const config = fixtureConfig();
  let redis: TestRedis;
  let a: Replica;
  let b: Replica;
  let inspect: Redis;
  const clients: BalancedClient[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url);
    [a, b] = await Promise.all([startReplica(config, redis.url), startReplica(config, redis.url)]);
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    inspect?.disconnect();
    await redis?.stop();
  });

  it('G6: requests of one session arriving together on a replica that never saw it are all answered (GET + POST + POST, 20 sessions)', async () => {
    for (let i = 0; i < 20; i++) {
      const sessionId = await rawSession(a.url);
      const stream = new AbortController();
      const [get, list1, list2] = await Promise.all([
        openStream(b.url, sessionId, stream.signal),
        rawRequest(b.url, sessionId, 'tools/list', {}, 1),
        rawRequest(b.url, sessionId, 'tools/list', {}, 2),
      ]);
      stream.abort();
      expect(get).toBe(200);
      for (const list of [list1, list2]) {
        expect(list.status).toBe(200);
        expect(((list.message?.result?.['tools'] ?? []) as { name: string }[]).map((t) => t.name)).toContain(
          'tool_search',
        );
      }
    }
  });

  it('G6: a request arriving while another request of the session is resuming it waits for the session instead of being dropped', async () => {
    // Redis slow to answer widens the window in which the old resume path handed out a transport
    // whose Server was not connected yet (the second request hung): it awaited a store write there.
    const client = new Redis(redis.url);
    const slow = new (class extends RedisSessionStore {
      override async open(sessionId: string): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return super.open(sessionId);
      }
      override async get(sessionId: string) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return super.get(sessionId);
      }
    })({ client });
    const c = await startReplica(config, redis.url, slow);
    try {
      for (let i = 0; i < 3; i++) {
        const sessionId = await rawSession(a.url);
        const first = rawRequest(c.url, sessionId, 'tools/list', {}, 1);
        // Send more while the first request's resume is past its store read (300 ms) and, on the old
        // path, still in its store write (300 ms more).
        await new Promise((resolve) => setTimeout(resolve, 400));
        const stream = new AbortController();
        const [get, second] = await Promise.all([
          openStream(c.url, sessionId, stream.signal),
          rawRequest(c.url, sessionId, 'tools/list', {}, 2),
        ]);
        stream.abort();
        expect(get).toBe(200);
        expect(second.status).toBe(200);
        expect(second.message?.result?.['tools']).toBeDefined();
        expect((await first).message?.result?.['tools']).toBeDefined();
      }
    } finally {
      await c.close();
      client.disconnect();
    }
  });

  it('G6: a session alternating replicas keeps its discoveries; a catalog change on the other replica reaches its stream', async () => {
    const onB = b.http.sessionCount();
    // POSTs go to A, the standing GET stream to B.
    const client = await balancedClient(a.url, (method) => (method === 'GET' ? b.url : a.url));
    clients.push(client);
    await client.call('tool_search', { query: 'select:mcp__fx__grow' });
    await waitFor(() => b.http.sessionCount() === onB + 1, 'the GET stream to open on B');
    const before = client.listChanged();
    // fx on A grows a tool: A's catalog changes; only B holds the client's stream.
    expect((await client.call('mcp__fx__grow')).isError).toBeFalsy();
    await waitFor(() => client.listChanged() > before, 'list_changed relayed from A to the stream on B');

    // A per-session notification sent out of band on A (the gateway's notifySession) arrives through B too.
    const beforeSession = client.listChanged();
    a.stack.gateway.notifySession(client.transport.sessionId!, { method: 'notifications/tools/list_changed' });
    await waitFor(
      () => client.listChanged() > beforeSession,
      'a per-session notification sent on A to arrive through B',
    );
    // A resource update for this session (what a subscription sends), and a change for every session.
    a.stack.gateway.notifySession(client.transport.sessionId!, {
      method: 'notifications/resources/updated',
      params: { uri: 'file:///watched.txt' },
    });
    a.stack.gateway.notifyAllSessions({ method: 'notifications/prompts/list_changed' });
    await waitFor(
      () =>
        ['notifications/resources/updated', 'notifications/prompts/list_changed'].every((m) =>
          client.notifications.some((n) => n.method === m),
        ),
      'resources/updated and prompts/list_changed sent on A to arrive through B',
    );
    expect(client.notifications.find((n) => n.method === 'notifications/resources/updated')?.params).toEqual({
      uri: 'file:///watched.txt',
    });
  });

  it('G6: DELETE through one replica is honoured on every replica: 404 everywhere, streams closed, nothing written back', async () => {
    const [onA, onB] = [a.http.sessionCount(), b.http.sessionCount()];
    const client = await balancedClient(a.url, roundRobin([a.url, b.url], b.url));
    clients.push(client);
    await client.call('tool_search', { query: 'select:mcp__fx__ping' });
    for (let i = 0; i < 4; i++) expect((await client.call('mcp__fx__ping')).text).toBe('pong from fx');
    const sessionId = client.transport.sessionId!;
    await waitFor(
      () => a.http.sessionCount() === onA + 1 && b.http.sessionCount() === onB + 1,
      'the session to be open on both replicas',
    );

    await client.transport.terminateSession();
    for (const replica of [a, b]) {
      expect((await rawRequest(replica.url, sessionId, 'tools/list')).status).toBe(404);
      expect(
        (
          await rawRequest(replica.url, sessionId, 'tools/call', {
            name: 'tool_search',
            arguments: { query: 'select:mcp__fx__add' },
          })
        ).status,
      ).toBe(404);
    }
    await waitFor(
      () => a.http.sessionCount() === onA && b.http.sessionCount() === onB,
      'both replicas to close the session',
    );
    expect(await inspect.exists(`toolsearch:session:${sessionId}:open`, `toolsearch:session:${sessionId}:list`)).toBe(
      0,
    );
    expect(await inspect.exists(`toolsearch:session:${sessionId}:deleted`)).toBe(1);
  });

  it('G6: once DELETE is answered, the very next request to another replica already gets 404', async () => {
    // Redis slow to take the tombstone: DELETE must not be answered before it is written.
    const client = new Redis(redis.url);
    const slow = new (class extends RedisSessionStore {
      override async delete(sessionId: string): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return super.delete(sessionId);
      }
    })({ client });
    const c = await startReplica(config, redis.url, slow);
    try {
      for (let i = 0; i < 3; i++) {
        const sessionId = await rawSession(c.url);
        expect((await rawRequest(b.url, sessionId, 'tools/list')).status).toBe(200);
        expect((await fetch(c.url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } })).status).toBe(200);
        expect((await rawRequest(b.url, sessionId, 'tools/list')).status).toBe(404);
      }
    } finally {
      await c.close();
      client.disconnect();
    }
  });
});

describe.skipIf(skipReason !== undefined)('G6: Redis restarts under two replicas', () => {
  const config = fixtureConfig();
  const run = async (
    persist: boolean,
    body: (ctx: { redis: TestRedis; a: Replica; b: Replica; client: BalancedClient }) => Promise<void>,
  ) => {
    const redis = await startRedis({ persist });
    const [a, b] = await Promise.all([startReplica(config, redis.url), startReplica(config, redis.url)]);
    const client = await balancedClient(a.url, roundRobin([a.url, b.url], b.url));
    try {
      await body({ redis, a, b, client });
    } finally {
      await client.close().catch(() => undefined);
      await Promise.allSettled([a.close(), b.close()]);
      await redis.stop();
    }
  };

  it('G6: with persistence, a call made while Redis is down waits for it and the session continues with its discoveries', async () => {
    await run(true, async ({ redis, a, b, client }) => {
      await client.call('tool_search', { query: 'select:mcp__fx__add' });
      await redis.stop();
      const during = client.call('mcp__fx__add', { a: 1, b: 2 });
      await waitFor(() => a.logs.concat(b.logs).some((l) => l.includes('unreachable')), 'the outage to be logged');
      await redis.restart();
      expect((await during).text).toBe('3');
      for (let i = 0; i < 4; i++) expect((await client.call('mcp__fx__add', { a: i, b: 1 })).text).toBe(String(i + 1));
      await waitFor(
        () => a.logs.concat(b.logs).some((l) => l.includes('reachable again')),
        'the recovery to be logged',
      );
      // Logged once per state change, not per request.
      expect(a.logs.filter((l) => l.includes('unreachable')).length).toBeLessThanOrEqual(1);
    });
  });

  it("G6: the replica holding the stream goes away: the client's stream reopens on the other and notifications arrive there", async () => {
    await run(false, async ({ a, b }) => {
      let streamTo = b.url;
      const onB = b.http.sessionCount();
      const client = await balancedClient(a.url, (method) => (method === 'GET' ? streamTo : a.url));
      try {
        await client.call('tool_search', { query: 'select:mcp__fx__add' });
        await waitFor(() => b.http.sessionCount() === onB + 1, 'the stream to open on B');
        streamTo = a.url;
        await b.close(); // ends B's streams; the SDK client reopens its GET stream, now on A
        const arrived = () => client.notifications.some((n) => n.method === 'notifications/prompts/list_changed');
        await waitFor(() => {
          if (!arrived()) a.stack.gateway.notifyAllSessions({ method: 'notifications/prompts/list_changed' });
          return arrived();
        }, 'a notification through the reopened stream');
        expect((await client.call('mcp__fx__add', { a: 2, b: 3 })).text).toBe('5');
      } finally {
        await client.close().catch(() => undefined);
      }
    });
  });

  it('G6: Redis down for good: requests of open sessions and new initializes get 503 with Retry-After (safe to retry), logged once', async () => {
    await run(false, async ({ redis, a }) => {
      const sessionId = await rawSession(a.url);
      expect((await rawRequest(a.url, sessionId, 'tools/list')).status).toBe(200);
      await redis.stop();
      const answers = await Promise.all([
        rawRequest(a.url, sessionId, 'tools/list', {}, 1),
        rawRequest(a.url, sessionId, 'tools/list', {}, 2),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.message?.error?.message).toMatch(/Session store unavailable.*retry/);
      }
      const fresh = await fetch(a.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      });
      expect(fresh.status).toBe(503);
      expect(fresh.headers.get('retry-after')).toBe('1');
      expect(a.logs.filter((l) => l.includes('unreachable')).length).toBe(1);
    });
  }, 60_000);

  it('G6: a session resumed while Redis restarts empty is not written back empty (the next request gets 404)', async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    let pause: Promise<void> | undefined;
    let paused = false;
    // Reads answer after a pause, during which Redis restarts empty: the resume saw the session, the store no longer has it.
    const slow = new (class extends RedisSessionStore {
      override async get(sessionId: string) {
        const record = await super.get(sessionId);
        if (pause) {
          paused = true;
          await pause;
        }
        return record;
      }
    })({ client });
    const [a, c] = await Promise.all([startReplica(config, redis.url), startReplica(config, redis.url, slow)]);
    try {
      const sessionId = await rawSession(a.url);
      let release!: () => void;
      pause = new Promise((resolve) => (release = resolve));
      const first = rawRequest(c.url, sessionId, 'tools/list');
      await waitFor(() => paused, 'the resume to have read the session');
      await redis.restart();
      release();
      pause = undefined;
      await first;
      expect(await client.exists(`toolsearch:session:${sessionId}:open`, `toolsearch:session:${sessionId}:list`)).toBe(
        0,
      );
      expect((await rawRequest(c.url, sessionId, 'tools/list')).status).toBe(404);
      expect((await rawRequest(a.url, sessionId, 'tools/list')).status).toBe(404);
    } finally {
      await Promise.allSettled([a.close(), c.close()]);
      client.disconnect();
      await redis.stop();
    }
  });

  it('G6: Redis restarted empty: the session answers 404 (the client starts a new one), and the log points at Redis', async () => {
    await run(false, async ({ redis, a, b, client }) => {
      await client.call('tool_search', { query: 'select:mcp__fx__add' });
      expect((await client.call('mcp__fx__add', { a: 1, b: 1 })).text).toBe('2');
      await redis.stop();
      await redis.restart();
      await expect(client.call('mcp__fx__add', { a: 1, b: 2 })).rejects.toMatchObject({ code: 404 });
      const logs = () => a.logs.concat(b.logs);
      await waitFor(
        () => logs().some((l) => l.includes('no longer in the session store') && l.includes('Redis')),
        'a warning pointing at Redis',
      );
      expect(logs().some((l) => l.includes('restarted'))).toBe(true);
      // A new session works on both replicas.
      const fresh = await connectClient(new StreamableHTTPClientTransport(new URL(b.url)));
      await fresh.call('tool_search', { query: 'select:mcp__fx__add' });
      expect((await fresh.call('mcp__fx__add', { a: 2, b: 2 })).text).toBe('4');
      await fresh.close();
    });
  });
});
