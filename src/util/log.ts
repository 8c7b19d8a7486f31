/**
 * A tiny leveled logger that writes to stderr only: in stdio mode stdout carries JSON-RPC.
 *
 * G5: log lines carry third-party text (upstream names, stderr, error messages, URLs). Every line
 * goes through `sanitizeLogText`: control characters are escaped (a name with a newline cannot
 * forge a `[toolsearch] error …` line, ANSI escapes cannot clear the terminal) and credentials in
 * URLs and secret-looking query parameters are redacted.
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

/** ASCII and Latin-1 control characters, DEL, and Unicode line/paragraph separators and bidi overrides (they reorder what a terminal shows). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `scheme://user:password@host` → `scheme://[redacted]@host`. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** `?token=…`, `&api_key=…`, … (query parameters whose name says secret). */
const SECRET_QUERY =
  /([?&](?:[\w.-]*(?:token|secret|password|passwd|pwd|api[_-]?key|apikey|access[_-]?key|auth|sig|signature|credential|session)[\w.-]*|key|code)=)[^&\s#"']*/gi;

export function sanitizeLogText(text: string): string {
  return text
    .replace(URL_CREDENTIALS, '$1[redacted]@')
    .replace(SECRET_QUERY, '$1[redacted]')
    .replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function createStderrLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (threshold: LogLevel, tag: string) => (message: string) => {
    if (rank >= LOG_LEVELS.indexOf(threshold)) write(`[toolsearch] ${tag} ${sanitizeLogText(message)}\n`);
  };
  return {
    error: at('error', 'error'),
    warn: at('warn', 'warn'),
    info: at('info', 'info'),
    debug: at('debug', 'debug'),
  };
}

export const silentLogger: Logger = createStderrLogger('silent');
