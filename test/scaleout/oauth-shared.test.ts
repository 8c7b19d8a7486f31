/**
 * G6/G7 — replicas share sign-ins through their Redis (`toolSearch.sessionStore`): two gateways
 * with separate state directories (two hosts) over a real redis-server and an authorization
 * server with 2-second tokens and rotating (single-use) refresh tokens. One `toolsearch auth
 * login` (a real CLI process, the browser step a redirect-following script) connects both without
 * a restart; past expiry, calls on both at once refresh one at a time across them (no rotated token
 * spent twice); nothing is written to either state directory; `auth status` / `auth logout` act on
 * the same Redis.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayFromConfig, type GatewayStack } from '../../src/gateway/create.js';
import { redisUnavailable, startRedis, type TestRedis } from '../faults/redis.js';
import { OAUTH_SERVER } from '../fixtures/servers/index.js';
import { type Spawned, spawnListening } from '../fixtures/spawned.js';
import { waitFor } from '../fixtures/wait.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);
const FOLLOW = fileURLToPath(new URL('../fixtures/follow-redirects.mjs', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const skip = redisUnavailable() !== undefined;

describe.skipIf(skip)('G6/G7: sign-ins shared by replicas through Redis', () => {
  let redis: TestRedis;
  let server: Spawned;
  let dir: string;
  let configFile: string;
  const replicas: GatewayStack[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    server = await spawnListening([OAUTH_SERVER], { TOKEN_TTL_S: '2' });
    dir = mkdtempSync(join(tmpdir(), 'ts-oauth-shared-'));
    configFile = join(dir, 'mcp.json');
    writeFileSync(
      configFile,
      JSON.stringify({ mcpServers: { rotating: { url: server.url } }, toolSearch: { sessionStore: redis.url } }),
    );
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled(replicas.map((r) => r.close()));
    server?.stop();
    await redis?.stop();
  });

  const cli = (args: string[]) =>
    run(process.execPath, cliArgs(...args, '--config', configFile), {
      cwd: repoRoot,
      env: { ...process.env, TOOLSEARCH_STATE_DIR: join(dir, 'cli-state'), BROWSER: `${process.execPath} ${FOLLOW}` },
      timeout: 60_000,
    });
  const state = (r: GatewayStack) => r.hub.status()[0]?.state;
  const whoami = async (r: GatewayStack) => JSON.stringify((await r.hub.callTool('rotating', 'whoami', {})).content);
  const stats = async () =>
    (await (await fetch(new URL('/test/stats', server.url))).json()) as { refreshes: number; refreshFailures: number };

  it('G6/G7: one `auth login` connects both replicas; past expiry they refresh one at a time; logout reaches both stores', async () => {
    for (const name of ['a', 'b']) {
      const stack = await createGatewayFromConfig({
        config: configFile,
        hub: { stateDir: join(dir, `state-${name}`), reconnect: false },
      });
      replicas.push(stack);
    }
    for (const r of replicas) await r.hub.settled();
    expect(replicas.map(state)).toEqual(['needs-sign-in', 'needs-sign-in']);

    const login = await cli(['auth', 'login', 'rotating']);
    expect(login.stderr).toMatch(
      /Signed in to "rotating"\. Its tokens are kept in redis:\/\/127\.0\.0\.1:\d+\/0 \(key /,
    );
    for (const r of replicas) await waitFor(() => state(r) === 'connected', 'a replica to pick up the sign-in', 15_000);
    for (const r of replicas) expect(await whoami(r)).toContain('client');
    // Kept in Redis only: no replica (and not the CLI) wrote a credentials file.
    for (const name of ['state-a', 'state-b', 'cli-state']) expect(existsSync(join(dir, name, 'oauth'))).toBe(false);

    // Past expiry: three calls on each replica at once; every one succeeds and no refresh fails.
    const before = await stats();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const results = await Promise.all(replicas.flatMap((r) => [whoami(r), whoami(r), whoami(r)]));
    for (const result of results) expect(result).toContain('client');
    const after = await stats();
    expect(after.refreshFailures).toBe(before.refreshFailures);
    expect(after.refreshes).toBeGreaterThan(before.refreshes);

    expect((await cli(['auth', 'status'])).stdout).toMatch(/rotating\s+signed in/);
    await cli(['auth', 'logout', 'rotating']);
    expect((await cli(['auth', 'status'])).stdout).toMatch(/rotating\s+not signed in/);
  }, 90_000);
});
