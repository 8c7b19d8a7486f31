/**
 * G4 — what the hub's servers offer besides tools, merged: like the catalog for tools, this is the
 * one place that knows which server owns which resource, resource template and prompt, and how a
 * clash between two servers is resolved.
 *
 * Clash rule (one rule for URIs, templates and prompt names): a URI / template / prompt name that
 * only one connected server lists is exposed unchanged. When several list it, the first server in
 * config order keeps it unchanged; each later one is exposed under a server-qualified form —
 * `toolsearch://<server>/<original URI or template>` for resources and templates (still a URI;
 * reads of it go to that server with the original URI), `<server>__<name>` for prompts (the tool
 * separator, so `/beta__summarize` reads like `mcp__beta__summarize` without the prefix clients add).
 * A qualified prompt name that is itself taken is left out and reported.
 */
import type { McpConnection, UpstreamPrompt, UpstreamResource, UpstreamResourceTemplate } from './connection.js';
import { silentLogger, type Logger } from '../util/log.js';
import { errorMessage } from '../util/errors.js';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { compileUriTemplate, type CompiledUriTemplate } from './uri-template.js';
import { uriProblem } from './uri-guard.js';

export type FeatureKind = 'resources' | 'prompts';

/** What one server offers besides tools. */
export interface ServerFeatures {
  resources: UpstreamResource[];
  templates: UpstreamResourceTemplate[];
  prompts: UpstreamPrompt[];
  /** It answers resources/* at all (routing fallback for URIs no list names). */
  offersResources: boolean;
}

export interface FeatureCounts {
  readonly resources: number;
  readonly templates: number;
  readonly prompts: number;
}

/** A merged list as clients see it, with the version clients' cursors are bound to. */
export interface ExposedList<T> {
  readonly items: readonly T[];
  readonly generation: number;
}

/** Where a client-facing name goes: the owning server and the server's own name for it. */
export interface Route {
  readonly server: string;
  /** The URI, template or prompt name as the server knows it. */
  readonly target: string;
}

export const ALIAS_SCHEME = 'toolsearch://';

/** `toolsearch://<server>/<original>`: a later server's copy of a URI or template another server holds. */
export function aliasUri(server: string, uri: string): string {
  return `${ALIAS_SCHEME}${server}/${uri}`;
}

/** `<server>__<name>`: a later server's copy of a prompt name another server holds. */
export function qualifyPromptName(server: string, name: string): string {
  return `${server}__${name}`;
}

interface Exposed<T> {
  item: T;
  route: Route;
}

/** G9: the servers a profile may see; absent: all. */
export type Scope = ReadonlySet<string>;

function inScope<T>(view: readonly Exposed<T>[], scope: Scope | undefined): T[] {
  return (scope ? view.filter((e) => scope.has(e.route.server)) : view).map((e) => e.item);
}

function within(route: Route | undefined, scope: Scope | undefined): Route | undefined {
  return route && (!scope || scope.has(route.server)) ? route : undefined;
}

export class McpAggregate {
  private readonly servers = new Map<string, ServerFeatures>();
  private readonly listeners = new Set<(kind: FeatureKind) => void>();
  private readonly joinListeners = new Set<(server: string) => void>();
  private resourcesView: Exposed<UpstreamResource>[] = [];
  private templatesView: Exposed<UpstreamResourceTemplate>[] = [];
  /** G5: each server's own templates, compiled once per list, in routing order. */
  private matchers: Array<{ server: string; matcher: CompiledUriTemplate }> = [];
  private readonly warned = new Set<string>();
  private promptsView: Exposed<UpstreamPrompt>[] = [];
  private readonly generations = { resources: 0, prompts: 0 };
  private readonly fingerprints = { resources: '', prompts: '' };

  constructor(
    /** Config order: who wins a clash. */
    private readonly order: readonly string[],
    private readonly logger: Logger = silentLogger,
    /** G5: longer URIs are refused before routing (`resourceUriChars`). */
    private readonly maxUriChars: number = DEFAULT_LIMITS.resourceUriChars,
  ) {}

  /** Why a client's URI is refused before routing (too long, control characters), if it is. */
  uriProblem(uri: string): string | undefined {
    return uriProblem(uri, this.maxUriChars);
  }

  /** Replace what `server` offers (fields left out stay as they were). */
  setServer(server: string, features: Partial<ServerFeatures>): void {
    const previous = this.servers.get(server);
    const templates = features.templates && this.usableTemplates(server, features.templates);
    this.servers.set(server, {
      ...(previous ?? { resources: [], templates: [], prompts: [], offersResources: false }),
      ...features,
      ...(templates && { templates }),
    });
    this.rebuild();
    if (!previous) for (const listener of this.joinListeners) listener(server);
  }

  /** The server is gone (dropped, failed, closed): nothing of it is listed or routed. */
  removeServer(server: string): void {
    if (this.servers.delete(server)) this.rebuild();
  }

  /** Called when a server (re)connects: state it held for clients (subscriptions) must be restored. */
  onServerJoined(listener: (server: string) => void): () => void {
    this.joinListeners.add(listener);
    return () => this.joinListeners.delete(listener);
  }

  has(server: string): boolean {
    return this.servers.has(server);
  }

  /** Per-server counts, for status pages. */
  counts(server: string): FeatureCounts {
    const features = this.servers.get(server);
    return {
      resources: features?.resources.length ?? 0,
      templates: features?.templates.length ?? 0,
      prompts: features?.prompts.length ?? 0,
    };
  }

  /*
   * G9: `scope` (a profile's servers) leaves out what other servers offer, in lists and routes
   * alike: a profile's session neither sees nor reaches another team's resources and prompts.
   */

  resources(scope?: Scope): ExposedList<UpstreamResource> {
    return { items: inScope(this.resourcesView, scope), generation: this.generations.resources };
  }

  templates(scope?: Scope): ExposedList<UpstreamResourceTemplate> {
    return { items: inScope(this.templatesView, scope), generation: this.generations.resources };
  }

  prompts(scope?: Scope): ExposedList<UpstreamPrompt> {
    return { items: inScope(this.promptsView, scope), generation: this.generations.prompts };
  }

  /**
   * The server for a URI a client reads or subscribes to: an alias names it; else the server
   * exposing that exact URI; else the first server (config order) with a matching template; else
   * the only server offering resources. Undefined: no server can be told apart.
   */
  routeUri(uri: string, scope?: Scope): Route | undefined {
    const alias = this.parseAlias(uri);
    if (alias) return within(alias, scope);
    const exact = this.resourcesView.find((e) => e.item.uri === uri);
    if (exact) return within(exact.route, scope);
    if (this.uriProblem(uri) !== undefined) return undefined;
    for (const { server, matcher } of this.matchers)
      if ((!scope || scope.has(server)) && matcher.matches(uri)) return { server, target: uri };
    const offering = [...this.servers]
      .filter(([s, f]) => f.offersResources && (!scope || scope.has(s)))
      .map(([s]) => s);
    return offering.length === 1 ? { server: offering[0]!, target: uri } : undefined;
  }

  /** The server for a template a client names (completion of its arguments). */
  routeTemplate(uriTemplate: string, scope?: Scope): Route | undefined {
    return within(this.templatesView.find((e) => e.item.uriTemplate === uriTemplate)?.route, scope);
  }

  routePrompt(name: string, scope?: Scope): Route | undefined {
    return within(this.promptsView.find((e) => e.item.name === name)?.route, scope);
  }

  /** Called with the kind whose client-visible list changed (content, not just keys). */
  onChange(listener: (kind: FeatureKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** G5: templates that compile; an ambiguous or malformed one is dropped with a warning (once). */
  private usableTemplates(server: string, templates: UpstreamResourceTemplate[]): UpstreamResourceTemplate[] {
    return templates.filter((template) => {
      try {
        compileUriTemplate(template.uriTemplate);
        return true;
      } catch (error) {
        const key = `${server}\n${template.uriTemplate}`;
        if (!this.warned.has(key)) {
          this.warned.add(key);
          this.logger.warn(
            `"${server}": resource template ${JSON.stringify(template.uriTemplate.slice(0, 200))} dropped: ${errorMessage(error)}`,
          );
        }
        return false;
      }
    });
  }

  private parseAlias(uri: string): Route | undefined {
    if (!uri.startsWith(ALIAS_SCHEME)) return undefined;
    const rest = uri.slice(ALIAS_SCHEME.length);
    const slash = rest.indexOf('/');
    if (slash <= 0) return undefined;
    const server = rest.slice(0, slash);
    return this.servers.has(server) ? { server, target: rest.slice(slash + 1) } : undefined;
  }

  private ordered(): Array<[string, ServerFeatures]> {
    const rank = (s: string) => {
      const i = this.order.indexOf(s);
      return i < 0 ? this.order.length : i;
    };
    return [...this.servers].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  }

  private rebuild(): void {
    const ordered = this.ordered();
    this.resourcesView = exposeByKey(
      ordered,
      (f) => f.resources,
      (r) => r.uri,
      (server, r) => ({ ...r, uri: aliasUri(server, r.uri) }),
    );
    this.templatesView = exposeByKey(
      ordered,
      (f) => f.templates,
      (t) => t.uriTemplate,
      (server, t) => ({ ...t, uriTemplate: aliasUri(server, t.uriTemplate) }),
    );
    this.matchers = this.templatesView
      .filter((e) => e.route.target === e.item.uriTemplate)
      .map((e) => ({ server: e.route.server, matcher: compileUriTemplate(e.item.uriTemplate) }));
    this.promptsView = this.exposePrompts(ordered);
    this.bump('resources', JSON.stringify([this.resourcesView, this.templatesView]));
    this.bump('prompts', JSON.stringify(this.promptsView));
  }

  private exposePrompts(ordered: Array<[string, ServerFeatures]>): Exposed<UpstreamPrompt>[] {
    const exposed = exposeByKey(
      ordered,
      (f) => f.prompts,
      (p) => p.name,
      (server, p) => ({ ...p, name: qualifyPromptName(server, p.name) }),
    );
    const seen = new Set<string>();
    return exposed.filter((e) => {
      if (!seen.has(e.item.name)) return seen.add(e.item.name);
      this.logger.warn(
        `prompt "${e.route.target}" of "${e.route.server}" left out: its qualified name "${e.item.name}" is taken`,
      );
      return false;
    });
  }

  private bump(kind: FeatureKind, fingerprint: string): void {
    if (this.fingerprints[kind] === fingerprint) return;
    this.fingerprints[kind] = fingerprint;
    this.generations[kind]++;
    for (const listener of this.listeners) listener(kind);
  }
}

/**
 * Merge per-server lists in config order: the first holder of a key keeps the item unchanged,
 * later holders get `qualify(server, item)`; a server listing one key twice keeps its first.
 */
function exposeByKey<T>(
  ordered: Array<[string, ServerFeatures]>,
  list: (f: ServerFeatures) => T[],
  key: (item: T) => string,
  qualify: (server: string, item: T) => T,
): Exposed<T>[] {
  const owners = new Set<string>();
  const out: Exposed<T>[] = [];
  for (const [server, features] of ordered) {
    const own = new Set<string>();
    for (const item of list(features)) {
      const k = key(item);
      if (own.has(k)) continue;
      own.add(k);
      const route = { server, target: k };
      if (owners.has(k)) out.push({ item: qualify(server, item), route });
      else {
        owners.add(k);
        out.push({ item, route });
      }
    }
  }
  return out;
}

/**
 * Read what a server offers besides tools (both kinds, or the one a list_changed named). A list
 * that fails is logged and left out of the result, so `McpAggregate.setServer` keeps what it had:
 * on connect that is nothing (the server's tools still count); on a refresh it is the previous
 * list, as for tools (a transient failure must not make a server's resources vanish).
 */
export async function fetchServerFeatures(
  connection: McpConnection,
  logger: Logger = silentLogger,
  kinds: readonly FeatureKind[] = ['resources', 'prompts'],
): Promise<Partial<ServerFeatures>> {
  const capabilities = connection.capabilities ?? {};
  const list = async <T>(what: string, fetch: (() => Promise<T[]>) | undefined): Promise<T[] | undefined> => {
    if (!fetch) return [];
    try {
      return await fetch.call(connection);
    } catch (error) {
      logger.warn(`"${connection.server}": listing ${what} failed: ${errorMessage(error)}; keeping the previous list`);
      return undefined;
    }
  };
  const features: Partial<ServerFeatures> = {};
  const keep = <K extends 'resources' | 'templates' | 'prompts'>(key: K, items: ServerFeatures[K] | undefined) => {
    if (items !== undefined) features[key] = items;
  };
  if (kinds.includes('resources')) {
    features.offersResources = capabilities.resources !== undefined;
    keep('resources', features.offersResources ? await list('resources', connection.listResources) : []);
    keep(
      'templates',
      features.offersResources ? await list('resource templates', connection.listResourceTemplates) : [],
    );
  }
  if (kinds.includes('prompts'))
    keep('prompts', capabilities.prompts !== undefined ? await list('prompts', connection.listPrompts) : []);
  return features;
}
