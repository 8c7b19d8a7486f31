/**
 * G5 — roots belong to the operator on a multi-user gateway. An upstream's `roots/list` is
 * answered from the server's `roots` setting, else from `--root`, else with no roots (a server
 * such as server-filesystem then keeps the directories on its command line). A client's roots
 * never reach a shared server: one client answering `file:///` would widen every user's sandbox.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HubConfig } from './config.js';

export interface OperatorRoot {
  uri: string;
  name?: string;
}

/** A configured root as a `file://` URI (a path is resolved against the current directory). */
export function rootUri(root: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(root) ? root : pathToFileURL(resolve(root)).href;
}

/** The roots each server is answered with: its own `roots`, else `fallback` (`--root`), else none. */
export function operatorRoots(config: HubConfig, fallback?: string): (server: string) => OperatorRoot[] {
  const shared = fallback === undefined ? [] : [{ uri: rootUri(fallback), name: 'root' }];
  return (server) => {
    const own = config.servers[server]?.roots;
    return own === undefined ? shared : own.map((root) => ({ uri: rootUri(root) }));
  };
}
