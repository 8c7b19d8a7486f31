/**
 * G6: configuring the shared session store without code — URL forms, where the password comes
 * from, the config key, and the errors when something is wrong (no Redis needed).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectRedisBackend } from '../../src/gateway/redis/backend.js';
import { parseSessionStoreUrl, redisPasswordFromEnv } from '../../src/gateway/redis/store-url.js';
import { parseHubConfig } from '../../src/mcp/config.js';
import { runServe } from '../../src/cli/commands/serve.js';
import { fixtureServer } from '../fixtures/servers/index.js';
import { redisUnavailable, startRedis } from '../faults/redis.js';
import { TEST_PIN_SECRET } from '../fixtures/state.js';

describe('G6: --session-store URLs', () => {
  it('G6: redis://HOST:PORT[/DB] and rediss:// (TLS); defaults port 6379 and db 0; display never shows a password', () => {
    expect(parseSessionStoreUrl('redis://10.0.0.5:6380/3')).toEqual({
      host: '10.0.0.5',
      port: 6380,
      db: 3,
      tls: false,
      display: 'redis://10.0.0.5:6380/3',
    });
    expect(parseSessionStoreUrl('rediss://cache.internal')).toMatchObject({
      host: 'cache.internal',
      port: 6379,
      db: 0,
      tls: true,
    });
    const withSecret = parseSessionStoreUrl('redis://app:s%40cret@[::1]:7000/1');
    expect(withSecret).toMatchObject({ host: '::1', port: 7000, db: 1, username: 'app', password: 's@cret' });
    expect(withSecret.display).not.toContain('cret');
    // The environment's password wins over one in the URL.
    expect(parseSessionStoreUrl('redis://:inurl@h:1', 'fromenv').password).toBe('fromenv');
  });

  it('G6: bad URLs get a clear error that names the expected form and hides credentials', () => {
    expect(() => parseSessionStoreUrl('http://h:1')).toThrow(/unsupported scheme "http:".*redis:\/\/HOST:PORT/);
    expect(() => parseSessionStoreUrl('redis://h:1/zero')).toThrow(/database "zero"/);
    expect(() => parseSessionStoreUrl('localhost:6379')).toThrow(/SessionStore|scheme|not a URL/);
    expect(() => parseSessionStoreUrl('redis://:topsecret@h:1/x')).toThrow(
      expect.objectContaining({ name: 'SessionStoreConfigError', message: expect.not.stringContaining('topsecret') }),
    );
  });

  it('G6: password from TOOLSEARCH_REDIS_PASSWORD, else the file TOOLSEARCH_REDIS_PASSWORD_FILE names (trailing newline dropped)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-secret-'));
    writeFileSync(join(dir, 'pw'), 'from-file\n');
    const read = (path: string) => readFileSync(path, 'utf8');
    expect(
      redisPasswordFromEnv(
        { TOOLSEARCH_REDIS_PASSWORD: 'direct', TOOLSEARCH_REDIS_PASSWORD_FILE: join(dir, 'pw') },
        read,
      ),
    ).toBe('direct');
    expect(redisPasswordFromEnv({ TOOLSEARCH_REDIS_PASSWORD_FILE: join(dir, 'pw') }, read)).toBe('from-file');
    expect(redisPasswordFromEnv({}, read)).toBeUndefined();
    expect(() => redisPasswordFromEnv({ TOOLSEARCH_REDIS_PASSWORD_FILE: join(dir, 'missing') }, read)).toThrow(
      /cannot read TOOLSEARCH_REDIS_PASSWORD_FILE=.*ENOENT/,
    );
  });

  it('G6: without the optional ioredis package the error says what to install', async () => {
    const missing = Object.assign(new Error("Cannot find package 'ioredis'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(
      connectRedisBackend('redis://127.0.0.1:1', { env: {}, loadIoredis: () => Promise.reject(missing) }),
    ).rejects.toThrow(/needs the "ioredis" package.*npm install ioredis@5/);
  });

  it('G6: toolSearch.sessionStore in the config file; anything but redis[s]:// is refused naming the key', () => {
    expect(
      parseHubConfig({ mcpServers: {}, toolSearch: { sessionStore: 'redis://r:6379/0' } }).toolSearch.sessionStore,
    ).toBe('redis://r:6379/0');
    expect(() => parseHubConfig({ mcpServers: {}, toolSearch: { sessionStore: 'memcached://x' } }, 'mcp.json')).toThrow(
      /mcp.json at "toolSearch.sessionStore"/,
    );
  });
});

describe.skipIf(redisUnavailable() !== undefined)(
  'G6: serve picks the store: --session-store, then TOOLSEARCH_SESSION_STORE, then toolSearch.sessionStore',
  () => {
    it('G6: the flag beats the environment, which beats the config; the banner names the store without credentials', async () => {
      const redis = await startRedis();
      const dir = mkdtempSync(join(tmpdir(), 'toolsearch-serve-store-'));
      const config = join(dir, 'mcp.json');
      const unreachable = 'redis://127.0.0.1:1/5';
      writeFileSync(
        config,
        JSON.stringify({ mcpServers: { fx: fixtureServer('fx') }, toolSearch: { sessionStore: unreachable } }),
      );
      const base = {
        config,
        http: '127.0.0.1:0',
        logLevel: 'silent' as const,
        allowOrigin: [],
        allowHost: [],
        settleMs: 5_000,
      };
      const banner = async (options: Partial<typeof base> & { sessionStore?: string }) => {
        let out = '';
        const { stack } = await runServe({ ...base, ...options }, (t) => (out += t));
        await stack.close();
        return out.split('\n')[0];
      };
      const previous = process.env['TOOLSEARCH_SESSION_STORE'];
      // Replicas sharing Redis sign their pins with a secret they all hold (a test value here).
      const previousSecret = process.env['TOOLSEARCH_PIN_SECRET'];
      process.env['TOOLSEARCH_PIN_SECRET'] = TEST_PIN_SECRET;
      try {
        delete process.env['TOOLSEARCH_SESSION_STORE'];
        expect(await banner({})).toContain('sessions shared in redis://127.0.0.1:1/5');
        process.env['TOOLSEARCH_SESSION_STORE'] = `redis://:pw@127.0.0.1:${redis.port}/2`;
        const fromEnv = await banner({});
        expect(fromEnv).toContain(`sessions shared in redis://127.0.0.1:${redis.port}/2`);
        expect(fromEnv).not.toContain('pw');
        expect(await banner({ sessionStore: `${redis.url}/4` })).toContain(`sessions shared in ${redis.url}/4`);
      } finally {
        if (previous === undefined) delete process.env['TOOLSEARCH_SESSION_STORE'];
        else process.env['TOOLSEARCH_SESSION_STORE'] = previous;
        if (previousSecret === undefined) delete process.env['TOOLSEARCH_PIN_SECRET'];
        else process.env['TOOLSEARCH_PIN_SECRET'] = previousSecret;
        await redis.stop();
      }
    });
  },
);
