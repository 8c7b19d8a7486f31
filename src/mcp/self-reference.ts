/**
 * G1 — a config that lists this gateway. Claude Desktop's file holds the gateway's own entry next
 * to the servers it fronts; served as is, each gateway would start another one, without end. Two
 * guards:
 *
 * - an entry whose command plainly starts toolsearch (`toolsearch`, `npx toolsearch`, `node
 *   …/dist/cli/main.js`, a path that resolves to that file) is skipped with one warning;
 * - for what cannot be resolved (a shell wrapper), every server the hub spawns inherits the chain
 *   of configs its gateways serve (GATEWAY_CHAIN_ENV): a gateway asked to serve a config already
 *   in that chain refuses to start with NESTED_GATEWAY_NOTICE on stderr, and the hub that spawned
 *   it drops the entry with the same one warning instead of retrying it.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { NESTED_GATEWAY_NOTICE, NestedGatewayError } from './errors.js';
import { isStdioServer, type HubConfig, type ServerConfig, type StdioServerConfig } from './config.js';

/** The variable every spawned server inherits: a JSON list of the config files of the gateways above it. */
export const GATEWAY_CHAIN_ENV = 'TOOLSEARCH_GATEWAY_CHAIN';

const PACKAGE_NAME = 'toolsearch';
/** Runners that take a package and run its bin: `npx toolsearch`, `pnpm dlx toolsearch`, … */
const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);
const RUNNER_SUBCOMMANDS = new Set(['npm:exec', 'npm:x', 'pnpm:dlx', 'pnpm:exec', 'yarn:dlx', 'bun:x']);
/** Runner options whose value is the next argument. */
const RUNNER_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call', '--cache', '--prefix']);

/** The command's name without a Windows extension: `C:\…\npx.cmd` → `npx`. */
function commandName(command: string): string {
  return basename(command.replaceAll('\\', '/'))
    .replace(/\.(cmd|exe|ps1|bat)$/i, '')
    .toLowerCase();
}

function isOurPackageSpec(spec: string): boolean {
  return spec === PACKAGE_NAME || spec.startsWith(`${PACKAGE_NAME}@`);
}

/** The package a runner's arguments name: `--package=X`, `-p X`, else the first positional. */
function runnerPackages(args: readonly string[]): string[] {
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...named, ...args.slice(i + 1, i + 2)];
    const inline = /^--package=(.+)$/.exec(arg);
    if (inline) named.push(inline[1]!);
    else if (RUNNER_VALUE_OPTIONS.has(arg)) {
      if (arg === '-p' || arg === '--package') named.push(args[i + 1] ?? '');
      i++;
    } else if (!arg.startsWith('-')) return [...named, arg];
  }
  return named;
}

function runsOurPackage(command: string, args: readonly string[]): boolean {
  const name = commandName(command);
  const rest = RUNNERS.has(name) ? args : RUNNER_SUBCOMMANDS.has(`${name}:${args[0]}`) ? args.slice(1) : undefined;
  return rest !== undefined && runnerPackages(rest).some(isOurPackageSpec);
}

/** A file that is toolsearch's CLI entry point: `<package named toolsearch>/dist/cli/main.js` (or src/cli/main.ts). */
function isToolsearchEntry(path: string): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  const normalized = real.replaceAll('\\', '/');
  if (!/\/(dist\/cli\/main\.js|src\/cli\/main\.ts)$/.test(normalized)) return false;
  const manifest = join(dirname(dirname(dirname(real))), 'package.json');
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/** Arguments worth resolving: paths (a script, a bin link), not flags or words. */
function looksLikePath(arg: string): boolean {
  return !arg.startsWith('-') && (/[\\/]/.test(arg) || /\.[cm]?[jt]s$/.test(arg));
}

/**
 * Why a stdio entry is this gateway, or undefined when it is not (as far as can be told without
 * running it): its command is toolsearch, a runner of the toolsearch package, or toolsearch's entry
 * file, or one of its arguments is that file (`node …/dist/cli/main.js serve`).
 */
export function selfReference(config: StdioServerConfig): string | undefined {
  const args = config.args ?? [];
  const cwd = config.cwd ?? process.cwd();
  if (commandName(config.command) === PACKAGE_NAME) return `its command "${config.command}" is this gateway`;
  if (runsOurPackage(config.command, args))
    return `its command "${config.command} ${args.join(' ')}" runs this gateway`;
  const paths = [config.command, ...args].filter((part) => part === config.command || looksLikePath(part));
  const entry = paths.find((part) => isToolsearchEntry(resolve(cwd, part)));
  return entry === undefined ? undefined : `it runs this gateway (${entry})`;
}

/** The one warning for a skipped entry. */
export function selfListedWarning(name: string, why: string): string {
  return `skipping server "${name}": ${why}; a gateway does not start itself (remove the entry from the config it serves)`;
}

/**
 * What a hub does with entries that are this gateway: leaves them out of every config it is given
 * (at start and on reload), and drops one whose process refused to serve this config again; each
 * named in one warning (a reload does not repeat it).
 */
export class SelfListedEntries {
  private readonly warned = new Set<string>();

  constructor(private readonly warn: (line: string) => void) {}

  filter(config: HubConfig): HubConfig {
    const kept: Record<string, ServerConfig> = {};
    for (const [name, server] of Object.entries(config.servers)) {
      const why = isStdioServer(server) ? selfReference(server) : undefined;
      if (why === undefined) kept[name] = server;
      else this.once(name, why);
    }
    return Object.keys(kept).length === Object.keys(config.servers).length ? config : { ...config, servers: kept };
  }

  /** True (and warned) when a failed start was a gateway refusing to serve this config again. */
  refused(name: string, lastStderr: string | undefined): boolean {
    if (lastStderr?.includes(NESTED_GATEWAY_NOTICE) !== true) return false;
    this.once(name, 'it started a gateway that serves this same config');
    return true;
  }

  private once(name: string, why: string): void {
    if (!this.warned.has(name)) this.warn(selfListedWarning(name, why));
    this.warned.add(name);
  }
}

/** The chain of config files served by the gateways above this process (from its environment). */
export function gatewayChain(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env[GATEWAY_CHAIN_ENV];
  if (raw === undefined || raw === '') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** A config's identity in the chain: its real path (a file given two ways is one config). */
function configIdentity(source: string): string {
  try {
    return realpathSync(source);
  } catch {
    return resolve(source);
  }
}

/** The variables the hub adds to every server it spawns: the chain, with this gateway's config. */
export function childGatewayEnv(source: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const own = existsSync(source) ? [configIdentity(source)] : [];
  return { [GATEWAY_CHAIN_ENV]: JSON.stringify([...gatewayChain(env), ...own]) };
}

/** Throws NestedGatewayError when a gateway above this process already serves `configPath` (it would recurse). */
export function refuseServingAgain(configPath: string, env: NodeJS.ProcessEnv = process.env): void {
  if (gatewayChain(env).includes(configIdentity(configPath))) throw new NestedGatewayError(configPath);
}
