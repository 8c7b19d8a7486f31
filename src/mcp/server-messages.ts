/**
 * G7 — how a server's settings appear in messages: values that came from `${VAR}` references are
 * shown as the reference, and commands and working directories as the config writes them.
 */
import { existsSync } from 'node:fs';
import { isStdioServer, type HubConfig, type ServerConfig } from './config.js';
import { redactSecrets } from './variables.js';
import { plural } from '../core/plural.js';
import { describeFailure } from './server-state.js';

/** The log line of a server that connected: `connected to "memory" (9 tools)`. */
export function connectedLine(name: string, tools: number): string {
  return `connected to "${name}" (${plural(tools, 'tool')})`;
}

/** Text with every expanded secret value put back as its `${VAR}` reference. */
export function redactConfigSecrets(config: HubConfig, text: string): string {
  return config.secrets ? redactSecrets(text, config.secrets) : text;
}

/** The command as the config writes it (`${TOOLS_HOME}/bin/x`). */
export function writtenCommand(config: HubConfig, name: string, server: ServerConfig): string {
  const written = config.unexpanded?.[name];
  return written && isStdioServer(written)
    ? written.command
    : redactConfigSecrets(config, isStdioServer(server) ? server.command : '');
}

/** G5: a configured cwd that does not exist, as written (never an expanded value). */
export function missingCwd(config: HubConfig, name: string, server: ServerConfig): { missingCwd?: string } {
  if (!isStdioServer(server) || server.cwd === undefined || existsSync(server.cwd)) return {};
  const written = config.unexpanded?.[name];
  const cwd = written && isStdioServer(written) && written.cwd !== undefined ? written.cwd : server.cwd;
  return { missingCwd: redactConfigSecrets(config, cwd) };
}

/**
 * Why a connection attempt failed, with what helps fix it: the command as the config writes it, a
 * missing working directory, how the process exited, its last stderr line.
 */
export function attemptFailure(
  config: HubConfig,
  server: { readonly name: string; readonly config: ServerConfig; readonly lastStderr?: string | undefined },
  message: string,
  exit: { code: number | null; signal: string | null } | undefined,
): string {
  return describeFailure({
    message,
    ...(isStdioServer(server.config) && { command: writtenCommand(config, server.name, server.config) }),
    ...missingCwd(config, server.name, server.config),
    ...(exit !== undefined && { exit }),
    ...(server.lastStderr !== undefined && { lastStderr: server.lastStderr }),
  });
}
