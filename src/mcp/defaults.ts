/**
 * The embedded default: with no `--config`, the gateway fronts the reference MCP servers
 * installed as dependencies. Entry points are resolved from their package.json `bin` and run
 * with this Node (`process.execPath`): no npx, no network.
 */
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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

/** A HubConfig for the installed reference servers. */
export function defaultHubConfig(options: DefaultServersOptions = {}): HubConfig {
  const names = options.only ?? (Object.keys(REFERENCE_SERVER_PACKAGES) as ReferenceServer[]);
  const mcpServers = Object.fromEntries(names.map((name) => [name, referenceServerConfig(name, options)]));
  return parseHubConfig({ mcpServers }, '<embedded reference servers>');
}
