/**
 * G13 — `toolsearch add <name or words>`: a server from the MCP Registry into the servers file;
 * `toolsearch remove <name>`: an entry out of it. A running gateway that serves the file sees
 * either change on save (config-reloader.ts), and pins a new server's tools when it first lists
 * them (trust on first use, as for any server).
 *
 * Which server: the one whose registry name is exactly what was asked (case aside); else the
 * only match; several matches are listed and nothing is written (the exact name picks one).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Environment } from '../variables.js';
import { NameClashError, RegistryError, ServersFileError } from './errors.js';
import {
  DEFAULT_REGISTRY_LIMITS,
  type RegistryLimits,
  type RegistrySearch,
  searchRegistry,
} from './registry-client.js';
import { type RegistryEntry, registryEntry, type Way } from './registry-entry.js';
import type { ServerResponse } from './registry-schema.js';
import { readServersFile, updateServersFile, withoutServer, withServers } from './servers-file.js';

export interface AddOptions {
  readonly query: string;
  readonly serversFile: string;
  readonly registry: string;
  readonly limits?: RegistryLimits;
  /** The name in the servers file (default: the registry name's last part, shortened). */
  readonly name?: string;
  readonly use?: Way;
  readonly values?: Readonly<Record<string, string>>;
  readonly env?: Environment;
  readonly dryRun?: boolean;
  readonly fetcher?: typeof fetch;
}

export type AddReport =
  | {
      readonly kind: 'added' | 'already-there';
      readonly server: ServerResponse;
      readonly entry: RegistryEntry;
      readonly name: string;
      readonly serversFile: string;
      readonly created: boolean;
      readonly dryRun: boolean;
      readonly skipped: number;
    }
  | {
      readonly kind: 'several';
      readonly servers: readonly ServerResponse[];
      readonly truncated: boolean;
      readonly skipped: number;
    };

const SERVER_NAME = /^[A-Za-z0-9_.-]+$/;

/** The server asked for: an exact name wins, else the only match; several → undefined (listed). */
export function pickServer(search: RegistrySearch, query: string): ServerResponse | undefined {
  const wanted = query.trim().toLowerCase();
  const exact = search.servers.filter((item) => item.server.name.toLowerCase() === wanted);
  if (exact.length === 1) return exact[0];
  return search.servers.length === 1 ? search.servers[0] : undefined;
}

export async function addFromRegistry(options: AddOptions): Promise<AddReport> {
  const search = await searchRegistry(
    options.registry,
    options.query,
    options.limits ?? DEFAULT_REGISTRY_LIMITS,
    options.fetcher,
  );
  if (search.servers.length === 0)
    throw new RegistryError(
      options.registry,
      `has no server whose name matches "${options.query}"${search.truncated ? ' in the pages read' : ''} (its search looks at names)`,
    );
  const server = pickServer(search, options.query);
  if (server === undefined)
    return {
      kind: 'several',
      servers: [...search.servers].sort((a, b) => a.server.name.localeCompare(b.server.name)),
      truncated: search.truncated,
      skipped: search.skipped,
    };
  const entry = registryEntry(server.server, {
    ...(options.name !== undefined && { name: options.name }),
    ...(options.use !== undefined && { use: options.use }),
    ...(options.values !== undefined && { values: options.values }),
    ...(options.env !== undefined && { env: options.env }),
  });
  const name = entry.name;
  if (!SERVER_NAME.test(name) || name.includes('__'))
    throw new ServersFileError(
      options.serversFile,
      `"${name}" cannot name a server (letters, digits, "_", "-" and ".", no "__"); nothing was written`,
    );
  const plan = (servers: Readonly<Record<string, unknown>>): 'added' | 'already-there' => {
    const existing = servers[name];
    if (existing === undefined) return 'added';
    if (isDeepStrictEqual(existing, entry.entry)) return 'already-there';
    throw new NameClashError(
      name,
      options.serversFile,
      `registry server ${server.server.name}`,
      `give the new one another name with --name, or take the old one out first with "toolsearch remove ${name}"; nothing was written`,
    );
  };
  const base = {
    server,
    entry,
    name,
    serversFile: options.serversFile,
    dryRun: options.dryRun === true,
    skipped: search.skipped,
  };
  if (options.dryRun) {
    const file = await readServersFile(options.serversFile);
    return { ...base, kind: plan(file.servers), created: !file.exists };
  }
  const done = await updateServersFile(options.serversFile, (file) => {
    const kind = plan(file.servers);
    return { text: kind === 'added' ? withServers(file, [[name, entry.entry]]) : undefined, result: { kind } };
  });
  return { ...base, kind: done.kind, created: !done.file.exists };
}

/** Take the server `name` out of the servers file. Returns its entry as it was. */
export async function removeServer(serversFile: string, name: string): Promise<unknown> {
  const done = await updateServersFile(serversFile, (file) => {
    if (!file.exists) throw new ServersFileError(serversFile, 'no such servers file; nothing was removed');
    const entry = file.servers[name];
    if (entry === undefined) {
      const names = Object.keys(file.servers);
      throw new ServersFileError(
        serversFile,
        `has no server "${name}" (${names.length > 0 ? `its servers: ${names.join(', ')}` : 'it has no servers'}); nothing was removed`,
      );
    }
    return { text: withoutServer(file, name), result: { entry } };
  });
  return done.entry;
}
