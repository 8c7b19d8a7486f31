/**
 * C14 — captures the live `tools/list` of real npm MCP servers into
 * test/fixtures/real-servers/catalog.jsonl (the catalog of the everyday-request set).
 *
 * The servers are installed OUTSIDE the repo (they are not dependencies of toolsearch):
 *
 *   mkdir -p /tmp/servers && cd /tmp/servers && npm init -y && \
 *     PUPPETEER_SKIP_DOWNLOAD=1 npm install --ignore-scripts <the packages in SERVERS below>
 *   npx tsx bench/capture-real-servers.ts --dir /tmp/servers
 *
 * `--extended` captures the servers of EXTENDED_SERVERS (install those packages too) into
 * catalog-extended.jsonl instead, leaving catalog.jsonl alone.
 *
 * (Redis's server is left out: it will not list its tools without a live Redis.) Each server is
 * started over stdio with dummy credentials (a listing needs none of them to be
 * real), asked for `tools/list` once, and stopped. The file is in the benchmark catalog format
 * (`{id, server, name, description, inputSchema}` per line, so `loadCatalogFile` and the CLI read
 * it) plus the package and version each tool came from, and the server's own `instructions` as
 * `serverDescription`; tools keep the server's own order.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const HERE = dirname(fileURLToPath(import.meta.url));
export const CATALOG_PATH = join(HERE, '..', 'test', 'fixtures', 'real-servers', 'catalog.jsonl');
/**
 * C15: servers captured apart from the everyday catalog (`--extended`), so the everyday sets'
 * numbers stay comparable: catch-all "ask" tools, one with its server's instructions and one with a
 * one-line description and none.
 */
export const EXTENDED_CATALOG_PATH = join(HERE, '..', 'test', 'fixtures', 'real-servers', 'catalog-extended.jsonl');

interface ServerSpec {
  /** The server name the catalog uses (what a user would name it in a config). */
  name: string;
  package: string;
  bin: string;
  args?: (scratch: string) => string[];
  env?: Record<string, string>;
}

const SERVERS: ServerSpec[] = [
  {
    name: 'filesystem',
    package: '@modelcontextprotocol/server-filesystem',
    bin: 'mcp-server-filesystem',
    args: (s) => [s],
  },
  { name: 'memory', package: '@modelcontextprotocol/server-memory', bin: 'mcp-server-memory' },
  { name: 'everything', package: '@modelcontextprotocol/server-everything', bin: 'mcp-server-everything' },
  {
    name: 'sequential-thinking',
    package: '@modelcontextprotocol/server-sequential-thinking',
    bin: 'mcp-server-sequential-thinking',
  },
  {
    name: 'github',
    package: '@modelcontextprotocol/server-github',
    bin: 'mcp-server-github',
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'dummy' },
  },
  {
    name: 'gitlab',
    package: '@modelcontextprotocol/server-gitlab',
    bin: 'mcp-server-gitlab',
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy' },
  },
  {
    name: 'slack',
    package: '@modelcontextprotocol/server-slack',
    bin: 'mcp-server-slack',
    env: { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T000' },
  },
  {
    name: 'brave-search',
    package: '@modelcontextprotocol/server-brave-search',
    bin: 'mcp-server-brave-search',
    env: { BRAVE_API_KEY: 'dummy' },
  },
  {
    name: 'postgres',
    package: '@modelcontextprotocol/server-postgres',
    bin: 'mcp-server-postgres',
    args: () => ['postgresql://localhost:1/none'],
  },
  {
    name: 'google-maps',
    package: '@modelcontextprotocol/server-google-maps',
    bin: 'mcp-server-google-maps',
    env: { GOOGLE_MAPS_API_KEY: 'dummy' },
  },
  { name: 'puppeteer', package: '@modelcontextprotocol/server-puppeteer', bin: 'mcp-server-puppeteer' },
  { name: 'playwright', package: '@playwright/mcp', bin: 'playwright-mcp' },
  { name: 'git', package: '@cyanheads/git-mcp-server', bin: 'git-mcp-server', env: { MCP_LOG_LEVEL: 'error' } },
  {
    name: 'notion',
    package: '@notionhq/notion-mcp-server',
    bin: 'notion-mcp-server',
    env: { NOTION_TOKEN: 'ntn_dummy' },
  },
  { name: 'context7', package: '@upstash/context7-mcp', bin: 'context7-mcp' },
  { name: 'firecrawl', package: 'firecrawl-mcp', bin: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: 'fc-dummy' } },
  { name: 'linear', package: 'mcp-server-linear', bin: 'mcp-server-linear', env: { LINEAR_ACCESS_TOKEN: 'dummy' } },
  {
    name: 'google-calendar',
    package: '@cocal/google-calendar-mcp',
    bin: 'google-calendar-mcp',
    // It starts with an OAuth client file in place (never used: no account is signed in).
    env: { GOOGLE_OAUTH_CREDENTIALS: 'gcp-oauth.keys.json' },
  },
  { name: 'desktop-commander', package: '@wonderwhy-er/desktop-commander', bin: 'desktop-commander' },
];

const EXTENDED_SERVERS: ServerSpec[] = [
  {
    name: 'perplexity',
    package: '@perplexity-ai/mcp-server',
    bin: 'perplexity-mcp',
    env: { PERPLEXITY_API_KEY: 'dummy' },
  },
  {
    name: 'perplexity-ask',
    package: 'server-perplexity-ask',
    bin: 'mcp-server-perplexity-ask',
    env: { PERPLEXITY_API_KEY: 'dummy' },
  },
];

export interface CapturedTool {
  id: string;
  server: string;
  package: string;
  version: string;
  name: string;
  description: string;
  inputSchema: unknown;
  serverDescription?: string;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function versionOf(dir: string, pkg: string): string {
  return (JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
    .version;
}

async function capture(dir: string, spec: ServerSpec, scratch: string): Promise<CapturedTool[]> {
  const transport = new StdioClientTransport({
    command: join(dir, 'node_modules', '.bin', spec.bin),
    args: spec.args?.(scratch) ?? [],
    env: { PATH: process.env.PATH ?? '', HOME: scratch, ...spec.env },
    stderr: 'ignore',
    cwd: scratch,
  });
  const client = new Client({ name: 'toolsearch-capture', version: '0' });
  const timer = setTimeout(() => void transport.close(), 60_000);
  try {
    await client.connect(transport);
    const tools: CapturedTool[] = [];
    const instructions = client.getInstructions();
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      for (const t of page.tools)
        tools.push({
          id: `${spec.name}/${t.name}`,
          server: spec.name,
          package: spec.package,
          version: versionOf(dir, spec.package),
          name: t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema,
          ...(instructions && tools.length === 0 && { serverDescription: instructions }),
        });
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

async function main(): Promise<void> {
  const dir = arg('dir') ?? '/tmp/servers';
  const scratch = mkdtempSync(join(tmpdir(), 'capture-'));
  writeFileSync(
    join(scratch, 'gcp-oauth.keys.json'),
    JSON.stringify({ installed: { client_id: 'dummy', client_secret: 'dummy', redirect_uris: ['http://localhost'] } }),
  );
  const all: CapturedTool[] = [];
  const extended = process.argv.includes('--extended');
  for (const spec of extended ? EXTENDED_SERVERS : SERVERS) {
    try {
      const tools = await capture(dir, spec, scratch);
      process.stderr.write(`${spec.name}: ${tools.length} tools\n`);
      all.push(...tools);
    } catch (error) {
      process.stderr.write(`${spec.name}: skipped (${(error as Error).message.split('\n')[0]})\n`);
    }
  }
  const servers = [...new Set(all.map((t) => t.server))];
  const path = extended ? EXTENDED_CATALOG_PATH : CATALOG_PATH;
  writeFileSync(path, all.map((t) => `${JSON.stringify(t)}\n`).join(''));
  process.stderr.write(`wrote ${path}: ${all.length} tools from ${servers.length} servers\n`);
}

await main();
