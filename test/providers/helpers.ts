/**
 * Test parts for the provider suites: a local HTTP server the real SDK clients talk to (records
 * every request body, replays scripted responses), and a tiny stand-in searcher.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Searcher, ToolSearchResult } from '../../src/providers/shared/search.js';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly body: any;
  /** Request headers as Node gives them (lower-case names). */
  readonly headers: Record<string, string | string[] | undefined>;
}

export type Reply = (request: Recorded) => unknown;

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
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
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
