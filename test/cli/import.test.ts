// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in plain strings is the config syntax under test
/**
 * G13 `toolsearch import`: the real CLI on hand-written config files of every client format it
 * reads (test/fixtures/client-configs, written after each client's documented format: Claude
 * Desktop, Claude Code's ~/.claude.json and .mcp.json, Cursor's mcp.json with comments and
 * trailing commas, VS Code's mcp.json with inputs and its settings.json), each copied to a
 * folder of its own first. What goes into the servers file is checked with the gateway's own
 * config reader; what stays of the client's file is checked byte for byte.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readHubConfig } from '../../src/mcp/config.js';
import { nodeAt, parseJsonc } from '../../src/mcp/movein/jsonc.js';
import { cliArgs } from '../fixtures/cli.js';
import { cliEnv } from '../fixtures/state.js';

const run = promisify(execFile);
const FIXTURES = fileURLToPath(new URL('../fixtures/client-configs/', import.meta.url));

/** The CLI's stdout, stderr and exit code (a failed run does not throw). */
async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, cliArgs(...args), { env: cliEnv() });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

/** A copy of the fixtures in a folder of its own. */
function copyFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ts-import-'));
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

/** A fresh copy of the fixtures, then `import` of the client file at `parts` (in the copy) with `flags`. */
async function importFixture(parts: readonly string[], ...flags: string[]) {
  const dir = copyFixtures();
  const client = join(dir, ...parts);
  const before = readFileSync(client, 'utf8');
  const servers = join(dir, 'servers.json');
  return { dir, client, before, servers, ...(await cli('import', client, '--config', servers, ...flags)) };
}

/** The file's text with the values at `paths` cut out: what must not change when only those are rewritten. */
function outside(text: string, paths: readonly (readonly string[])[]): string {
  const root = parseJsonc(text).root;
  const spans = paths
    .map((path) => nodeAt(root, path))
    .filter((node) => node !== undefined)
    .sort((a, b) => a!.start - b!.start);
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += `${text.slice(at, span!.start)}<cut>`;
    at = span!.end;
  }
  return out + text.slice(at);
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('G13 toolsearch import, one client format at a time', { timeout: 120_000 }, () => {
  it('G13: Claude Desktop: its servers move, toolsearch itself does not, secrets stay as written; the client file is untouched without --write-client', async () => {
    const dir = copyFixtures();
    const client = join(dir, 'claude-desktop', 'claude_desktop_config.json');
    const before = readFileSync(client, 'utf8');
    const servers = join(dir, 'gateway', 'servers.json');
    const { stdout, code } = await cli('import', client, '--config', servers);
    expect(code).toBe(0);
    expect(stdout).toContain('(Claude Desktop): 4 servers to move: filesystem, memory, github, sqlite.');
    expect(stdout).toMatch(
      /mcpServers\.toolsearch is toolsearch itself: its command "npx -y --package=\S+ toolsearch serve/,
    );
    expect(stdout).toContain(`Added 4 servers to ${servers} (a new file)`);
    const written = json(servers);
    expect(Object.keys(written.mcpServers)).toEqual(['filesystem', 'memory', 'github', 'sqlite']);
    expect(written.mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN).toBe('ghp_fixtureTokenNotARealOne0123456789');
    expect(written.mcpServers.sqlite).toEqual({
      command: 'uvx',
      args: ['mcp-server-sqlite', '--db-path', '/Users/ana/data/test.db'],
    });
    // The gateway reads it as it is.
    expect(Object.keys((await readHubConfig(servers, {})).servers)).toHaveLength(4);
    // A new servers file is the owner's alone: it may hold secrets.
    expect(statSync(servers).mode & 0o777).toBe(0o600);
    // The entry to paste, in Claude Desktop's format (no "type"), pointing at the servers file.
    const printed = JSON.parse(stdout.slice(stdout.indexOf('{\n  "mcpServers"')));
    expect(printed.mcpServers.toolsearch).toMatchObject({
      args: expect.arrayContaining(['serve', '--config', servers]),
    });
    expect(printed.mcpServers.toolsearch.type).toBeUndefined();
    expect(readFileSync(client, 'utf8')).toBe(before);
    // A dry run shows where the values go, not what they are.
    const dry = await cli('import', client, '--config', join(dir, 'other.json'), '--dry-run');
    expect(dry.stdout).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN": "<as written in the client file>"');
    expect(dry.stdout).not.toContain('ghp_fixture');
  });

  it("G13: Claude Code's ~/.claude.json, user and project servers, --write-client --env-to-vars: every other key kept byte for byte, a backup beside it", async () => {
    const dir = copyFixtures();
    const client = join(dir, 'claude-code', '.claude.json');
    const before = readFileSync(client, 'utf8');
    chmodSync(client, 0o640);
    const servers = join(dir, 'servers.json');
    const { stdout, code } = await cli('import', client, '--config', servers, '--write-client', '--env-to-vars');
    expect(code).toBe(0);
    expect(stdout).toContain('(Claude Code): 6 servers to move: github, sentry, notion, context7, postgres, memory.');
    // An entry that gets its headers from a helper program stays where it works.
    expect(stdout).toMatch(
      /mcpServers\.internal-api stays in the client's file: it gets its headers from a helper program/,
    );
    expect(stdout).toContain('mcpServers.notion: left out oauth.callbackPort');
    const written = json(servers).mcpServers;
    expect(written.notion.oauth).toEqual({ clientId: 'notion-client-4711' });
    expect(written.postgres.args).toContain('postgresql://shop:shop@localhost:5432/shop');
    // --env-to-vars: the literal key left the servers file; the reference the entry had stays.
    expect(written.context7.env).toEqual({ CONTEXT7_API_KEY: '${CONTEXT7_API_KEY}' });
    expect(readFileSync(servers, 'utf8')).not.toContain('ctx7_fixtureKey');
    expect(written.github.headers.Authorization).toBe('Bearer ${GITHUB_PAT}');
    expect(stdout).toMatch(
      /CONTEXT7_API_KEY\s+mcpServers\.context7\.env\.CONTEXT7_API_KEY: its value was in the client file/,
    );
    expect(stdout).toMatch(/GITHUB_PAT\s+mcpServers\.github\.headers\.Authorization: the entry already read it/);

    const after = readFileSync(client, 'utf8');
    const sections = [['mcpServers'], ['projects', '/home/dev/shop', 'mcpServers']];
    expect(outside(after, sections)).toBe(outside(before, sections));
    const rewritten = JSON.parse(after);
    expect(Object.keys(rewritten.mcpServers)).toEqual(['internal-api', 'toolsearch']);
    expect(rewritten.mcpServers.toolsearch).toMatchObject({ type: 'stdio', args: expect.arrayContaining([servers]) });
    expect(rewritten.projects['/home/dev/shop'].mcpServers).toEqual({});
    const backup = readdirSync(join(dir, 'claude-code')).find((name) =>
      name.startsWith('.claude.json.toolsearch-backup-'),
    );
    expect(backup).toMatch(/^\.claude\.json\.toolsearch-backup-\d{8}T\d{6}Z$/);
    expect(readFileSync(join(dir, 'claude-code', backup!), 'utf8')).toBe(before);
    expect(statSync(join(dir, 'claude-code', backup!)).mode & 0o777).toBe(0o640);
    expect(statSync(client).mode & 0o777).toBe(0o640);
    expect(stdout).toContain(`Backup: ${join(dir, 'claude-code', backup!)}`);

    // Run again: the rewritten file holds only toolsearch and what stays.
    const again = await cli('import', client, '--config', servers, '--write-client');
    expect(again.stdout).toContain('0 servers to move');
    expect(again.stdout).toContain('mcpServers.toolsearch is toolsearch itself');
    expect(readFileSync(client, 'utf8')).toBe(after);
  });

  it("G13: Claude Code's .mcp.json: ${VAR:-default} references kept for the gateway to expand; Claude Code's own command printed for the user file only", async () => {
    const dir = copyFixtures();
    const servers = join(dir, 'servers.json');
    const { stdout, code } = await cli('import', join(dir, 'claude-code', 'shop', '.mcp.json'), '--config', servers);
    expect(code).toBe(0);
    const written = json(servers).mcpServers;
    expect(written['shop-api']).toEqual({
      type: 'http',
      url: '${SHOP_API_URL:-https://shop.example.com}/mcp',
      headers: { Authorization: 'Bearer ${SHOP_API_KEY}' },
    });
    const hub = await readHubConfig(servers, { SHOP_API_KEY: 'k-123' });
    expect(hub.servers['shop-api']).toMatchObject({ url: 'https://shop.example.com/mcp' });
    expect(stdout).toContain('"type": "stdio"');
    expect(stdout).not.toContain('claude mcp add');
    const userFile = (...flags: string[]) =>
      cli(
        'import',
        join(dir, 'claude-code', '.claude.json'),
        '--config',
        join(dir, 'other.json'),
        '--dry-run',
        ...flags,
      );
    const user = await userFile();
    expect(user.stdout).toMatch(
      /claude mcp add --scope user toolsearch -- \S+ \S+main\.js serve --config \S+other\.json/,
    );
    const oneProject = await userFile('--project', '/home/dev/blog');
    expect(oneProject.stdout).toContain('4 servers to move: github, sentry, notion, context7.');
  });

  it("G13: Cursor's mcp.json with comments and trailing commas: ${workspaceFolder} becomes the project folder, ${env:…} stays, an envFile entry stays; the file's comments survive the rewrite", async () => {
    const { dir, client, before, servers, stdout, code } = await importFixture(
      ['cursor', 'site', '.cursor', 'mcp.json'],
      '--write-client',
    );
    const project = join(dir, 'cursor', 'site');
    expect(code).toBe(0);
    expect(stdout).toContain('(Cursor): 4 servers to move: linear, stripe, site-docs, sequential-thinking.');
    expect(stdout).toMatch(/mcpServers\.analytics stays in the client's file: it reads variables from an env file/);
    const written = json(servers).mcpServers;
    expect(written['site-docs'].args).toEqual([`${project}/tools/docs-server.js`, '--root', `${project}/content`]);
    expect(written.stripe.env).toEqual({ STRIPE_SECRET_KEY: '${env:STRIPE_SECRET_KEY}' });
    expect(written.linear).toEqual({ url: 'https://mcp.linear.app/sse' });
    const after = readFileSync(client, 'utf8');
    expect(after.startsWith('{\n  // Project servers for the site.')).toBe(true);
    expect(outside(after, [['mcpServers']])).toBe(outside(before, [['mcpServers']]));
    expect(Object.keys(parseJsonc(after).value as object)).toEqual(['mcpServers']);
    expect(Object.keys((parseJsonc(after).value as { mcpServers: object }).mcpServers)).toEqual([
      'analytics',
      'toolsearch',
    ]);
  });

  it("G13: VS Code's .vscode/mcp.json: ${input:…} becomes a variable the gateway's entry passes on (the editor still prompts); inputs kept; an editor-only variable stays", async () => {
    const { dir, client, before, servers, stdout, code } = await importFixture(
      ['vscode', 'app', '.vscode', 'mcp.json'],
      '--write-client',
    );
    const project = join(dir, 'vscode', 'app');
    expect(code).toBe(0);
    expect(stdout).toContain('(VS Code): 4 servers to move: github, perplexity, fetch, workspace-files.');
    expect(stdout).toMatch(/servers\.settings-sync stays in the client's file: .*\$\{config:mcp\.syncScript\}/);
    expect(stdout).toContain('servers.workspace-files: left out "dev"');
    const written = json(servers).servers ?? json(servers).mcpServers;
    expect(written.github.headers).toEqual({ Authorization: 'Bearer ${GITHUB_TOKEN}' });
    expect(written.perplexity.env).toEqual({ PERPLEXITY_API_KEY: '${PERPLEXITY_KEY}' });
    expect(written['workspace-files'].args).toEqual(['-y', '@modelcontextprotocol/server-filesystem', project]);
    expect(stdout).toMatch(
      /GITHUB_TOKEN\s+servers\.github\.headers\.Authorization \(VS Code input "github-token"\) \(GitHub Personal Access Token, secret\)/,
    );
    const after = readFileSync(client, 'utf8');
    expect(outside(after, [['servers']])).toBe(outside(before, [['servers']]));
    const rewritten = parseJsonc(after).value as { servers: Record<string, { env?: unknown }> };
    expect(Object.keys(rewritten.servers)).toEqual(['settings-sync', 'toolsearch']);
    expect(rewritten.servers['toolsearch']).toMatchObject({
      type: 'stdio',
      env: { GITHUB_TOKEN: '${input:github-token}', PERPLEXITY_KEY: '${input:perplexity-key}' },
    });
    // The gateway, given what the editor passes, expands the servers file.
    const hub = await readHubConfig(servers, { GITHUB_TOKEN: 'ghp_1', PERPLEXITY_KEY: 'pk_1' });
    expect(hub.servers['github']).toMatchObject({ headers: { Authorization: 'Bearer ghp_1' } });
  });

  it("G13: VS Code's settings.json (mcp.servers), --dry-run: shows both changes and writes nothing", async () => {
    const dir = copyFixtures();
    const client = join(dir, 'vscode', 'user', 'settings.json');
    const before = readFileSync(client, 'utf8');
    const servers = join(dir, 'servers.json');
    const { stdout, code } = await cli('import', client, '--config', servers, '--write-client', '--dry-run');
    expect(code).toBe(0);
    expect(stdout).toContain('Dry run: nothing is written.');
    expect(stdout).toContain(`Would add 2 servers to ${servers} (a new file): memory, time.`);
    expect(stdout).toContain('"--local-timezone=Europe/Berlin"');
    expect(stdout).toMatch(
      /Would rewrite \S+settings\.json \(backup \S+settings\.json\.toolsearch-backup-\d{8}T\d{6}Z\), the servers part becoming:\n\{\n {2}"mcp": \{\n {4}"servers": \{\n {6}"notes": \{[\s\S]*\n {6}"toolsearch": \{\n {8}"type": "stdio"/,
    );
    expect(stdout).toMatch(
      /mcp\.servers\.notes stays in the client's file: .* uses \$\{workspaceFolder\}, and this file belongs to no project folder; give the folder with --workspace <dir>/,
    );
    // Recognised as itself before its ${workspaceFolder} is looked at.
    expect(stdout).toMatch(/mcp\.servers\.toolsearch is toolsearch itself/);
    expect(existsSync(servers)).toBe(false);
    expect(readFileSync(client, 'utf8')).toBe(before);
    expect(readdirSync(join(dir, 'vscode', 'user'))).toEqual(['settings.json']);
    const withWorkspace = await cli('import', client, '--config', servers, '--dry-run', '--workspace', '/srv/notes');
    expect(withWorkspace.stdout).toContain('Would add 3 servers');
    expect(withWorkspace.stdout).toContain('"/srv/notes/tools/notes-server.js"');
  });
});

describe('G13 toolsearch import: a second run, a name clash, bad input', { timeout: 120_000 }, () => {
  it('G13: the same servers again are "already there"; a different entry under a taken name is an error naming both, and nothing is written', async () => {
    const dir = copyFixtures();
    const client = join(dir, 'claude-desktop', 'claude_desktop_config.json');
    const servers = join(dir, 'servers.json');
    expect((await cli('import', client, '--config', servers)).code).toBe(0);
    const first = readFileSync(servers, 'utf8');
    const again = await cli('import', client, '--config', servers);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Already in ${servers} with the same entry: filesystem, memory, github, sqlite.`);
    expect(readFileSync(servers, 'utf8')).toBe(first);

    const clashing = join(dir, 'clash.json');
    writeFileSync(
      clashing,
      JSON.stringify({ mcpServers: { memory: { command: 'other-memory' }, extra: { command: 'x' } } }),
    );
    const clash = await cli('import', clashing, '--config', servers, '--client', 'claude-desktop');
    expect(clash.code).toBe(1);
    expect(clash.stderr.trim().split('\n')).toHaveLength(1);
    expect(clash.stderr).toContain(
      `server "memory" is already in ${servers}, and ${clashing} (mcpServers.memory) has a different "memory"`,
    );
    expect(readFileSync(servers, 'utf8')).toBe(first);
  });

  it('G13: an unreadable, missing, unknown or broken client config fails in one line and writes nothing', async () => {
    const dir = copyFixtures();
    const servers = join(dir, 'servers.json');
    const cases: [string, RegExp][] = [];
    cases.push([join(dir, 'missing.json'), /missing\.json: cannot read the file \(ENOENT/]);
    const unknown = join(dir, 'package.json');
    writeFileSync(unknown, JSON.stringify({ name: 'app', dependencies: {} }));
    cases.push([unknown, /package\.json: not a client config toolsearch knows/]);
    const broken = join(dir, 'claude_desktop_config.json');
    writeFileSync(broken, '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n');
    cases.push([broken, /claude_desktop_config\.json: not valid JSON \(line 4, column 5: expected "}"\)/]);
    const notObject = join(dir, 'list.json');
    writeFileSync(notObject, '[1, 2]');
    cases.push([notObject, /its top level is not an object/]);
    cases.push([dir, /not a regular file/]);
    for (const [file, message] of cases) {
      const result = await cli('import', file, '--config', servers);
      expect(result.code, file).toBe(1);
      expect(result.stderr, file).toMatch(message);
      expect(result.stderr.trim().split('\n'), file).toHaveLength(1);
    }
    expect(existsSync(servers)).toBe(false);

    const same = await cli(
      'import',
      join(dir, 'claude-desktop', 'claude_desktop_config.json'),
      '--config',
      join(dir, 'claude-desktop', 'claude_desktop_config.json'),
    );
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/the gateway's servers file must be another file/);

    writeFileSync(servers, '{"mcpServers": {');
    const client = join(dir, 'claude-desktop', 'claude_desktop_config.json');
    const before = readFileSync(client, 'utf8');
    const badServers = await cli('import', client, '--config', servers, '--write-client');
    expect(badServers.code).toBe(1);
    expect(badServers.stderr).toMatch(
      /servers\.json: not valid JSON \(line 1, column 17: .*\); fix it first, nothing was written/,
    );
    expect(readFileSync(servers, 'utf8')).toBe('{"mcpServers": {');
    expect(readFileSync(client, 'utf8')).toBe(before);
  });

  it('G13: two Claude Code projects with different servers under one name: an error saying to import one project at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-import-projects-'));
    const client = join(dir, '.claude.json');
    const project = (url: string) => ({ mcpServers: { db: { type: 'http', url } } });
    writeFileSync(
      client,
      JSON.stringify({ projects: { '/a': project('https://a.example/mcp'), '/b': project('https://b.example/mcp') } }),
    );
    const result = await cli('import', client, '--config', join(dir, 'servers.json'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'two different servers are named "db" (projects["/a"].mcpServers.db and projects["/b"].mcpServers.db); import one project at a time with --project <dir>',
    );
    const one = await cli('import', client, '--config', join(dir, 'servers.json'), '--project', '/b');
    expect(one.code).toBe(0);
    expect(json(join(dir, 'servers.json')).mcpServers.db.url).toBe('https://b.example/mcp');
  });

  it("G13: a ~/.claude.json past the gateway's own 16 MiB bound (Claude Code keeps prompt history in it) imports and is rewritten; past --max-client-bytes it is refused in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-import-big-'));
    const client = join(dir, '.claude.json');
    const history = Array.from({ length: 2_000 }, (_, i) => ({
      display: `prompt ${i} `.repeat(50),
      pastedContents: {},
    }));
    const projects = Object.fromEntries(
      Array.from({ length: 30 }, (_, p) => [
        `/home/dev/p${p}`,
        { history, mcpServers: p === 7 ? { db: { command: 'db' } } : {} },
      ]),
    );
    const before = JSON.stringify(
      { numStartups: 3, projects, mcpServers: { memory: { type: 'stdio', command: 'npx' } } },
      null,
      2,
    );
    writeFileSync(client, before);
    expect(before.length).toBeGreaterThan(16 * 1024 * 1024);
    const servers = join(dir, 'servers.json');
    const big = await cli('import', client, '--config', servers, '--write-client');
    expect(big.code, big.stderr).toBe(0);
    expect(big.stdout).toContain('2 servers to move: memory, db.');
    const after = readFileSync(client, 'utf8');
    const sections = [['mcpServers'], ['projects', '/home/dev/p7', 'mcpServers']];
    expect(outside(after, sections)).toBe(outside(before, sections));
    const refused = await cli('import', client, '--config', servers, '--max-client-bytes', '4096');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      '.claude.json: cannot read the file (larger than 4096 bytes); --max-client-bytes reads larger files',
    );
  });

  it('G13: a FIFO at the client path is refused, not waited on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-import-fifo-'));
    const fifo = join(dir, 'mcp.json');
    await run('mkfifo', [fifo]);
    const result = await cli('import', fifo, '--config', join(dir, 'servers.json'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/mcp\.json: cannot read the file \(not a regular file/);
  });
});
