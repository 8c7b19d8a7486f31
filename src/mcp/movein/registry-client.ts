/**
 * G13 — looking servers up in the official MCP Registry (or any registry that speaks its API):
 * `GET <registry>/v0.1/servers?search=<term>&version=latest&limit=<n>[&cursor=<c>]`.
 *
 * The registry is outside: every answer is bounded before it is believed.
 * - each request has a timeout (`timeoutMs`), covering the body too;
 * - each answer's body is read up to `maxResponseBytes` and refused past it (a `Content-Length`
 *   over it is refused before reading);
 * - at most `maxPages` pages are read (the search says when it stopped early);
 * - the answer must be JSON of the documented shape (registry-schema.ts); one entry of the wrong
 *   shape is skipped and counted, a page of the wrong shape is refused;
 * - a repeated cursor ends the paging.
 *
 * The registry's search is a substring match on whole server names, namespace included: "github"
 * matches every `io.github.*` server. So the answers are kept when every word of the query is in
 * the server's own name (after the `/`), its title or its description; only when none is, the
 * registry's name matches count (a query for a namespace). A query with a `/` is a server's name,
 * taken as the registry matches it. Several words are searched by the longest one.
 */
import { readCappedBody } from '../../util/capped-body.js';
import { errorMessage } from '../../util/errors.js';
import { RegistryError } from './errors.js';
import { OFFICIAL_META, type ServerResponse, serverListSchema, serverResponseSchema } from './registry-schema.js';

export const DEFAULT_REGISTRY = 'https://registry.modelcontextprotocol.io';

export interface RegistryLimits {
  /** One request, body included. Default 15 s. */
  readonly timeoutMs: number;
  /** One answer's body. Default 4 MiB (a page of 100 servers is about 300 KB). */
  readonly maxResponseBytes: number;
  /** Pages of one search. Default 5. */
  readonly maxPages: number;
  /** Servers asked for per page. Default 100 (the registry's own maximum). */
  readonly pageSize: number;
}

export const DEFAULT_REGISTRY_LIMITS: RegistryLimits = {
  timeoutMs: 15_000,
  maxResponseBytes: 4 * 1024 * 1024,
  maxPages: 5,
  pageSize: 100,
};

export interface RegistrySearch {
  /** Latest versions, deleted ones left out, one per name. */
  readonly servers: readonly ServerResponse[];
  /** More pages were there than `maxPages` allows. */
  readonly truncated: boolean;
  /** Entries of the answer that were not server.json as documented. */
  readonly skipped: number;
}

/** `https://host/prefix` → the servers endpoint under it (a trailing slash or none). */
export function serversEndpoint(registry: string): URL {
  let base: URL;
  try {
    base = new URL(registry);
  } catch {
    throw new RegistryError(registry, 'not a URL (expected https://host or http://host:port)');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    throw new RegistryError(registry, 'not an http or https URL');
  base.pathname = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return new URL('v0.1/servers', base);
}

export async function searchRegistry(
  registry: string,
  query: string,
  limits: RegistryLimits = DEFAULT_REGISTRY_LIMITS,
  fetcher: typeof fetch = fetch,
): Promise<RegistrySearch> {
  const words = query.trim().split(/\s+/).filter(Boolean);
  const term = words.length === 1 ? words[0]! : ([...words].sort((a, b) => b.length - a.length)[0] ?? '');
  const found = new Map<string, ServerResponse>();
  const byNameOnly = new Map<string, ServerResponse>();
  let skipped = 0;
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let page = 1; page <= limits.maxPages; page++) {
    const url = serversEndpoint(registry);
    url.searchParams.set('search', term);
    url.searchParams.set('version', 'latest');
    url.searchParams.set('limit', String(limits.pageSize));
    if (cursor !== undefined) url.searchParams.set('cursor', cursor);
    const answer = serverListSchema.safeParse(await getJson(registry, url, limits, fetcher));
    if (!answer.success)
      throw new RegistryError(
        registry,
        `answered with JSON that is not a server list (${answer.error.issues[0]?.message ?? 'wrong shape'} at "${answer.error.issues[0]?.path.join('.') ?? ''}")`,
      );
    for (const raw of answer.data.servers) {
      const item = serverResponseSchema.safeParse(raw);
      if (!item.success) skipped++;
      else if (isCurrent(item.data)) keepLatest(matchesAll(item.data, query, words) ? found : byNameOnly, item.data);
    }
    const next = answer.data.metadata?.nextCursor ?? undefined;
    if (next === undefined || next === '' || seen.has(next)) return answered(found, byNameOnly, false, skipped);
    seen.add(next);
    cursor = next;
  }
  return answered(found, byNameOnly, true, skipped);
}

function answered(
  found: Map<string, ServerResponse>,
  byNameOnly: Map<string, ServerResponse>,
  truncated: boolean,
  skipped: number,
): RegistrySearch {
  return { servers: [...(found.size > 0 ? found : byNameOnly).values()], truncated, skipped };
}

function official(item: ServerResponse): Record<string, unknown> | undefined {
  const meta = item._meta?.[OFFICIAL_META];
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** Deleted entries are left out; a registry that ignores `version=latest` gives every version, the latest kept. */
function isCurrent(item: ServerResponse): boolean {
  return official(item)?.['status'] !== 'deleted';
}

function keepLatest(found: Map<string, ServerResponse>, item: ServerResponse): void {
  const earlier = found.get(item.server.name);
  if (earlier === undefined || official(item)?.['isLatest'] === true || official(earlier)?.['isLatest'] !== true)
    found.set(item.server.name, item);
}

/** Every word in the server's own name, title or description (a query naming a server by its full name: as the registry matched it). */
function matchesAll(item: ServerResponse, query: string, words: readonly string[]): boolean {
  if (query.includes('/')) return true;
  const own = item.server.name.slice(item.server.name.indexOf('/') + 1);
  const text = `${own} ${item.server.title ?? ''} ${item.server.description ?? ''}`.toLowerCase();
  return words.every((word) => text.includes(word.toLowerCase()));
}

async function getJson(registry: string, url: URL, limits: RegistryLimits, fetcher: typeof fetch): Promise<unknown> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetcher(url, { headers: { accept: 'application/json' }, signal });
  } catch (error) {
    throw new RegistryError(registry, unreachable(error, limits));
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new RegistryError(registry, `answered HTTP ${response.status} to ${url.pathname}${url.search}`);
  }
  let body: Uint8Array | undefined;
  try {
    body = await readCappedBody(response, limits.maxResponseBytes);
  } catch (error) {
    throw new RegistryError(registry, unreachable(error, limits));
  }
  if (body === undefined) throw new RegistryError(registry, tooLarge(limits));
  const text = Buffer.from(body).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new RegistryError(
      registry,
      `answered with something that is not JSON (${type.slice(0, 60)}); is the URL an MCP Registry?`,
    );
  }
}

function tooLarge(limits: RegistryLimits): string {
  return `answered with more than ${limits.maxResponseBytes} bytes (--registry-max-bytes)`;
}

function unreachable(error: unknown, limits: RegistryLimits): string {
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `no answer within ${limits.timeoutMs / 1000} s (--registry-timeout)`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `cannot reach it (${cause?.code ?? cause?.message ?? errorMessage(error)})`;
}
