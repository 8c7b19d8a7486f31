/**
 * G9 — a profile's catalog: the shared catalog seen through the profile's servers and tool globs.
 * One hub, one connection per server and one catalog feed every profile; each profile's gateway
 * gets a mirror holding only its tools (and only its servers' pending / failed states and
 * descriptions), kept in step with the shared catalog's changes. Its search, announcement, lists
 * and calls can therefore never see another profile's tool: the tool is not in the catalog they read.
 */
import { Catalog, type HiddenTool } from '../../core/catalog.js';
import type { ToolSpec } from '../../core/tool.js';

interface Mirrored {
  readonly state: string;
  readonly tools: readonly ToolSpec[];
}

export interface CatalogView {
  readonly catalog: Catalog;
  /**
   * G9/G7: a reload changed the profile's servers or tool globs. The view follows at once: a
   * server left out leaves it (tools, state, description), one added enters, the globs are applied
   * again to every server; the profile's sessions hear it as a catalog change.
   */
  update(servers: readonly string[], includes: (tool: ToolSpec) => boolean, denial?: ToolDenial): void;
  close(): void;
}

/** G10: why the profile's policy keeps a tool from its clients, or undefined when it may be used. */
export type ToolDenial = (tool: ToolSpec) => string | undefined;

export function profileCatalog(
  source: Catalog,
  initialServers: readonly string[],
  initialIncludes: (tool: ToolSpec) => boolean,
  initialDenial?: ToolDenial,
): CatalogView {
  const catalog = new Catalog();
  const mirrored = new Map<string, Mirrored>();
  let servers = initialServers;
  let includes = initialIncludes;
  let denial = initialDenial;
  const sync = (): void => {
    for (const server of servers) {
      const failed = source.failedServers.find((f) => f.server === server);
      const pending = source.pendingServers.includes(server);
      const state = failed ? `failed:${failed.reason}` : pending ? 'pending' : 'ready';
      const { tools, hidden } = failed || pending ? { tools: [], hidden: [] } : admitted(server);
      const info = source.serverInfo.get(server);
      if (info) catalog.setServerInfo(server, info);
      catalog.setHiddenTools(server, hidden);
      const before = mirrored.get(server);
      if (before?.state === state && sameTools(before.tools, tools)) continue;
      mirrored.set(server, { state, tools });
      if (failed) catalog.markFailed(server, failed.reason);
      else if (pending) catalog.removeServer(server, { pending: true });
      else catalog.setServerTools(server, tools);
    }
  };
  /**
   * The server's tools the profile shows, and what it does not with why: what the hub hides
   * (config, trust holds, `toolSearch.allow`) and what the profile's own `allow` leaves out (G10),
   * so a call by such a name says why instead of "unknown".
   */
  const admitted = (server: string): { tools: ToolSpec[]; hidden: HiddenTool[] } => {
    const tools: ToolSpec[] = [];
    const hidden = source.hiddenTools.filter((h) => h.server === server);
    for (const tool of source.serverTools(server)) {
      if (!includes(tool)) continue;
      const reason = denial?.(tool);
      if (reason === undefined) tools.push(tool);
      else
        hidden.push({
          server,
          tool: tool.originalName ?? tool.name,
          name: tool.name,
          reason,
          kind: 'policy',
          spec: tool,
        });
    }
    return { tools, hidden };
  };
  /** Servers the profile no longer names leave the view as if removed from the config. */
  const dropLeftOut = (): void => {
    for (const server of [...mirrored.keys()]) {
      if (servers.includes(server)) continue;
      mirrored.delete(server);
      catalog.setServerInfo(server, {});
      catalog.removeServer(server);
    }
  };
  sync();
  const unsubscribe = source.onChange(() => sync());
  return {
    catalog,
    update: (nextServers, nextIncludes, nextDenial) => {
      servers = nextServers;
      includes = nextIncludes;
      denial = nextDenial;
      dropLeftOut();
      // The globs may differ for a server that stays: compare its tools afresh.
      mirrored.clear();
      sync();
    },
    close: unsubscribe,
  };
}

function sameTools(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i]);
}
