/**
 * G7: OAuth 2.1 upstreams against the SDK's own OAuth example server and its demo authorization
 * server: a running hub shows the server as needing sign-in with the command to run;
 * `toolsearch auth login` (a BROWSER script following the redirects, a loopback callback on a
 * port chosen at run time) signs in; the hub connects without a restart; the credentials are an
 * owner-only file outside the config; `auth status` never shows a token; `auth logout` forgets.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { type OAuthExample, startOAuthExample } from '../fixtures/oauth-example.js';
import { waitFor } from '../fixtures/wait.js';
import { cliArgs } from '../fixtures/cli.js';

const run = promisify(execFile);
const FOLLOW = fileURLToPath(new URL('../fixtures/follow-redirects.mjs', import.meta.url));

function cli(args: string[], env: NodeJS.ProcessEnv) {
  return run(process.execPath, cliArgs(...args), {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
}

describe('G7: OAuth upstreams (the SDK example server)', () => {
  let example: OAuthExample;
  let dir: string;
  let configFile: string;
  beforeAll(async () => {
    example = await startOAuthExample();
    dir = mkdtempSync(join(tmpdir(), 'ts-oauth-'));
    configFile = join(dir, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { secure: { url: example.url } } }));
  });
  afterAll(() => example?.stop());

  it('G7: needs sign-in (with the command), then `auth login` via the browser step, and the running hub connects without a restart', async () => {
    const stateDir = join(dir, 'state');
    const env = { TOOLSEARCH_STATE_DIR: stateDir, BROWSER: `${process.execPath} ${FOLLOW}` };
    const hub = new McpHub(await readHubConfig(configFile), { stateDir, reconnect: false }).start();
    try {
      await hub.settled();
      const before = hub.status()[0]!;
      expect(before.state).toBe('needs-sign-in');
      expect(before.lastError).toContain(`toolsearch auth login secure --config ${configFile}`);

      const login = await cli(['auth', 'login', 'secure', '--config', configFile], env);
      expect(login.stderr).toMatch(/Sign in to "secure" in your browser:\n {2}http:\/\/localhost:\d+\/authorize\?/);
      expect(login.stderr).toContain('Signed in to "secure".');

      await waitFor(() => hub.status()[0]?.state === 'connected', 'the hub to pick up the sign-in', 15_000);
      const result = await hub.callTool('secure', 'greet', { name: 'toolsearch' });
      expect(JSON.stringify(result.content)).toContain('Hello, toolsearch');

      // Owner-only, outside the config, and never echoed.
      const files = readdirSync(join(stateDir, 'oauth')).filter((f) => f.endsWith('.json'));
      expect(files).toHaveLength(1);
      const file = join(stateDir, 'oauth', files[0]!);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(stateDir, 'oauth')).mode & 0o777).toBe(0o700);
      const token = (JSON.parse(readFileSync(file, 'utf8')) as { tokens: { access_token: string } }).tokens
        .access_token;
      expect(readFileSync(configFile, 'utf8')).not.toContain(token);
      const status = await cli(['auth', 'status', '--config', configFile], env);
      expect(status.stdout).toMatch(/secure\s+signed in\s+expires in \d+ s/);
      expect(status.stdout + status.stderr + login.stdout + login.stderr).not.toContain(token);

      // A second process sharing the store (another gateway) uses the same sign-in.
      const second = new McpHub(await readHubConfig(configFile), { stateDir, reconnect: false }).start();
      await second.settled();
      expect(second.status()[0]?.state).toBe('connected');
      await second.close();

      await cli(['auth', 'logout', 'secure', '--config', configFile], env);
      const after = await cli(['auth', 'status', '--config', configFile, '--json'], env);
      expect(JSON.parse(after.stdout)).toEqual([expect.objectContaining({ server: 'secure', state: 'not signed in' })]);
    } finally {
      await hub.close();
    }
  });
});
