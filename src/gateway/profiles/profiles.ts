/**
 * G9 — the profiles a gateway serves: per profile, a catalog view (catalog-view.ts) and a gateway
 * of its own over it, sharing the hub (one connection per server), the operations events (metrics
 * and the audit log label everything with the profile) and the tracer. Sessions are per profile:
 * a session id of one profile means nothing to another.
 *
 * G7 — a reload applies the config's profiles as it applies its servers (`apply`): a new profile
 * is served at once, a removed one ends its sessions, and one whose servers, tool globs or token
 * changed is updated in place: its sessions go on and hear the change as list_changed.
 */
import type { Catalog } from '../../core/catalog.js';
import { McpConfigError } from '../../mcp/errors.js';
import type { ToolsearchGateway } from '../gateway.js';
import { Operations } from '../status/operations.js';
import { profileCatalog, type CatalogView } from './catalog-view.js';
import type { ProfileConfig } from './config.js';

/** Profiles are served under this path: `/mcp/<name>`. */
export const PROFILE_PATH_PREFIX = '/mcp/';

export interface Profile {
  readonly name: string;
  /** `/mcp/<name>`. */
  readonly path: string;
  /** Its servers now (a reload may change them). */
  readonly servers: readonly string[];
  readonly gateway: ToolsearchGateway;
  /** Its own bearer token now, when it has one (else the gateway's). */
  readonly token?: string;
}

/** What a reload did to the profiles, by name. */
export interface ProfileChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  readonly unchanged: readonly string[];
}

/** Told of an applied reload's changes before removed profiles' gateways close. */
export type ProfilesListener = (changes: ProfileChanges) => void | Promise<void>;

/** Makes a profile's gateway over its view; `scope` is the live set of its servers (features). */
export type ProfileGatewayFactory = (
  catalog: Catalog,
  operations: Operations,
  profile: ProfileConfig,
  scope: ReadonlySet<string>,
) => ToolsearchGateway;

/** One served profile: its view, gateway and the settings a reload may change. */
class LiveProfile implements Profile {
  readonly path: string;

  constructor(
    private config: ProfileConfig,
    readonly view: CatalogView,
    readonly gateway: ToolsearchGateway,
    /** The servers the gateway's resources, prompts and completions are scoped to (updated in place). */
    private readonly scope: Set<string>,
  ) {
    this.path = `${PROFILE_PATH_PREFIX}${config.name}`;
  }

  get name(): string {
    return this.config.name;
  }

  get servers(): readonly string[] {
    return this.config.servers;
  }

  get token(): string | undefined {
    return this.config.token;
  }

  /** The config the profile was last given (to compare a reload's against). */
  get settings(): ProfileConfig {
    return this.config;
  }

  /** Apply a reload's settings; its sessions hear of the features they gained or lost. */
  update(config: ProfileConfig): void {
    const serversChanged = !sameServers(this.config.servers, config.servers);
    this.config = config;
    this.scope.clear();
    for (const server of config.servers) this.scope.add(server);
    // The tools' list_changed follows from the view's change (the gateway's catalog broadcast).
    this.view.update(config.servers, config.includes, config.denial);
    if (!serversChanged) return;
    this.gateway.notifyAllSessions({ method: 'notifications/resources/list_changed' });
    this.gateway.notifyAllSessions({ method: 'notifications/prompts/list_changed' });
  }
}

export class Profiles {
  private readonly live = new Map<string, LiveProfile>();
  private readonly listeners = new Set<ProfilesListener>();
  /** G9: profiles a stdio process serves (`serve --profile`): a reload may not remove them. */
  private readonly pinned = new Set<string>();

  constructor(
    configs: readonly ProfileConfig[],
    private readonly source: Catalog,
    private readonly shared: Operations,
    private readonly makeGateway: ProfileGatewayFactory,
  ) {
    for (const config of configs) this.add(config);
  }

  get list(): readonly Profile[] {
    return [...this.live.values()];
  }

  get(name: string): Profile | undefined {
    return this.live.get(name);
  }

  /** This process serves `name` alone (stdio): a reload that drops it is refused. */
  pin(name: string): void {
    this.pinned.add(name);
  }

  /** Called after each applied reload (the HTTP endpoints mount and unmount profiles). */
  onChange(listener: ProfilesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Throws McpConfigError when `configs` cannot be applied (a pinned profile is gone), so that a
   * reload is refused as a whole before anything changes.
   */
  check(configs: readonly ProfileConfig[], source: string): void {
    const names = new Set(configs.map((c) => c.name));
    for (const name of this.pinned)
      if (!names.has(name))
        throw new McpConfigError(
          source,
          `profiles.${name}`,
          `this process serves profile "${name}" (serve --profile); it cannot be removed by a reload (restart with another profile)`,
        );
  }

  /** G7: make the served profiles those of `configs` (see the file's comment). */
  async apply(configs: readonly ProfileConfig[]): Promise<ProfileChanges> {
    const names = new Set(configs.map((c) => c.name));
    const gone = [...this.live.values()].filter((p) => !names.has(p.name));
    for (const profile of gone) this.live.delete(profile.name);
    const added: string[] = [];
    const changed: string[] = [];
    const unchanged: string[] = [];
    for (const config of configs) {
      const current = this.live.get(config.name);
      if (!current) {
        this.add(config);
        added.push(config.name);
      } else if (sameProfile(current.settings, config)) {
        unchanged.push(config.name);
      } else {
        current.update(config);
        changed.push(config.name);
      }
    }
    const changes = { added, removed: gone.map((p) => p.name), changed, unchanged };
    // The endpoints stop routing to removed profiles (and close their sessions) first.
    for (const listener of this.listeners) await listener(changes);
    await Promise.allSettled(gone.map(closeProfile));
    return changes;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.live.values()].map(closeProfile));
  }

  private add(config: ProfileConfig): void {
    const view = profileCatalog(this.source, config.servers, config.includes, config.denial);
    const operations = new Operations({
      events: this.shared.events,
      ...(this.shared.tracer && { tracer: this.shared.tracer }),
      profile: config.name,
    });
    const scope = new Set(config.servers);
    const gateway = this.makeGateway(view.catalog, operations, config, scope);
    this.live.set(config.name, new LiveProfile(config, view, gateway, scope));
  }
}

async function closeProfile(profile: LiveProfile): Promise<void> {
  profile.view.close();
  await profile.gateway.close();
}

function sameServers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((server, i) => server === b[i]);
}

/** Same servers, globs and token: nothing to do for this profile. */
function sameProfile(a: ProfileConfig, b: ProfileConfig): boolean {
  return sameServers(a.servers, b.servers) && a.rules === b.rules && a.token === b.token;
}
