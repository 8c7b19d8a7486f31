/**
 * G9 — a profile's catalog: the shared catalog seen through the profile's servers and tool globs.
 * One hub, one connection per server and one catalog feed every profile; each profile's gateway
 * gets a mirror holding only its tools (and only its servers' pending / failed states and
 * descriptions), kept in step with the shared catalog's changes. Its search, announcement, lists
 * and calls can therefore never see another profile's tool: the tool is not in the catalog they read.
 */
import { Catalog } from '../../core/catalog.js';
import type { ToolSpec } from '../../core/tool.js';

interface Mirrored {
  readonly state: string;
  readonly tools: readonly ToolSpec[];
}

export interface CatalogView {
  readonly catalog: Catalog;
  close(): void;
}

export function profileCatalog(
  source: Catalog,
  servers: readonly string[],
  includes: (tool: ToolSpec) => boolean,
): CatalogView {
  const catalog = new Catalog();
  const mirrored = new Map<string, Mirrored>();
  const sync = (): void => {
    for (const server of servers) {
      const failed = source.failedServers.find((f) => f.server === server);
      const pending = source.pendingServers.includes(server);
      const state = failed ? `failed:${failed.reason}` : pending ? 'pending' : 'ready';
      const tools = failed || pending ? [] : source.serverTools(server).filter(includes);
      const info = source.serverInfo.get(server);
      if (info) catalog.setServerInfo(server, info);
      const before = mirrored.get(server);
      if (before?.state === state && sameTools(before.tools, tools)) continue;
      mirrored.set(server, { state, tools });
      if (failed) catalog.markFailed(server, failed.reason);
      else if (pending) catalog.removeServer(server, { pending: true });
      else catalog.setServerTools(server, tools);
    }
  };
  sync();
  const unsubscribe = source.onChange(() => sync());
  return { catalog, close: unsubscribe };
}

function sameTools(a: readonly ToolSpec[], b: readonly ToolSpec[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i]);
}
