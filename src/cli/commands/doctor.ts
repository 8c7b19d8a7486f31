/**
 * G13 — `toolsearch doctor [--config F]`: start each server of a config once and say, one line per
 * server, whether it works: connected with its tool count, still installing (and for how long), or
 * failed with the real error and what to do about it. A first start through npx or uvx installs
 * the packages, so running doctor once before adding the gateway to a client also fills the caches.
 *
 * Exit code: 0 every server connected, 2 a server failed (or needs sign-in), 3 none failed but
 * some were still starting when `--timeout` ended (1: doctor itself could not run, a bad config).
 */
import { Command } from 'commander';
import { installingText } from '../../core/installing.js';
import { plural } from '../../core/plural.js';
import { defaultHubConfig } from '../../mcp/defaults.js';
import { readHubConfig } from '../../mcp/config.js';
import { McpHub } from '../../mcp/hub.js';
import type { ServerStatus } from '../../mcp/server-state.js';
import { createStderrLogger, sanitizeLogText, silentLogger } from '../../util/log.js';
import { logFilesystemRoot } from '../default-root.js';
import { installTimeoutOption, parsePositiveInt } from '../options.js';

export const DOCTOR_EXIT_FAILED = 2;
export const DOCTOR_EXIT_STILL_STARTING = 3;

interface DoctorOptions {
  config?: string;
  root?: string;
  installTimeoutMs?: number;
  /** Seconds to wait for the servers at most. */
  timeout?: number;
}

/** How often doctor looks at the servers, and says on stderr which it still waits for. */
const LOOK_MS = 250;
const WAITING_NOTE_MS = 30_000;
/** "No limit" for a timer (the largest delay Node keeps; the servers' own limits end it far sooner). */
const NO_LIMIT_MS = 2 ** 31 - 1;

export function doctorCommand(): Command {
  return new Command('doctor')
    .description(
      'Start each MCP server of a config once and say, one line per server, whether it works: connected with N tools, installing, or failed with the reason and the fix',
    )
    .option('-c, --config <file>', 'the servers file ({"mcpServers": …}); default: the bundled reference servers')
    .option('--root <dir>', 'folder of the bundled filesystem server (as serve --root)')
    .addOption(installTimeoutOption())
    .option(
      '--timeout <seconds>',
      'stop waiting after this long; servers still installing are left to finish in the background (default: wait for every server)',
      parsePositiveInt,
    )
    .action(async (options: DoctorOptions) => {
      process.exitCode = await runDoctor(options);
    });
}

export async function runDoctor(
  options: DoctorOptions,
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  const logger = createStderrLogger('warn');
  if (options.config === undefined) logFilesystemRoot(logger, options.root);
  const config =
    options.config !== undefined
      ? await readHubConfig(options.config)
      : defaultHubConfig({ ...(options.root !== undefined && { root: options.root }) });
  const hub = new McpHub(config, {
    reconnect: false,
    // Its failures are this command's lines; logged as well, each would be said twice.
    logger: silentLogger,
    ...(options.installTimeoutMs !== undefined && { installTimeoutMs: options.installTimeoutMs }),
  });
  const names = hub.servers();
  if (names.length === 0) {
    out(`no servers in ${config.source}\n`);
    return 0;
  }
  const installs = hub.status().some((s) => s.runner !== undefined)
    ? ' (those started through a package runner may install first, which can take minutes)'
    : '';
  process.stderr.write(`doctor: starting ${plural(names.length, 'server')} of ${config.source}${installs}\n`);
  hub.start();
  const reported = new Set<string>();
  const report = (status: ServerStatus) => {
    reported.add(status.server);
    out(`${doctorLine(status, Date.now())}\n`);
  };
  const finished = hub.settled(options.timeout !== undefined ? options.timeout * 1000 : NO_LIMIT_MS, {
    waitForInstalls: options.timeout === undefined,
  });
  let settled = false;
  void finished.then(() => (settled = true));
  let nextNote = Date.now() + WAITING_NOTE_MS;
  while (!settled) {
    for (const status of hub.status()) if (!reported.has(status.server) && isSettled(status)) report(status);
    if (Date.now() >= nextNote) {
      nextNote = Date.now() + WAITING_NOTE_MS;
      process.stderr.write(`doctor: still waiting for ${waitingFor(hub.status())}\n`);
    }
    await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, LOOK_MS))]);
  }
  const statuses = hub.status();
  for (const status of statuses) if (!reported.has(status.server)) report(status);
  await hub.close();
  out(`${summary(statuses)}\n`);
  return exitCode(statuses);
}

function isSettled(status: ServerStatus): boolean {
  return status.state !== 'connecting' && status.state !== 'installing';
}

/**
 * One server's line: `memory: connected, 9 tools`, `github: failed: … (fix: …)`, `slack:
 * installing through npx (2 min 10 s so far) …`. Every value is third-party text once it comes
 * from a server: control characters are escaped.
 */
export function doctorLine(status: ServerStatus, now: number): string {
  const name = `${status.server}:`;
  const runner = status.runner ?? 'a package runner';
  const line = ((): string => {
    switch (status.state) {
      case 'connected':
        return `connected, ${plural(status.tools, 'tool')}`;
      case 'installing':
        return `${installingText({ runner, since: status.since }, now)}; left to finish in the background: run doctor again later`;
      case 'connecting':
        return 'still connecting when doctor stopped waiting';
      case 'needs-sign-in':
        return `needs sign-in: ${status.lastError ?? ''}`;
      default: {
        const reason = status.lastError ?? status.state;
        const fix = status.fix !== undefined && !reason.includes(status.fix) ? ` (fix: ${status.fix})` : '';
        return `failed: ${reason}${fix}`;
      }
    }
  })();
  return sanitizeLogText(`${name} ${line}`);
}

function waitingFor(statuses: readonly ServerStatus[]): string {
  const now = Date.now();
  return statuses
    .filter((s) => !isSettled(s))
    .map((s) =>
      s.state === 'installing'
        ? `${s.server} (${installingText({ runner: s.runner ?? 'a package runner', since: s.since }, now)})`
        : `${s.server} (connecting)`,
    )
    .join(', ');
}

function summary(statuses: readonly ServerStatus[]): string {
  const connected = statuses.filter((s) => s.state === 'connected').length;
  const failed = statuses.filter(isFailed).length;
  const starting = statuses.length - connected - failed;
  const parts = [
    `${connected} of ${plural(statuses.length, 'server')} connected`,
    ...(failed > 0 ? [`${failed} failed`] : []),
    ...(starting > 0 ? [`${starting} still starting`] : []),
  ];
  return parts.join(', ');
}

function isFailed(status: ServerStatus): boolean {
  return status.state !== 'connected' && isSettled(status);
}

function exitCode(statuses: readonly ServerStatus[]): number {
  if (statuses.some(isFailed)) return DOCTOR_EXIT_FAILED;
  if (statuses.some((s) => !isSettled(s))) return DOCTOR_EXIT_STILL_STARTING;
  return 0;
}
