import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { startHttpGateway, type RunningHttpGateway } from '../../src/gateway/transports/http/server.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { redisUnavailable, startRedis, type TestRedis } from './redis.js';

const skip = redisUnavailable();

/** G5 — DELETE tombstones (and stored sessions) live as long as an idle session may, not 24 h. */
describe.skipIf(skip !== undefined)('G5 tombstone TTL = idleSessionTimeoutMs', () => {
  let redis: TestRedis;
  let stack: GatewayStack;
  let http: RunningHttpGateway;

  beforeAll(async () => {
    redis = await startRedis();
    stack = await createGatewayFromConfig({
      config: parseHubConfig({ mcpServers: {} }, 'test'),
      sessionStore: redis.url,
      limits: { idleSessionTimeoutMs: 120_000 },
    });
    http = await startHttpGateway(stack.gateway, { port: 0 });
  }, 30_000);
  afterAll(async () => {
    await http?.close();
    await stack?.close();
    await redis?.stop();
  });

  it('G5: initialize + DELETE leaves keys that expire within the idle timeout', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(http.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'loop', version: '1' } },
      }),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    expect((await fetch(http.url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': sessionId } })).ok).toBe(
      true,
    );
    const client = new Redis(redis.url);
    try {
      const keys = (await client.keys('*')).filter((key) => key.includes(sessionId));
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const ttl = await client.ttl(key);
        expect(ttl, key).toBeGreaterThan(0);
        expect(ttl, key).toBeLessThanOrEqual(120);
      }
    } finally {
      client.disconnect();
    }
  });
});
