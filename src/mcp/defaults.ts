/**
 * The embedded default: with no `--config`, the gateway fronts the reference MCP servers
 * installed as dependencies. Entry points are resolved from their package.json `bin` and run
 * with this Node (`process.execPath`): no npx, no network.
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';
import { parseHubConfig, type HubConfig, type StdioServerConfig } from './config.js';

const require = createRequire(import.meta.url);

export const REFERENCE_SERVER_PACKAGES = {
  everything: '@modelcontextprotocol/server-everything',
  filesystem: '@modelcontextprotocol/server-filesystem',
  memory: '@modelcontextprotocol/server-memory',
  'sequential-thinking': '@modelcontextprotocol/server-sequential-thinking',
} as const;

export type ReferenceServer = keyof typeof REFERENCE_SERVER_PACKAGES;

/** Absolute path of an installed package's (first) bin script. */
export function resolvePackageBin(packageName: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`package ${packageName} declares no "bin"`);
  return join(dirname(manifestPath), bin);
}

export interface DefaultServersOptions {
  /** The directory server-filesystem may read and write. Default: the current directory. */
  root?: string;
  /** server-memory's knowledge-graph file. Default: `<tmpdir>/toolsearch-memory.jsonl`. */
  memoryFile?: string;
  /** Subset of reference servers. Default: all four. */
  only?: readonly ReferenceServer[];
}

export function referenceServerConfig(server: ReferenceServer, options: DefaultServersOptions = {}): StdioServerConfig {
  const entry = resolvePackageBin(REFERENCE_SERVER_PACKAGES[server]);
  switch (server) {
    case 'everything':
      return { command: process.execPath, args: [entry, 'stdio'] };
    case 'filesystem':
      return { command: process.execPath, args: [entry, resolve(options.root ?? process.cwd())] };
    case 'memory':
      return {
        command: process.execPath,
        args: [entry],
        env: { MEMORY_FILE_PATH: resolve(options.memoryFile ?? join(tmpdir(), 'toolsearch-memory.jsonl')) },
      };
    case 'sequential-thinking':
      return { command: process.execPath, args: [entry], env: { DISABLE_THOUGHT_LOGGING: 'true' } };
  }
}

/**
 * G5 — the filesystem server's root when none is given. The current directory, unless it is the
 * top of a disk or the home directory: desktop apps start their servers from `/`, and a gateway
 * started there would hand the model write access to everything. Then `refused` says why.
 */
export interface ImplicitRoot {
  readonly root: string;
  /** Set when `root` came from the current directory and is too wide to serve unasked. */
  readonly refused?: string;
}

export function filesystemRoot(
  options: Pick<DefaultServersOptions, 'root'>,
  cwd: string = process.cwd(),
  home: string = homedir(),
): ImplicitRoot {
  if (options.root !== undefined) return { root: resolve(options.root) };
  const root = resolve(cwd);
  if (parse(root).root === root) return { root, refused: `the current directory is ${root}, the whole disk` };
  if (home !== '' && samePath(root, home))
    return { root, refused: `the current directory is the home directory (${root})` };
  return { root };
}

function samePath(a: string, b: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return resolve(a) === resolve(b) || real(a) === real(b);
}

/**
 * A HubConfig for the installed reference servers; without the filesystem server when no root was
 * given and the current directory is too wide to be one (`filesystemRoot`).
 */
export function defaultHubConfig(options: DefaultServersOptions = {}): HubConfig {
  const unsafeRoot = filesystemRoot(options).refused !== undefined;
  const names = (options.only ?? (Object.keys(REFERENCE_SERVER_PACKAGES) as ReferenceServer[])).filter(
    (name) => !(name === 'filesystem' && unsafeRoot),
  );
  const mcpServers = Object.fromEntries(names.map((name) => [name, referenceServerConfig(name, options)]));
  return parseHubConfig({ mcpServers }, '<embedded reference servers>');
}
