/**
 * A tiny leveled logger that writes to stderr only: in stdio mode stdout carries JSON-RPC.
 */
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export const LOG_LEVELS: readonly LogLevel[] = ['silent', 'error', 'warn', 'info', 'debug'];

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export function createStderrLogger(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (threshold: LogLevel, tag: string) => (message: string) => {
    if (rank >= LOG_LEVELS.indexOf(threshold)) write(`[toolsearch] ${tag} ${message}\n`);
  };
  return { error: at('error', 'error'), warn: at('warn', 'warn'), info: at('info', 'info'), debug: at('debug', 'debug') };
}

export const silentLogger: Logger = createStderrLogger('silent');
