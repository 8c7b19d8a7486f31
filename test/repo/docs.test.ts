/**
 * The docs stay true (issue 29): the README is a front page (short, its two commands first), every
 * relative link in README.md and docs/ reaches a file (and a heading, for `#anchor`), every
 * `--flag` written after a `toolsearch <command>` exists on that command, docs/cli.md names every
 * flag the CLI has, and requirement codes stay in docs/requirements.md. The CLI is read from the
 * commander program src/cli/main.ts builds, so the test follows whatever it registers.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CodeSegment, type MarkdownFile, readMarkdown } from './markdown.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

const README_MAX_LINES = 300;
const FIRST_LINES = 60;
const REQUIREMENT_CODE = /\b[A-H]\d{1,2}\b/g;
const LONG_FLAG = /(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9](?![\w*-])/g;
/** `toolsearch <word> [<word>]`, or the same through `dist/cli/main.js`; not `…/toolsearch` in a path. */
const INVOCATION = /(?:^|[\s(=])(?:toolsearch|main\.js)\s+([a-z]+)(?:\s+([a-z]+))?/g;
/** Where a command line ends inside a code segment: a shell comment, a pipe, `&&`, `;`. */
const COMMAND_END = /\s#\s|\s\|\s|&&|;/;

const docFiles = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const parsed = new Map<string, MarkdownFile>(
  docFiles.map((file) => [file, readMarkdown(readFileSync(join(root, file), 'utf8'))]),
);

/** Every command path (`serve`, `auth login`, …) with the long flags its `--help` lists. */
type CliFlags = Map<string, Set<string>>;

/** The CLI as src/cli builds it (print-cli-flags.ts walks the commander program instead of parsing). */
async function readCli(): Promise<CliFlags> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/repo/print-cli-flags.ts'], {
    cwd: root,
    timeout: 120_000,
  });
  const entries = JSON.parse(stdout) as [string, string[]][];
  return new Map(entries.map(([path, flags]) => [path, new Set(flags)]));
}

/** The command path an invocation names, or undefined when the words are not a command. */
function commandOf(cli: CliFlags, first: string, second: string | undefined): string | undefined {
  if (second !== undefined && cli.has(`${first} ${second}`)) return `${first} ${second}`;
  return cli.has(first) ? first : undefined;
}

/** Flags valid for a command path: its own, its subcommands' (`auth --config`), and help/version. */
function validFlags(cli: CliFlags, command: string): Set<string> {
  const valid = new Set(['--help', '--version']);
  for (const [path, flags] of cli)
    if (path === command || path.startsWith(`${command} `)) for (const flag of flags) valid.add(flag);
  return valid;
}

interface FlagUse {
  readonly where: string;
  readonly command: string;
  readonly flag: string;
}

/** Flags written after `toolsearch <command>` in a code segment (quotes and JSON punctuation read as spaces). */
function invocationFlags(cli: CliFlags, segment: CodeSegment, where: string): FlagUse[] {
  const text = segment.text.replace(/["'[\]{},]/g, ' ');
  const uses: FlagUse[] = [];
  for (const match of text.matchAll(INVOCATION)) {
    const command = commandOf(cli, match[1]!, match[2]);
    if (command === undefined) continue;
    const rest = text.slice(match.index + match[0].length).split(COMMAND_END)[0]!;
    for (const flag of rest.match(LONG_FLAG) ?? []) uses.push({ where, command, flag });
  }
  return uses;
}

/**
 * Flags an inline span states on its own: `serve --http`, `auth --session-store URL` (a command
 * word first), or `--http <host:port>` under a `toolsearch <command>` heading (docs/cli.md).
 */
function spanFlags(cli: CliFlags, segment: CodeSegment, where: string): FlagUse[] {
  if (!segment.inline) return [];
  const words = segment.text.trim().split(/\s+/);
  let command = commandOf(cli, words[0]!, words[1]);
  if (command === undefined && /^(-\w, )?--/.test(segment.text)) {
    const heading = /^`?toolsearch ([a-z]+)(?: ([a-z]+))?`?$/.exec(segment.heading);
    command = heading ? commandOf(cli, heading[1]!, heading[2]) : undefined;
  }
  if (command === undefined) return [];
  return (segment.text.match(LONG_FLAG) ?? []).map((flag) => ({ where, command, flag }));
}

describe('the docs', () => {
  let cli: CliFlags;
  beforeAll(async () => {
    cli = await readCli();
  }, 120_000);

  it(`the README is a front page: at most ${README_MAX_LINES} lines, its two commands in the first ${FIRST_LINES}`, () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
    const first = lines.slice(0, FIRST_LINES).join('\n');
    expect(first).toMatch(/^npm ci && npm start\b/m);
    expect(first).toMatch(/^npm test\b/m);
  });

  it('every relative link reaches an existing file, and every #anchor a heading of it', () => {
    const broken: string[] = [];
    for (const [file, markdown] of parsed) {
      for (const { target, line } of markdown.links) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
        const where = `${file}:${line} → ${target}`;
        if (!existsSync(join(root, resolved))) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor === undefined || !resolved.endsWith('.md')) continue;
        const headings = parsed.get(resolved) ?? readMarkdown(readFileSync(join(root, resolved), 'utf8'));
        if (!headings.anchors.has(anchor)) broken.push(`${where}: no heading with that anchor in ${resolved}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every flag written after a toolsearch command exists on that command', () => {
    const unknown: string[] = [];
    let checked = 0;
    for (const [file, markdown] of parsed) {
      for (const segment of markdown.code) {
        const where = `${file}:${segment.line}`;
        for (const use of [...invocationFlags(cli, segment, where), ...spanFlags(cli, segment, where)]) {
          checked += 1;
          if (!validFlags(cli, use.command).has(use.flag))
            unknown.push(`${use.where}: toolsearch ${use.command} has no ${use.flag}`);
        }
      }
    }
    expect(unknown).toEqual([]);
    // The reader found the flags the docs write (a reader that found none would pass vacuously).
    expect(checked).toBeGreaterThan(100);
  });

  it('docs/cli.md names every command and every flag the CLI has', () => {
    const reference = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    const missing: string[] = [];
    for (const [command, flags] of cli) {
      if (command === '') continue;
      const top = command.split(' ')[0]!;
      if (!new RegExp(`^## toolsearch ${top}$`, 'm').test(reference)) missing.push(`## toolsearch ${top}`);
      for (const flag of flags)
        if (flag !== '--help' && !reference.includes(flag)) missing.push(`toolsearch ${command} ${flag}`);
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('no requirement code (C8, G5, …) outside docs/requirements.md: user-facing text speaks plainly', () => {
    const cited: string[] = [];
    for (const file of docFiles.filter((f) => f !== 'docs/requirements.md')) {
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const [code] of line.matchAll(REQUIREMENT_CODE)) cited.push(`${file}:${i + 1}: ${code}`);
        });
    }
    expect(cited).toEqual([]);
  });
});
