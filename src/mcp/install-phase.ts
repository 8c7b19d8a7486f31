/**
 * G13 — the hub's side of a first start through a package runner (npx, uvx, …): an attempt's
 * deadline with its install allowance (connect-deadline.ts), the `installing` state while the
 * runner has not handed over to the server, the reason an attempt failed (the meaningful stderr
 * line, a broken npx cache and its fix), and letting an install finish when the hub stops.
 */
import type { Catalog } from '../core/catalog.js';
import type { Logger } from '../util/log.js';
import { isStdioServer, type HubConfig } from './config.js';
import { ConnectDeadline, ConnectDeadlineError } from './connect-deadline.js';
import type { McpConnection } from './connection.js';
import { connectTimeoutOf, type HubOptions, installTimeoutOf } from './hub-options.js';
import { type ServerEntry, setEntryState } from './server-entry.js';
import { missingCwd, writtenCommand, writtenCommandLine } from './server-messages.js';
import { explainFailure, type FailureExplanation } from './server-state.js';

/** What the install phase needs of the hub. */
export interface InstallPhaseContext {
  readonly config: HubConfig;
  readonly options: HubOptions;
  readonly catalog: Catalog;
  readonly logger: Logger;
}

/** G1/G13: one attempt's time limits: the connect timeout, or a package runner's install allowance. */
export function attemptDeadline(
  entry: ServerEntry,
  context: InstallPhaseContext,
  onExpired: (error: ConnectDeadlineError) => void,
): ConnectDeadline {
  const { config, options, logger } = context;
  const timeoutMs = connectTimeoutOf(entry.config, config.toolSearch, options);
  const install =
    entry.runner !== undefined && isStdioServer(entry.config)
      ? {
          runner: entry.runner,
          totalMs: installTimeoutOf(entry.config, config.toolSearch, options),
          commandLine: writtenCommandLine(config, entry.name, entry.config),
        }
      : undefined;
  return new ConnectDeadline({
    timeoutMs,
    ...(install !== undefined && { install }),
    onExpired,
    onLongInstall: (ms) =>
      logger.info(
        `"${entry.name}" is still installing through ${install?.runner.runner} after ${seconds(ms)} (it may take up to ${seconds(install?.totalMs ?? 0)}: installTimeoutMs)`,
      ),
  });
}

/**
 * A server started through a package runner is `installing` until it writes its first byte. Only
 * on a first attempt or a reconnect after a drop: a failed server being retried stays `failed`
 * (with its reason) until it connects.
 */
export function markInstalling(entry: ServerEntry, deadline: ConnectDeadline, context: InstallPhaseContext): void {
  if (!deadline.isInstalling || entry.state !== 'connecting' || entry.runner === undefined) return;
  setEntryState(entry, 'installing');
  context.catalog.markPending(entry.name, { runner: entry.runner.runner, since: entry.since });
  context.logger.debug(`"${entry.name}": starting through ${entry.runner.runner}, which may install it first`);
}

/** The runner handed over to the server (its first byte): the install is over. */
export function markInstalled(entry: ServerEntry, connection: McpConnection, catalog: Catalog): void {
  if (entry.connection !== connection || entry.state !== 'installing') return;
  setEntryState(entry, 'connecting');
  catalog.markPending(entry.name);
}

/**
 * Why an attempt failed: the deadline's own words when it ran out of time (not the SIGTERM its
 * abort sent), else the process's exit and the stderr line that says what went wrong.
 */
export function attemptFailure(
  entry: ServerEntry,
  connection: McpConnection,
  message: string,
  abortReason: unknown,
  config: HubConfig,
): FailureExplanation {
  if (abortReason instanceof ConnectDeadlineError) return { reason: message, fix: abortReason.fix };
  const exit = connection.exitStatus?.();
  return explainFailure({
    message,
    ...(isStdioServer(entry.config) && {
      command: writtenCommand(config, entry.name, entry.config),
      commandLine: writtenCommandLine(config, entry.name, entry.config),
    }),
    ...missingCwd(config, entry.name, entry.config),
    ...(exit !== undefined && { exit }),
    stderr: entry.stderr.all,
  });
}

/** Why a connected server went away: its exit and stderr line when its process ended. */
export function dropFailure(entry: ServerEntry, connection: McpConnection, message: string): FailureExplanation {
  const exit = connection.exitStatus?.();
  return exit ? explainFailure({ message, exit, stderr: entry.stderr.all }) : { reason: message };
}

/**
 * A server a package runner is still installing is not killed when the hub stops (or the server
 * leaves the config): its process is let go to finish the install in the background, so the next
 * start finds a whole cache instead of a broken one. It exits once the install is done (its input
 * is closed); a stuck one ends on the runner's own network timeouts. The entry forgets the
 * connection: it is no longer the hub's to close or to end at exit.
 */
export function letInstallFinish(entry: ServerEntry, logger: Logger): void {
  if (entry.state !== 'installing' || !entry.connection?.detach) return;
  entry.connection.detach();
  entry.connection = undefined;
  logger.info(`"${entry.name}" is still installing: left to finish its install in the background`);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
