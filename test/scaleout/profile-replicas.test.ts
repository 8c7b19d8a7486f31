/**
 * G6/G9 — profile sessions in the replicas' Redis: a client of `/mcp/<profile>` whose requests a
 * balancer spreads over two replicas (round robin, no stickiness) searches on one and calls on
 * the other, and the replica that never saw the session resumes it with what it loaded. A profile
 * keeps its own keys and channel: its session id means nothing on the main endpoint.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { profileEndpoints } from '../../src/gateway/profiles/http.js';
import { type RunningHttpGateway, startHttpGateway } from '../../src/gateway/transports/http/server.js';
import { redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { type BalancedClient, balancedClient, rawRequest, roundRobin } from './replicas.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const skip = redisUnavailable() !== undefined;

interface ProfileReplica {
  stack: GatewayStack;
  http: RunningHttpGateway;
  /** `http://127.0.0.1:PORT` */
  origin: string;
}

async function profileReplica(config: string, sessionStore: string): Promise<ProfileReplica> {
  const stack = await createGatewayFromConfig({ config, sessionStore });
  const endpoints = profileEndpoints(stack.profiles, {}, async () => false);
  const http = await startHttpGateway(stack.gateway, { routes: endpoints.routes });
  await stack.hub.settled();
  const close = stack.close;
  stack.close = async () => {
    await endpoints.close();
    await close();
  };
  return { stack, http, origin: new URL(http.url).origin };
}

describe.skipIf(skip)('G6/G9: profile sessions shared by replicas', () => {
  let redis: TestRedis;
  let inspect: Redis;
  let a: ProfileReplica;
  let b: ProfileReplica;
  const clients: BalancedClient[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url);
    const config = join(mkdtempSync(join(tmpdir(), 'ts-profile-replicas-')), 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { fx: fixtureServer('fx'), other: fixtureServer('other') },
        profiles: { team: { servers: ['fx'] } },
        // The growing list: what the profile session loaded shows in its tools/list on either replica.
        toolSearch: { toolList: 'growing' },
      }),
    );
    [a, b] = await Promise.all([profileReplica(config, redis.url), profileReplica(config, redis.url)]);
  }, 30_000);
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    for (const r of [a, b]) await Promise.allSettled([r?.http.close(), r?.stack.close()]);
    inspect?.disconnect();
    await redis?.stop();
  });

  it('G6/G9: search on one replica, call on the other: the profile session resumes with what it loaded', async () => {
    const urls = [`${a.origin}/mcp/team`, `${b.origin}/mcp/team`];
    const client = await balancedClient(urls[0]!, roundRobin(urls));
    clients.push(client);
    for (let i = 0; i < 3; i++) {
      const found = await client.call('tool_search', { query: 'select:mcp__fx__add' });
      expect(found.text).toContain('mcp__fx__add');
      // The next request lands on the other replica.
      const sum = await client.call('mcp__fx__add', { a: i, b: 2 });
      expect(sum.isError, sum.text).toBeFalsy();
      expect(sum.text).toBe(String(i + 2));
    }
    expect(await client.toolNames()).toContain('mcp__fx__add');
    // Kept under the profile's own keys.
    const sessionId = client.transport.sessionId!;
    expect(await inspect.keys(`toolsearch:profile:team:session:${sessionId}*`)).not.toEqual([]);
    // The profile's session id is not a session of the main endpoint, on either replica.
    for (const r of [a, b]) expect((await rawRequest(r.http.url, sessionId, 'tools/list')).status).toBe(404);
  });
});
