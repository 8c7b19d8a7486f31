/**
 * Test parts for the provider suites: a local HTTP server the real SDK clients talk to (records
 * every request body, replays scripted responses), and a tiny stand-in searcher.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Catalog } from '../../src/core/catalog.js';
import type { ToolInput } from '../../src/core/tool.js';
import type { Searcher, ToolSearchResult } from '../../src/providers/shared/search.js';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly body: any;
  /** Request headers as Node gives them (lower-case names). */
  readonly headers: Record<string, string | string[] | undefined>;
}

export type Reply = (request: Recorded) => unknown;

/** A scripted reply with a status other than 200 (an API error in the provider's own shape). */
export interface StatusReply {
  readonly status: number;
  readonly body: unknown;
}

const STATUS = Symbol('status reply');

export function withStatus(status: number, body: unknown): StatusReply {
  return { status, body, [STATUS]: true } as StatusReply;
}

function isStatusReply(value: unknown): value is StatusReply {
  return typeof value === 'object' && value !== null && STATUS in value;
}

export interface WireServer {
  readonly url: string;
  readonly requests: Recorded[];
  /** Requests to one path (e.g. `/v1/messages`). */
  to(path: string): Recorded[];
  /** Queue replies for a path, consumed in order. */
  script(path: string, ...replies: (unknown | Reply)[]): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startWireServer(): Promise<WireServer> {
  const requests: Recorded[] = [];
  const queues = new Map<string, (unknown | Reply)[]>();
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const recorded: Recorded = {
      method: req.method ?? '',
      path,
      body: await readBody(req),
      headers: { ...req.headers },
    };
    requests.push(recorded);
    const next = queues.get(path)?.shift();
    if (next === undefined) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: `no scripted reply for ${path}` } }));
      return;
    }
    const value = typeof next === 'function' ? (next as Reply)(recorded) : next;
    const status = isStatusReply(value) ? value.status : 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(isStatusReply(value) ? value.body : value));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (p) => requests.filter((r) => r.path === p),
    script: (p, ...replies) => queues.set(p, [...(queues.get(p) ?? []), ...replies]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Stand-in for ToolSearcher: `select:` and name-substring matching, nothing ranked. */
export const standInSearcher: Searcher = {
  search(pool, query, options = {}) {
    const deferredTools = pool.tools.filter((t) => pool.deferred.has(t.name));
    const base: ToolSearchResult = {
      query,
      kind: 'keyword',
      matches: [],
      notFound: [],
      totalDeferred: deferredTools.length,
      pendingServers: [...pool.pendingServers],
    };
    if (query.startsWith('select:')) {
      const names = query
        .slice(7)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const all = new Set(pool.tools.map((t) => t.name));
      return {
        ...base,
        kind: 'select',
        matches: names.filter((n) => all.has(n)),
        notFound: names.filter((n) => !all.has(n)),
      };
    }
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    const matches = deferredTools
      .filter(
        (t) => terms.length > 0 && terms.every((term) => `${t.name} ${t.description}`.toLowerCase().includes(term)),
      )
      .map((t) => t.name);
    return { ...base, matches: matches.slice(0, options.maxResults ?? 5) };
  },
};

export function standInFormat(result: ToolSearchResult): string {
  if (result.matches.length > 0) return `Loaded: ${result.matches.join(', ')}`;
  const pending = result.pendingServers.length ? ` Still connecting: ${result.pendingServers.join(', ')}.` : '';
  return `No matching deferred tools found. ${result.totalDeferred} deferred tools exist.${pending}`;
}

/** The github server of the provider suites' sample catalog. */
export const SAMPLE_GITHUB_TOOLS: readonly ToolInput[] = [
  {
    name: 'create_issue',
    description: 'Create a GitHub issue',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
  },
  { name: 'list_repos', description: 'List repositories' },
];

/** A local tool (`get_time`, never deferred), a github server and a slack server. */
export function sampleCatalog(github: readonly ToolInput[] = SAMPLE_GITHUB_TOOLS): Catalog {
  const catalog = new Catalog([{ name: 'get_time', description: 'Current time', handler: () => '12:00' }]);
  catalog.setServerTools('github', [...github]);
  catalog.setServerTools('slack', [{ name: 'send_message', description: 'Send a Slack message' }]);
  return catalog;
}
