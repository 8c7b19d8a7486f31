/**
 * G7: token refresh against an authorization server with 2-second access tokens and rotating
 * (single-use) refresh tokens: calls after expiry refresh and succeed; concurrent calls in two
 * hubs of two processes sharing the token store refresh once at a time (a rotated token is never
 * used twice); a revoked sign-in turns the server to `needs sign-in`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { signIn } from '../../src/mcp/remote/oauth/login.js';
import type { HttpServerConfig } from '../../src/mcp/config.js';
import { OAUTH_SERVER } from '../fixtures/servers/index.js';
import { type Spawned, spawnListening } from '../fixtures/spawned.js';
import { waitFor } from '../fixtures/wait.js';

const run = promisify(execFile);
const FOLLOW = fileURLToPath(new URL('../fixtures/follow-redirects.mjs', import.meta.url));
const SECOND = fileURLToPath(new URL('../fixtures/oauth-call.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('G7: OAuth refresh, concurrency and revocation', () => {
  let server: Spawned;
  let dir: string;
  let configFile: string;
  beforeAll(async () => {
    server = await spawnListening([OAUTH_SERVER], { TOKEN_TTL_S: '2' });
    dir = mkdtempSync(join(tmpdir(), 'ts-oauth-refresh-'));
    configFile = join(dir, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { rotating: { url: server.url } } }));
  });
  afterAll(() => server?.stop());

  async function stats(): Promise<{ refreshes: number; refreshFailures: number; calls: number }> {
    return (await fetch(new URL('/test/stats', server.url))).json() as never;
  }

  it('G7: refresh after expiry; two concurrent callers in two processes refresh one at a time; revoked → needs sign-in', async () => {
    const stateDir = join(dir, 'state');
    const config = await readHubConfig(configFile);
    await signIn({
      server: 'rotating',
      config: config.servers['rotating'] as HttpServerConfig,
      stateDir,
      say: () => {},
      env: { ...process.env, BROWSER: `${process.execPath} ${FOLLOW}` },
    });
    const hub = new McpHub(config, { stateDir, reconnect: false }).start();
    try {
      await hub.settled();
      expect(hub.status()[0]?.state).toBe('connected');
      expect(JSON.stringify((await hub.callTool('rotating', 'whoami', {})).content)).toContain('client');

      // Past expiry: the next call refreshes first.
      await sleep(2_500);
      expect(JSON.stringify((await hub.callTool('rotating', 'whoami', {})).content)).toContain('client');
      const afterOne = await stats();
      expect(afterOne.refreshes).toBeGreaterThanOrEqual(1);
      expect(afterOne.refreshFailures).toBe(0);

      // Past expiry again: three calls here and one in a second process, all at once.
      await sleep(2_500);
      const [a, b, c, other] = await Promise.all([
        hub.callTool('rotating', 'whoami', {}),
        hub.callTool('rotating', 'whoami', {}),
        hub.callTool('rotating', 'whoami', {}),
        run(process.execPath, ['--import', 'tsx', SECOND, configFile, stateDir], { timeout: 30_000 }),
      ]);
      for (const result of [a, b, c]) expect(JSON.stringify(result.content)).toContain('client');
      expect(other.stdout).toMatch(/^client /);
      const afterRace = await stats();
      expect(afterRace.refreshFailures).toBe(0);
      expect(afterRace.refreshes).toBeGreaterThan(afterOne.refreshes);

      // Revoked: the call fails, the server waits for a sign-in.
      await fetch(new URL('/test/revoke', server.url), { method: 'POST' });
      await sleep(2_500);
      await expect(hub.callTool('rotating', 'whoami', {})).rejects.toThrow(/needs sign-in/);
      await waitFor(() => hub.status()[0]?.state === 'needs-sign-in', 'needs sign-in');
      expect(hub.status()[0]?.lastError).toContain('toolsearch auth login rotating --config');

      // Signing in again brings it back without a restart.
      await signIn({
        server: 'rotating',
        config: config.servers['rotating'] as HttpServerConfig,
        stateDir,
        say: () => {},
        env: { ...process.env, BROWSER: `${process.execPath} ${FOLLOW}` },
      });
      await waitFor(() => hub.status()[0]?.state === 'connected', 'connected again', 15_000);
    } finally {
      await hub.close();
    }
    // Three token lifetimes of waiting, a second process and a sign-in: more than the default 30 s
    // on a busy machine (its own waits allow 30 s for the second process alone).
  }, 90_000);
});
