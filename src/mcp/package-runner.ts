/**
 * G13 — servers started through a package runner (`npx`, `npm exec`, `pnpm dlx`, `bunx`, `uvx`,
 * `yarn dlx`). Such a command first installs the package, which on a fresh machine takes far
 * longer than a server's start (a cold `npx -y` of a large server: a minute and more), and a
 * runner killed in the middle of its install can leave a broken cache behind. The hub gives these
 * servers an install allowance (connect-deadline.ts); this file only recognises them and says
 * where each runner keeps its cache (the folder whose growth shows an install is moving).
 *
 * Pure but for `serverRunner`, which reads this process's environment as a spawned server gets it.
 */
import { homedir } from 'node:os';
import { basename, join, win32 } from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isStdioServer, type ServerConfig } from './config.js';

export type RunnerName = 'npx' | 'npm exec' | 'pnpm dlx' | 'bunx' | 'uvx' | 'yarn dlx';

export interface PackageRunner {
  /** The runner as a user would name it. */
  readonly runner: RunnerName;
  /** The package it runs (`@scope/name@1.2.3`), when the arguments name one. */
  readonly packageSpec?: string;
  /** Where the runner keeps what it downloads and installs; undefined when it has no fixed one. */
  readonly cacheDir?: string;
}

export interface RunnerContext {
  /** The environment the server is started with (its own `env` over what the hub passes on). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly platform: NodeJS.Platform;
}

/** Options of the runners that take a value (so the value is not read as the package). */
const VALUE_OPTIONS = new Set([
  '-p',
  '--package',
  '-c',
  '--call',
  '--registry',
  '--cache',
  '--userconfig',
  '--prefix',
  '-w',
  '--workspace',
  '--from',
  '--with',
  '--with-editable',
  '--with-requirements',
  '--python',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--cache-dir',
  '--constraints',
]);

/** Options that name the package themselves (`npx -p pkg bin`, `uvx --from pkg bin`). */
const PACKAGE_OPTIONS = new Set(['-p', '--package', '--from']);

/** The runner a stdio command goes through, or undefined for a server started directly. */
export function packageRunnerOf(
  command: string,
  args: readonly string[],
  context: RunnerContext,
): PackageRunner | undefined {
  const program = programName(command);
  // Windows configs often wrap the runner: `cmd /c npx -y pkg`.
  if (program === 'cmd' && /^\/c$/i.test(args[0] ?? '') && args[1] !== undefined)
    return packageRunnerOf(args[1], args.slice(2), context);
  const found = runnerAndRest(program, args);
  if (!found) return undefined;
  const packageSpec = packageOf(found.rest);
  const cacheDir = cacheDirOf(found.runner, args, context);
  return {
    runner: found.runner,
    ...(packageSpec !== undefined && { packageSpec }),
    ...(cacheDir !== undefined && { cacheDir }),
  };
}

/**
 * The runner of a configured server, with the environment its process gets: the SDK's safe base
 * (HOME, PATH, …) under the entry's own `env` (so `"env": {"npm_config_cache": …}` moves the cache).
 */
export function serverRunner(config: ServerConfig): PackageRunner | undefined {
  if (!isStdioServer(config)) return undefined;
  const env = { ...getDefaultEnvironment(), ...config.env };
  return packageRunnerOf(config.command, config.args ?? [], {
    env,
    home: env['HOME'] || env['USERPROFILE'] || homedir(),
    platform: process.platform,
  });
}

/** `npx`, `/usr/local/bin/npx`, `C:\…\npx.cmd` → `npx`. */
function programName(command: string): string {
  return basename(win32.basename(command))
    .toLowerCase()
    .replace(/\.(cmd|exe|bat|ps1)$/, '');
}

/** Which runner, and the arguments after its subcommand (`npm exec` → what follows `exec`). */
function runnerAndRest(
  program: string,
  args: readonly string[],
): { runner: RunnerName; rest: readonly string[] } | undefined {
  const sub = firstPositional(args);
  const after = sub === undefined ? [] : args.slice(args.indexOf(sub) + 1);
  switch (program) {
    case 'npx':
      return { runner: 'npx', rest: args };
    case 'npm':
      return sub === 'exec' || sub === 'x' ? { runner: 'npm exec', rest: after } : undefined;
    case 'pnpx':
      return { runner: 'pnpm dlx', rest: args };
    case 'pnpm':
      return sub === 'dlx' ? { runner: 'pnpm dlx', rest: after } : undefined;
    case 'bunx':
      return { runner: 'bunx', rest: args };
    case 'bun':
      return sub === 'x' ? { runner: 'bunx', rest: after } : undefined;
    case 'uvx':
      return { runner: 'uvx', rest: args };
    case 'uv':
      return sub === 'tool' && after[0] === 'run' ? { runner: 'uvx', rest: after.slice(1) } : undefined;
    case 'yarn':
      return sub === 'dlx' ? { runner: 'yarn dlx', rest: after } : undefined;
    default:
      return undefined;
  }
}

/** The first argument that is neither an option nor an option's value. */
function firstPositional(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('-')) return arg;
    if (VALUE_OPTIONS.has(arg)) i++;
  }
  return undefined;
}

/** The package: a `--package`/`--from` option's value, else the first positional argument. */
function packageOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!PACKAGE_OPTIONS.has(name)) continue;
    return inline ?? args[i + 1];
  }
  return firstPositional(args);
}

/** A `--cache X` / `--cache=X` (npm) or `--cache-dir X` (uv) given on the command line. */
function cacheOption(args: readonly string[], option: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === option) return args[i + 1];
    if (arg.startsWith(`${option}=`)) return arg.slice(option.length + 1);
  }
  return undefined;
}

/**
 * Each runner's cache folder as the runner itself finds it: its own variable, else the platform
 * default. (A cache set only in a config file such as `~/.npmrc` is not read: such an install is
 * then judged by its output alone.)
 */
export function cacheDirOf(runner: RunnerName, args: readonly string[], context: RunnerContext): string | undefined {
  const { env, home, platform } = context;
  const path = platform === 'win32' ? win32.join : join;
  const localAppData = env['LOCALAPPDATA'] ?? path(home, 'AppData', 'Local');
  const xdgCache = env['XDG_CACHE_HOME'] || path(home, '.cache');
  switch (runner) {
    case 'npx':
    case 'npm exec':
      return (
        cacheOption(args, '--cache') ??
        env['npm_config_cache'] ??
        env['NPM_CONFIG_CACHE'] ??
        (platform === 'win32' ? path(localAppData, 'npm-cache') : path(home, '.npm'))
      );
    case 'uvx':
      return (
        cacheOption(args, '--cache-dir') ??
        env['UV_CACHE_DIR'] ??
        (platform === 'win32' ? path(localAppData, 'uv', 'cache') : path(xdgCache, 'uv'))
      );
    case 'bunx':
      return env['BUN_INSTALL_CACHE_DIR'] ?? path(env['BUN_INSTALL'] ?? path(home, '.bun'), 'install', 'cache');
    case 'pnpm dlx':
      if (platform === 'win32') return path(localAppData, 'pnpm-cache');
      return platform === 'darwin' ? path(home, 'Library', 'Caches', 'pnpm') : path(xdgCache, 'pnpm');
    case 'yarn dlx':
      return env['YARN_GLOBAL_FOLDER'] ?? path(home, '.yarn', 'berry');
  }
}
