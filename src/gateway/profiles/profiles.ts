/**
 * G9 — the profiles a gateway serves: per profile, a catalog view (catalog-view.ts) and a gateway
 * of its own over it, sharing the hub (one connection per server), the operations events (metrics
 * and the audit log label everything with the profile) and the tracer. Sessions are per profile:
 * a session id of one profile means nothing to another.
 */
import type { Catalog } from '../../core/catalog.js';
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
  readonly servers: readonly string[];
  readonly gateway: ToolsearchGateway;
  /** Its own bearer token, when it has one (else the gateway's). */
  readonly token?: string;
}

export class Profiles {
  private readonly views: CatalogView[] = [];
  readonly list: readonly Profile[];

  constructor(
    configs: readonly ProfileConfig[],
    source: Catalog,
    shared: Operations,
    makeGateway: (catalog: Catalog, operations: Operations, profile: ProfileConfig) => ToolsearchGateway,
  ) {
    this.list = configs.map((config) => {
      const view = profileCatalog(source, config.servers, config.includes);
      this.views.push(view);
      const operations = new Operations({
        events: shared.events,
        ...(shared.tracer && { tracer: shared.tracer }),
        profile: config.name,
      });
      return {
        name: config.name,
        path: `${PROFILE_PATH_PREFIX}${config.name}`,
        servers: config.servers,
        gateway: makeGateway(view.catalog, operations, config),
        ...(config.token !== undefined && { token: config.token }),
      };
    });
  }

  get(name: string): Profile | undefined {
    return this.list.find((p) => p.name === name);
  }

  async close(): Promise<void> {
    for (const view of this.views) view.close();
    await Promise.allSettled(this.list.map((p) => p.gateway.close()));
  }
}
