/**
 * G13/H3 — why a server died, read from what it wrote to stderr. The last line is usually not it:
 * Node ends an uncaught error with its version (`Node.js v20.20.2`), after the stack frames and
 * the error object's dump, and Python ends with the exception after a traceback. The reason is the
 * first line that says what went wrong (the thrown message, an `ERR_…` code, a missing module),
 * and a broken npx cache (a killed install leaves `_npx/<hash>/` without some of its packages) is
 * recognised so the error can name the exact folder to delete.
 *
 * Pure, over the lines an attempt kept (`StderrTail`, bounded).
 */

/** The last lines a server wrote to stderr in one attempt, bounded in lines and characters. */
export class StderrTail {
  private lines: string[] = [];
  private chars = 0;

  /** A Node crash with its stack, dump and footer is 20–40 lines; a long require stack adds some. */
  constructor(
    private readonly maxLines = 100,
    private readonly maxChars = 16 * 1024,
  ) {}

  add(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    while (this.lines.length > this.maxLines || (this.chars > this.maxChars && this.lines.length > 1))
      this.chars -= this.lines.shift()!.length;
  }

  get all(): readonly string[] {
    return this.lines;
  }

  get last(): string | undefined {
    return this.lines.at(-1);
  }
}

/** Characters of the reason kept (a minified bundle's error line can be one huge line). */
const REASON_CHARS = 300;

/** Lines that never explain a failure: Node's footer, stack frames, dumps, npm's log pointers. */
const NOISE: readonly RegExp[] = [
  /^\s*$/,
  /^Node\.js v\d+\.\d+\.\d+\s*$/, // Node's version footer, printed after every uncaught error
  /^\s+at\s/, // a JavaScript stack frame
  /^\s*\^+\s*$/, // the caret under the source line
  /^\s*[{}[\]],?\s*$/, // an error object's dump: braces
  /^\s+[\w$]+: /, // … and its fields (code: 'ERR_…', requireStack: […])
  /^Require stack:\s*$/,
  /^- \S/, // a require stack entry
  /^Traceback \(most recent call last\):\s*$/,
  /^\s+File ".*", line \d+/, // a Python frame
  // npm's error block: its fields (code, syscall, path, errno) and log pointers, around the message
  /^npm (?:error|ERR!) (?:(?:code|syscall|path|errno) \S+\s*$|A complete log of this run|Log files were not written)/,
  /^npm (?:error|ERR!) \w+\s*$/,
  /^npm (?:error|ERR!)\s*$/,
  /^npm (?:warn|WARN|notice)\b/,
  /^\(Use `node --trace-/,
];

/** Lines that say what went wrong. */
const ERROR_LINE: readonly RegExp[] = [
  /^\s*(?:Uncaught\s+)?(?:[A-Za-z_$][\w.$]*)?(?:Error|Exception)\b(?:\s*\[[A-Z0-9_]+\])?:/, // Error: …, TypeError [ERR_X]: …, ModuleNotFoundError: …
  /\bERR_[A-Z0-9_]+\b/,
  /\bCannot find (?:module|package)\b/,
  /^(?:npm\s+)?(?:error|ERROR|ERR!|fatal|FATAL|panic)\b[:\s]/,
];

/**
 * Where an uncaught error was thrown, as Node prints it above the source line and its caret:
 * `node:internal/modules/esm/resolve:873`, `/app/index.js:12`, `[eval]:1`. The source line after
 * it is code (`throw new ERR_MODULE_NOT_FOUND(…)`), not the message.
 */
const THROWN_AT = /^(?:node:|file:\/\/|\/|[A-Za-z]:\\|\[eval\])\S*:\d+\s*$/;

function isNoise(line: string): boolean {
  return NOISE.some((pattern) => pattern.test(line));
}

/** The lines that may explain a failure: noise and Node's source excerpts left out. */
function candidates(lines: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (THROWN_AT.test(line))
      i++; // and the source line under it
    else if (!isNoise(line)) kept.push(line);
  }
  return kept;
}

function isErrorLine(line: string): boolean {
  return ERROR_LINE.some((pattern) => pattern.test(line));
}

/**
 * The line that explains a failure: the first error line (a thrown message, an `ERR_…` code, a
 * missing module, `error: …`), else the last line that is not noise; undefined when there is none.
 */
export function meaningfulErrorLine(lines: readonly string[]): string | undefined {
  const kept = candidates(lines);
  const found = kept.find(isErrorLine) ?? kept.at(-1);
  if (found === undefined) return undefined;
  const line = found.trim();
  return line.length <= REASON_CHARS ? line : `${line.slice(0, REASON_CHARS)}…`;
}

/**
 * Something missing: a module Node could not load (ESM and CommonJS messages), or a file npm
 * could not open (`ENOENT … _npx/<hash>/package.json`, a folder whose install was cut off early).
 */
const MISSING = /\bERR_MODULE_NOT_FOUND\b|\bMODULE_NOT_FOUND\b|\bCannot find (?:module|package)\b|\bENOENT\b/;

/**
 * An npx install folder, `…/_npx/<hash>`, in a path Node printed (POSIX or Windows). The path
 * must start where a word does: a folder with a space in it is not guessed at (a wrong folder in
 * an `rm -rf` is worse than none).
 */
const NPX_FOLDER = /(?<=^|[\s'"(])((?:[A-Za-z]:)?[\\/][^\s'"`]*?[\\/]_npx[\\/][0-9a-f]{6,})(?=[\\/'"`\s]|$)/;

export interface BrokenNpxCache {
  /** The package's install folder, `<npm cache>/_npx/<hash>`. */
  readonly folder: string;
  /** The command that deletes it (npx installs it again on the next start). */
  readonly clear: string;
}

/**
 * A broken npx cache: a module or file that cannot be found, inside an `_npx/<hash>/` folder. npx
 * runs what it finds there without checking it is whole, so such a folder fails every start
 * until it is deleted.
 */
export function brokenNpxCache(lines: readonly string[], platform: NodeJS.Platform): BrokenNpxCache | undefined {
  if (!lines.some((line) => MISSING.test(line))) return undefined;
  for (const line of lines) {
    const match = NPX_FOLDER.exec(withoutFileUrls(line));
    if (!match) continue;
    const folder = match[1]!;
    return { folder, clear: removeFolderCommand(folder, platform) };
  }
  return undefined;
}

/** `file:///home/u/x` → `/home/u/x`; `file:///C:/x` → `C:/x`. */
function withoutFileUrls(line: string): string {
  return line.replace(/file:\/\/(\/[A-Za-z]:)?/g, (_, drive: string | undefined) => drive?.slice(1) ?? '');
}

/** A command a user can paste: `rm -rf '/path'`, or on Windows `rmdir /s /q "C:\path"`. */
export function removeFolderCommand(folder: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return `rmdir /s /q "${folder.replaceAll('/', '\\')}"`;
  const quoted = /^[\w./~+@-]+$/.test(folder) ? folder : `'${folder.replaceAll("'", "'\\''")}'`;
  return `rm -rf ${quoted}`;
}
