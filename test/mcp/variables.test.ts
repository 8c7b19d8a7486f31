// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHubConfig, readHubConfig, type HttpServerConfig, type StdioServerConfig } from '../../src/mcp/config.js';
import { McpConfigError } from '../../src/mcp/errors.js';
import { McpHub } from '../../src/mcp/hub.js';
import { expandString, redactSecrets, type ExpandedSecret } from '../../src/mcp/variables.js';
import { fixtureServer } from '../fixtures/servers/index.js';

const env = { TOKEN: 'ghp_secret_value', EMPTY: '', HOST: 'example.test', HOME_DIR: '/home/me' };

function configError(run: () => unknown): McpConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigError);
    return error as McpConfigError;
  }
  throw new Error('expected a config error');
}

describe('G7 variables: the forms', () => {
  it('G7: ${VAR}, ${env:VAR} and ${VAR:-default} expand; unset or empty takes the default', () => {
    expect(expandString('Bearer ${TOKEN}', env)).toBe('Bearer ghp_secret_value');
    expect(expandString('Bearer ${env:TOKEN}', env)).toBe('Bearer ghp_secret_value');
    expect(expandString('${MISSING:-fallback}/x', env)).toBe('fallback/x');
    expect(expandString('${EMPTY:-fallback}', env)).toBe('fallback');
    expect(expandString('${EMPTY}', env)).toBe('');
    expect(expandString('${env:MISSING:-d}', env)).toBe('d');
    expect(expandString('${MISSING:-}', env)).toBe('');
    expect(expandString('no references, $HOME stays', env)).toBe('no references, $HOME stays');
  });

  it('G7: the secrets record which reference each expanded value came from (defaults are not secrets)', () => {
    const secrets: ExpandedSecret[] = [];
    expandString('${TOKEN} ${MISSING:-plain}', env, secrets);
    expect(secrets).toEqual([{ value: 'ghp_secret_value', reference: '${TOKEN}' }]);
    expect(redactSecrets('401 for Bearer ghp_secret_value', secrets)).toBe('401 for Bearer ${TOKEN}');
    // Values too short to hide safely stay (a one-letter value would blank that letter everywhere).
    expect(redactSecrets('a b c', [{ value: 'a', reference: '${A}' }])).toBe('a b c');
  });

  it('G7: URL-encoded and base64 forms are redacted, and so is the start of a secret a cut line ends with', () => {
    const secrets: ExpandedSecret[] = [{ value: 'p@ss/w+rd=42&x', reference: '${PW}' }];
    const base64 = Buffer.from('p@ss/w+rd=42&x').toString('base64');
    const urlSafe = base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const text = `q=${encodeURIComponent('p@ss/w+rd=42&x')} basic ${base64} jwt ${urlSafe}`;
    expect(redactSecrets(text, secrets)).toBe('q=${PW} basic ${PW} jwt ${PW}');
    expect(redactSecrets('token=p@ss/w+rd … [line cut by toolsearch]', secrets)).toBe(
      'token=${PW} … [line cut by toolsearch]',
    );
  });
});

describe('G7 variables in a config', () => {
  it('G7: command, args, env, cwd, url and headers expand; other keys stay literal', () => {
    const config = parseHubConfig(
      {
        mcpServers: {
          local: {
            command: '${HOME_DIR}/bin/server',
            args: ['--token', '${TOKEN}'],
            env: { GITHUB_TOKEN: '${env:TOKEN}' },
            cwd: '${HOME_DIR}',
            alwaysLoad: ['${TOKEN}'],
          },
          remote: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        },
      },
      'test.json',
      env,
    );
    const local = config.servers['local'] as StdioServerConfig;
    expect(local.command).toBe('/home/me/bin/server');
    expect(local.args).toEqual(['--token', 'ghp_secret_value']);
    expect(local.env).toEqual({ GITHUB_TOKEN: 'ghp_secret_value' });
    expect(local.cwd).toBe('/home/me');
    expect(local.alwaysLoad).toEqual(['${TOKEN}']);
    const remote = config.servers['remote'] as HttpServerConfig;
    expect(remote.url).toBe('https://example.test/mcp');
    expect(remote.headers).toEqual({ Authorization: 'Bearer ghp_secret_value' });
    // What messages may show: the entry as written.
    expect((config.unexpanded!['remote'] as HttpServerConfig).headers).toEqual({ Authorization: 'Bearer ${TOKEN}' });
  });

  it('G7: a missing variable without default names the file, the key and the variable, never a value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-vars-'));
    const path = join(dir, 'mcp.json');
    writeFileSync(
      path,
      JSON.stringify({ mcpServers: { github: { command: 'x', env: { A: '${TOKEN}', GITHUB_TOKEN: '${GH_PAT}' } } } }),
    );
    const error = await readHubConfig(path, env).then(
      () => undefined,
      (e: unknown) => e as McpConfigError,
    );
    expect(error).toBeInstanceOf(McpConfigError);
    expect(error!.message).toContain(path);
    expect(error!.key).toBe('mcpServers.github.env.GITHUB_TOKEN');
    expect(error!.message).toContain('"GH_PAT" is not set');
    expect(error!.message).toContain('${GH_PAT:-');
    expect(error!.message).not.toContain('ghp_secret_value');
  });

  it('G7: an args item names its index', () => {
    const error = configError(() =>
      parseHubConfig({ mcpServers: { s: { command: 'x', args: ['ok', '${NOPE}'] } } }, 'f.json', env),
    );
    expect(error.key).toBe('mcpServers.s.args.1');
  });

  it('G7: a URL that is only valid once expanded is accepted', () => {
    const config = parseHubConfig({ mcpServers: { r: { url: '${BASE_URL:-http://127.0.0.1:9}/mcp' } } }, 'f', {});
    expect((config.servers['r'] as HttpServerConfig).url).toBe('http://127.0.0.1:9/mcp');
  });

  it('G7: a disabled server is not expanded, so a variable it lacks is no error', () => {
    const config = parseHubConfig(
      { mcpServers: { off: { command: '${NOPE}', disabled: true }, on: { command: 'x' } } },
      'f',
      {},
    );
    expect(Object.keys(config.servers)).toEqual(['on']);
  });

  it('G7: Claude Code .mcp.json ("type": "stdio" / "http", ${VAR:-default})', () => {
    const config = parseHubConfig(
      {
        mcpServers: {
          files: { type: 'stdio', command: 'npx', args: ['-y', 'server-filesystem', '${ROOT:-/tmp}'], env: {} },
          api: { type: 'http', url: 'https://${HOST}/mcp', headers: { 'X-API-Key': '${TOKEN}' } },
        },
      },
      '.mcp.json',
      env,
    );
    expect((config.servers['files'] as StdioServerConfig).args).toEqual(['-y', 'server-filesystem', '/tmp']);
    expect((config.servers['api'] as HttpServerConfig).headers).toEqual({ 'X-API-Key': 'ghp_secret_value' });
  });

  it('G7: Cursor mcp.json (${env:VAR}); VS Code predefined variables are named as such', () => {
    const cursor = parseHubConfig({ mcpServers: { gh: { url: 'https://${env:HOST}/mcp' } } }, '.cursor/mcp.json', env);
    expect((cursor.servers['gh'] as HttpServerConfig).url).toBe('https://example.test/mcp');
    const error = configError(() =>
      parseHubConfig({ mcpServers: { fs: { command: 'x', args: ['${workspaceFolder}'] } } }, '.cursor/mcp.json', env),
    );
    expect(error.message).toContain('VS Code variable');
  });

  it('G7: VS Code "servers" with an ${input:…} prompt: a clear error naming the input', () => {
    const error = configError(() =>
      parseHubConfig(
        {
          inputs: [{ type: 'promptString', id: 'github-pat', description: 'GitHub token', password: true }],
          servers: { github: { type: 'stdio', command: 'x', env: { GITHUB_TOKEN: '${input:github-pat}' } } },
        },
        '.vscode/mcp.json',
        env,
      ),
    );
    expect(error.key).toBe('servers.github.env.GITHUB_TOKEN');
    expect(error.message).toContain('input "github-pat"');
    expect(error.message).toContain('cannot answer prompts');
  });
});

describe('G7 variables reach a real server', () => {
  const hubs: McpHub[] = [];
  afterAll(async () => {
    await Promise.all(hubs.map((h) => h.close()));
  });

  it('G7: a stdio server receives the expanded env var', async () => {
    const raw = fixtureServer('x', { env: { FIXTURE_NAME: '${FIXTURE_LABEL}' } });
    const config = parseHubConfig({ mcpServers: { fx: raw } }, 'inline', {
      ...process.env,
      FIXTURE_LABEL: 'expanded-label',
    });
    const hub = new McpHub(config, { reconnect: false }).start();
    hubs.push(hub);
    await hub.settled(20_000);
    expect(hub.catalog.get('mcp__fx__ping')?.description).toContain('expanded-label');
  });

  it('G7: a failure shows the command as written, not the expanded value', async () => {
    const config = parseHubConfig({ mcpServers: { broken: { command: '${SECRET_BIN}/server' } } }, 'inline', {
      SECRET_BIN: '/nonexistent/s3cr3t-path',
    });
    const hub = new McpHub(config, { reconnect: false }).start();
    hubs.push(hub);
    await hub.settled(20_000);
    const [status] = hub.status();
    expect(status?.state).toBe('failed');
    expect(status?.lastError).toContain('${SECRET_BIN}');
    expect(status?.lastError).not.toContain('s3cr3t');
  });
});
