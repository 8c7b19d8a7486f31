/**
 * D4 scale-out (issue 6): RedisSessionStore against a real `redis-server`, and a session that
 * starts on gateway process A, continues on gateway B after A is SIGKILLed, with its discovered
 * tools intact. The client's `fetch` plays the load balancer (it switches backends on failover).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { RedisSessionStore } from '../../src/gateway/redis/store.js';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { connectClient, type TestClient } from '../fixtures/clients.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { waitFor } from '../fixtures/wait.js';
import { redisUnavailable, startRedis, type TestRedis } from './redis.js';
import { cliArgs, REPO_ROOT } from '../fixtures/cli.js';
import { cliEnv } from '../fixtures/state.js';

const skipReason = redisUnavailable();
if (skipReason) console.log(skipReason);

describe.skipIf(skipReason !== undefined)('D4 scale-out: RedisSessionStore', () => {
  let redis: TestRedis;
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('D4: open/get/addDiscovered/delete: load order kept, only new names reported, unknown sessions undefined', async () => {
    const store = new RedisSessionStore({ client, prefix: 'unit:' });
    expect(await store.get('s1')).toBeUndefined();
    await store.open('s1');
    expect(await store.get('s1')).toEqual({ discovered: [] });
    expect(await store.addDiscovered('s1', ['b', 'a'])).toEqual(['b', 'a']);
    expect(await store.addDiscovered('s1', ['a', 'c', 'c'])).toEqual(['c']);
    expect(await store.get('s1')).toEqual({ discovered: ['b', 'a', 'c'] });
    expect(await store.get('s2')).toBeUndefined();
    expect(await client.ttl('unit:s1:list')).toBeGreaterThan(0);
    await store.delete('s1');
    expect(await store.get('s1')).toBeUndefined();
  });

  it('G6: DELETE leaves a tombstone: the id cannot be opened or extended again, and nothing is written back', async () => {
    const store = new RedisSessionStore({ client, prefix: 'tomb:', ttlSeconds: 60 });
    await store.open('t1');
    await store.addDiscovered('t1', ['a']);
    await store.delete('t1');
    expect(await store.wasDeleted('t1')).toBe(true);
    await expect(store.addDiscovered('t1', ['b'])).rejects.toMatchObject({ name: 'SessionGoneError' });
    await expect(store.open('t1')).rejects.toMatchObject({ name: 'SessionGoneError' });
    expect(await store.get('t1')).toBeUndefined();
    expect(await client.exists('tomb:t1:open', 'tomb:t1:set', 'tomb:t1:list')).toBe(0);
    expect(await client.ttl('tomb:t1:deleted')).toBeGreaterThan(0);
    // A session the store never knew (or lost) is not created by a late write either.
    await expect(store.addDiscovered('never', ['x'])).rejects.toMatchObject({ name: 'SessionGoneError' });
    expect(await client.exists('tomb:never:open', 'tomb:never:list')).toBe(0);
    expect(await store.wasDeleted('never')).toBe(false);
  });

  it('D4: idle sessions expire after ttlSeconds', async () => {
    const store = new RedisSessionStore({ client, prefix: 'ttl:', ttlSeconds: 1 });
    await store.open('gone');
    await store.addDiscovered('gone', ['x']);
    // Polled with EXISTS: get() itself would slide the expiry.
    await waitFor(
      async () => (await client.exists('ttl:gone:open', 'ttl:gone:set', 'ttl:gone:list')) === 0,
      'the session to expire',
      5_000,
    );
    expect(await store.get('gone')).toBeUndefined();
  });

  describe('a session moves from gateway A (killed) to gateway B', () => {
    let configPath: string;
    let a: ChildProcessWithoutNullStreams;
    let b: { stack: GatewayStack; http: RunningHttpGateway; redis: Redis };
    let session: TestClient;
    let backend = '';

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'toolsearch-scale-'));
      configPath = join(dir, 'mcp.json');
      writeFileSync(
        configPath,
        // The growing list: what the session loaded shows in its tools/list on either gateway.
        JSON.stringify({
          mcpServers: { fx: fixtureServer('fx'), other: fixtureServer('other') },
          toolSearch: { toolList: 'growing' },
        }),
      );
      // Gateway A is `toolsearch serve` as a replica runs it: sessions in the shared Redis store.
      a = spawn(
        process.execPath,
        cliArgs(
          ...['serve', '--http', '127.0.0.1:0', '--config', configPath, '--session-store', redis.url],
          ...['--no-learning', '--log-level', 'silent', '--settle-ms', '20000'],
        ),
        { cwd: REPO_ROOT, env: cliEnv() },
      );
      let out = '';
      a.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const bRedis = new Redis(redis.url);
      const stack = await createGatewayFromConfig({
        config: configPath,
        gateway: { sessions: new RedisSessionStore({ client: bRedis }) },
      });
      const http = await startHttpGateway(stack.gateway);
      b = { stack, http, redis: bRedis };
      // The banner's server summary follows the status page line once A's servers settled.
      const aUrl = (await waitFor(
        () => /listening on (http:\/\/[^\s,]+)[^\n]*\nstatus page: [^\n]*\n\S/.exec(out)?.[1],
        'gateway A to listen with its servers settled',
        60_000,
      ))!;
      await stack.hub.settled();
      backend = aUrl;
      // The load balancer: every request of this client goes to the current backend.
      const balanced = (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : input);
        const target = new URL(backend);
        url.host = target.host;
        return fetch(url, init);
      };
      session = await connectClient(new StreamableHTTPClientTransport(new URL(aUrl), { fetch: balanced }));
    });
    afterAll(async () => {
      await session?.close();
      if (a && a.exitCode === null) a.kill('SIGKILL');
      await b?.http.close();
      await b?.stack.close();
      b?.redis.disconnect();
    });

    /** The two tools loaded by search, plus the fixture's always-loaded `pinned` tools (order follows which server connected first). */
    const VISIBLE = [
      'tool_search',
      'call_tool',
      'mcp__fx__add',
      'mcp__fx__pinned',
      'mcp__other__ping',
      'mcp__other__pinned',
    ];

    it('D4/G3: discovered tools survive the loss of gateway A and keep working through gateway B', async () => {
      await session.call('tool_search', { query: 'select:mcp__fx__add,mcp__other__ping' });
      expect((await session.toolNames()).sort()).toEqual([...VISIBLE].sort());
      expect((await session.call('mcp__fx__add', { a: 2, b: 2 })).text).toBe('4');
      const sessionId = (session.client.transport as StreamableHTTPClientTransport).sessionId!;
      expect(b.http.sessionCount()).toBe(0);

      a.kill('SIGKILL');
      await new Promise((resolve) => a.once('exit', resolve));
      backend = b.http.url;

      expect((await session.toolNames()).sort()).toEqual([...VISIBLE].sort());
      expect((await session.call('mcp__fx__add', { a: 20, b: 22 })).text).toBe('42');
      expect((await session.call('call_tool', { name: 'mcp__other__ping', arguments: {} })).text).toBe(
        'pong from other',
      );
      expect(b.http.sessionCount()).toBe(1);
      // The session goes on growing on B, and the store sees it.
      await session.call('tool_search', { query: 'select:mcp__fx__ping' });
      expect((await session.call('mcp__fx__ping')).text).toBe('pong from fx');
      const stored = await new RedisSessionStore({ client }).get(sessionId);
      expect(stored?.discovered).toEqual(['mcp__fx__add', 'mcp__other__ping', 'mcp__fx__ping']);
    });

    it('D4: a client DELETE ends the session everywhere; an id the store never knew is refused', async () => {
      const transport = session.client.transport as StreamableHTTPClientTransport;
      const sessionId = transport.sessionId!;
      await transport.terminateSession();
      expect(await new RedisSessionStore({ client }).get(sessionId)).toBeUndefined();
      const res = await fetch(b.http.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': 'never-issued',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(res.status).toBe(404);
    });
  });
});
