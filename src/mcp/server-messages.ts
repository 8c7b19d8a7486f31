/**
 * G7 — how a server's settings appear in messages: values that came from `${VAR}` references are
 * shown as the reference, and commands and working directories as the config writes them.
 */
import { existsSync } from 'node:fs';
import { isStdioServer, type HubConfig, type ServerConfig } from './config.js';
import { redactSecrets } from './variables.js';
import { plural } from '../core/plural.js';
import { shellWord } from '../util/terminal-text.js';

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

/** G13: the whole command line as the config writes it (`npx -y @scope/server@1.2.3`), for "run it by hand". */
export function writtenCommandLine(config: HubConfig, name: string, server: ServerConfig): string {
  const written = config.unexpanded?.[name];
  const entry = written && isStdioServer(written) ? written : isStdioServer(server) ? server : undefined;
  if (!entry) return '';
  const words = [entry.command, ...(entry.args ?? [])].map((word) => redactConfigSecrets(config, word));
  return words.map(shellWord).join(' ');
}
