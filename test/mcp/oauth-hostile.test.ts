/**
 * G5/G7 (issue 32, cases 2 and 3): a hostile authorization server, over real HTTP on loopback.
 * - Its metadata names a `file:`, `smb:` or custom-handler authorization endpoint: the sign-in
 *   fails naming the scheme, and the opener ($BROWSER here, a script that records its arguments)
 *   is never run; a loopback http endpoint reaches it as exactly one argument.
 * - Its token endpoint answers 20 MB: the code exchange and the refresh fail naming
 *   oauthResponseBytes, and no credentials file grows.
 * - A callback with `?error=` and no state (what any web page can send) is ignored; the error text
 *   printed has no control characters.
 * - Its token endpoint hangs: the refresh fails at oauthTimeoutMs, and once the server answers
 *   again the next call refreshes (the queue did not stay behind the hung request).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/core/limits.js';
import { type HttpServerConfig, readHubConfig } from '../../src/mcp/config.js';
import { McpHub } from '../../src/mcp/hub.js';
import { printable, signIn } from '../../src/mcp/remote/oauth/login.js';
import { openerCommand } from '../../src/mcp/remote/oauth/opener.js';
import { credentialBytes } from '../fixtures/credentials.js';
import { OAUTH_SERVER } from '../fixtures/servers/index.js';
import { type Spawned, spawnListening } from '../fixtures/spawned.js';

const FOLLOW = fileURLToPath(new URL('../fixtures/follow-redirects.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('G7: a hostile authorization server', () => {
  let server: Spawned;
  let dir: string;
  let configFile: string;
  beforeAll(async () => {
    server = await spawnListening([OAUTH_SERVER], { TOKEN_TTL_S: '2' });
    dir = mkdtempSync(join(tmpdir(), 'ts-oauth-hostile-'));
    configFile = join(dir, 'mcp.json');
    writeFileSync(configFile, JSON.stringify({ mcpServers: { rotating: { url: server.url } } }));
  });
  afterAll(() => server?.stop());

  const hostile = (mode: { token?: string | null; authorize?: string | null }) =>
    fetch(new URL('/test/hostile', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(mode),
    });

  async function login(stateDir: string, browser = `${process.execPath} ${FOLLOW}`, timeoutMs = 20_000) {
    const config = await readHubConfig(configFile);
    return signIn({
      server: 'rotating',
      config: config.servers['rotating'] as HttpServerConfig,
      stateDir,
      say: () => {},
      timeoutMs,
      env: { ...process.env, BROWSER: browser },
    });
  }

  it('opens only http(s) web pages, the URL as one argument', async () => {
    const record = join(dir, 'opened.txt');
    // A "browser" that writes each argument it got on its own line.
    const recorder = join(dir, 'record.mjs');
    writeFileSync(
      recorder,
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
    );
    const browser = `${process.execPath} ${recorder}`;
    for (const [i, bad] of [
      'file:///etc/passwd',
      'smb://attacker.example/x.exe',
      'x-handler://run?cmd=calc&x=1',
    ].entries()) {
      await hostile({ authorize: bad });
      await expect(login(join(dir, `state-open-${i}`), browser)).rejects.toThrow(
        /only https URLs \(or http on this machine\) are opened/,
      );
    }
    expect(existsSync(record)).toBe(false);
    // A loopback http endpoint with `&` in it reaches the opener whole, as one argument.
    await hostile({ authorize: new URL('/authorize?a=1&b=2', server.url).href });
    await expect(login(join(dir, 'state-open-ok'), browser, 3_000)).rejects.toThrow(/no sign-in within/);
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toHaveLength(1);
    expect(JSON.parse(lines[0]!)[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?a=1&b=2&/);
    await hostile({ authorize: null });
  }, 60_000);

  it('a callback with `?error=` and no matching state (any web page can send one) does not end the sign-in', async () => {
    // A "browser" that first hits the callback as a hostile page would, then signs in normally.
    const script = join(dir, 'error-first.mjs');
    writeFileSync(
      script,
      [
        'const auth = new URL(process.argv[2]);',
        "const callback = new URL(auth.searchParams.get('redirect_uri'));",
        "callback.searchParams.set('error', 'access_denied');",
        "callback.searchParams.set('error_description', '\u001b[31mEVIL\u001b[0m');",
        'const hostile = await fetch(callback);',
        'if (hostile.status !== 400) process.exit(3);',
        "const response = await fetch(auth, { redirect: 'follow' });",
        'process.exit(response.ok ? 0 : 1);',
      ].join('\n'),
    );
    await expect(login(join(dir, 'state-error'), `${process.execPath} ${script}`)).resolves.toBeUndefined();
    expect(printable('bad \u001b[31mred\u001b[0m\u0007 text')).toBe('bad  [31mred [0m  text');
  }, 60_000);

  it('the Windows opener passes the URL to rundll32 as one argument, no cmd.exe', () => {
    const url = 'https://as.example/authorize?a=1&b=2^&c';
    expect(openerCommand(url, {}, 'win32')).toEqual(['rundll32', ['url.dll,FileProtocolHandler', url]]);
    expect(openerCommand(url, {}, 'linux')).toEqual(['xdg-open', [url]]);
    expect(openerCommand(url, { BROWSER: 'firefox' }, 'linux')[1].at(-1)).toBe(url);
  });

  it('a 20 MB code exchange fails naming oauthResponseBytes; nothing large is saved', async () => {
    const stateDir = join(dir, 'state-huge-code');
    await hostile({ token: 'huge' });
    await expect(login(stateDir)).rejects.toThrow(/passed 1048576 bytes \(limit oauthResponseBytes\)/);
    await hostile({ token: null });
    expect(credentialBytes(stateDir)).toBeLessThan(64 * 1024);
  }, 60_000);

  it('a 20 MB refresh answer fails the call naming the limit; a hung refresh ends at oauthTimeoutMs and the next one goes through', async () => {
    const stateDir = join(dir, 'state-refresh');
    await login(stateDir);
    const config = await readHubConfig(configFile);
    const limits = { ...DEFAULT_LIMITS, oauthTimeoutMs: 3_000 };
    const hub = new McpHub(config, { stateDir, reconnect: false, limits }).start();
    try {
      await hub.settled();
      expect(hub.status()[0]?.state).toBe('connected');

      await hostile({ token: 'huge' });
      await sleep(2_500);
      await expect(hub.callTool('rotating', 'whoami', {})).rejects.toThrow(/oauthResponseBytes/);
      expect(credentialBytes(stateDir)).toBeLessThan(64 * 1024);

      await hostile({ token: 'hang' });
      await expect(hub.callTool('rotating', 'whoami', {})).rejects.toThrow(/oauthTimeoutMs/);

      // The authorization server recovers: the next call refreshes at once.
      await hostile({ token: null });
      expect(JSON.stringify((await hub.callTool('rotating', 'whoami', {})).content)).toContain('client');
    } finally {
      await hub.close();
    }
  }, 90_000);
});
