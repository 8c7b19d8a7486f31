/**
 * G13 — the MCP config files of the clients people move in from, and where each keeps its servers:
 *
 * | client | file | servers at |
 * |---|---|---|
 * | Claude Desktop | `claude_desktop_config.json` | `mcpServers` |
 * | Claude Code | `~/.claude.json` (user and local scopes) | `mcpServers`, and `projects["<dir>"].mcpServers` per project |
 * | Claude Code | `.mcp.json` (project scope) | `mcpServers` |
 * | Cursor | `~/.cursor/mcp.json`, `<project>/.cursor/mcp.json` | `mcpServers` |
 * | VS Code | `.vscode/mcp.json`, the profile's `mcp.json` | `servers` (and `inputs`) |
 * | VS Code | user `settings.json` | `mcp.servers` (and `mcp.inputs`) |
 *
 * The client is told by the file's name and folder, then by its shape; `kind` overrides both.
 * Every file is read as JSON with comments (VS Code and Cursor accept them; the others never
 * write any). Pure: the text comes in.
 */
import { basename, dirname, resolve } from 'node:path';
import { isRecord } from '../../util/records.js';
import { ClientConfigError } from './errors.js';
import { JsoncError, type ParsedJsonc, parseJsonc } from './jsonc.js';

export const CLIENT_KINDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** Whose file, for messages. */
export const CLIENT_LABELS: Record<ClientKind, string> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
};

/** One object of servers in the file. */
export interface ServersSection {
  /** Keys from the top of the file to the section: `["mcpServers"]`, `["projects", "/a", "mcpServers"]`. */
  readonly path: readonly string[];
  /** The entries as written (undefined when the section is not in the file yet). */
  readonly entries: Readonly<Record<string, unknown>> | undefined;
  /** The section where the gateway's own entry goes (one per file). */
  readonly primary: boolean;
}

/** A VS Code `inputs` entry: what the editor prompts for. */
export interface VsCodeInput {
  readonly id: string;
  readonly description?: string;
  readonly password?: boolean;
}

export interface ClientConfig {
  readonly kind: ClientKind;
  readonly file: string;
  readonly parsed: ParsedJsonc;
  readonly sections: readonly ServersSection[];
  /** The folder `${workspaceFolder}` means for a project's file; undefined for a user-wide file. */
  readonly workspace: string | undefined;
  readonly inputs: readonly VsCodeInput[];
}

export interface ReadClientOptions {
  /** The client, when the file's name does not say it. */
  readonly kind?: ClientKind;
  /** Claude Code's `~/.claude.json`: only this project's servers (besides the user-wide ones). */
  readonly project?: string;
  /** What `${workspaceFolder}` means in a user-wide file. */
  readonly workspace?: string;
  readonly home?: string;
}

/** The dotted form of a section path for messages: `projects["/a"].mcpServers`. */
export function sectionName(path: readonly string[]): string {
  return path
    .map((key, i) => (/^[A-Za-z_][\w]*$/.test(key) ? `${i > 0 ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`))
    .join('');
}

/** The client a file belongs to, by its name and folder, then its shape; undefined when neither says. */
export function clientOf(file: string, value: Record<string, unknown>): ClientKind | undefined {
  const name = basename(file);
  const folder = basename(dirname(resolve(file)));
  if (name === 'claude_desktop_config.json') return 'claude-desktop';
  if (name === '.claude.json' || name === '.mcp.json') return 'claude-code';
  if (name === 'mcp.json' && folder === '.cursor') return 'cursor';
  if (name === 'mcp.json' && folder === '.vscode') return 'vscode';
  if (isRecord(value['mcp']) && isRecord(value['mcp']['servers'])) return 'vscode';
  if ('servers' in value && !('mcpServers' in value)) return 'vscode';
  if ('mcpServers' in value) return name === 'mcp.json' ? 'cursor' : 'claude-desktop';
  return undefined;
}

const UNKNOWN =
  "not a client config toolsearch knows: expected Claude Desktop's claude_desktop_config.json, Claude Code's ~/.claude.json or .mcp.json, Cursor's mcp.json or VS Code's mcp.json or settings.json, with servers under mcpServers, servers or mcp.servers (--client names the client when the file name does not)";

export function readClientConfig(file: string, text: string, options: ReadClientOptions = {}): ClientConfig {
  let parsed: ParsedJsonc;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    throw new ClientConfigError(
      file,
      `not valid JSON (${error instanceof JsoncError ? error.message : String(error)})`,
    );
  }
  const value = parsed.value;
  if (!isRecord(value)) throw new ClientConfigError(file, `${UNKNOWN}; its top level is not an object`);
  const kind = options.kind ?? clientOf(file, value);
  if (kind === undefined) throw new ClientConfigError(file, UNKNOWN);
  const sections = sectionsOf(file, kind, value, options.project);
  return {
    kind,
    file,
    parsed,
    sections,
    workspace: options.workspace ?? projectFolder(file, kind, options.home),
    inputs: inputsOf(kind, value, sections[0]?.path),
  };
}

/** The sections of servers a client keeps in this file (the primary one first). */
function sectionsOf(
  file: string,
  kind: ClientKind,
  value: Record<string, unknown>,
  project?: string,
): ServersSection[] {
  const primaryPath =
    kind !== 'vscode'
      ? ['mcpServers']
      : isRecord(value['mcp']) && !('servers' in value)
        ? ['mcp', 'servers']
        : ['servers'];
  const sections: ServersSection[] = [
    { path: primaryPath, entries: entriesAt(file, value, primaryPath), primary: true },
  ];
  if (kind === 'claude-code' && isRecord(value['projects'])) {
    const only = project === undefined ? undefined : resolve(project);
    for (const [dir, settings] of Object.entries(value['projects'])) {
      if (only !== undefined && resolve(dir) !== only) continue;
      const path = ['projects', dir, 'mcpServers'];
      const entries = isRecord(settings) ? entriesAt(file, value, path) : undefined;
      if (entries && Object.keys(entries).length > 0) sections.push({ path, entries, primary: false });
    }
  }
  if (
    sections.every((section) => section.entries === undefined || Object.keys(section.entries).length === 0) &&
    !hasKey(value, primaryPath)
  )
    throw new ClientConfigError(file, `has no ${sectionName(primaryPath)}: no servers to import`);
  return sections;
}

function hasKey(value: Record<string, unknown>, path: readonly string[]): boolean {
  let at: unknown = value;
  for (const key of path) {
    if (!isRecord(at) || !(key in at)) return false;
    at = at[key];
  }
  return true;
}

function entriesAt(
  file: string,
  value: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> | undefined {
  let at: unknown = value;
  for (const key of path) {
    if (!isRecord(at) || !(key in at)) return undefined;
    at = at[key];
  }
  if (!isRecord(at)) throw new ClientConfigError(file, `${sectionName(path)} is not an object of servers`);
  return at;
}

/** The project folder of a project's file (`.mcp.json`, `<dir>/.vscode/mcp.json`, `<dir>/.cursor/mcp.json`). */
function projectFolder(file: string, kind: ClientKind, home?: string): string | undefined {
  const full = resolve(file);
  const name = basename(full);
  const folder = dirname(full);
  if (kind === 'claude-code' && name === '.mcp.json') return folder;
  if (
    (kind === 'cursor' || kind === 'vscode') &&
    name === 'mcp.json' &&
    ['.cursor', '.vscode'].includes(basename(folder))
  ) {
    const project = dirname(folder);
    // ~/.cursor/mcp.json is Cursor's user-wide file, not a project's.
    return home !== undefined && resolve(project) === resolve(home) ? undefined : project;
  }
  return undefined;
}

/** VS Code's `inputs` (beside `servers`, or `mcp.inputs` in settings). */
function inputsOf(
  kind: ClientKind,
  value: Record<string, unknown>,
  primary: readonly string[] | undefined,
): VsCodeInput[] {
  if (kind !== 'vscode' || primary === undefined) return [];
  const holder = primary.length > 1 ? value[primary[0]!] : value;
  const inputs = isRecord(holder) ? holder['inputs'] : undefined;
  if (!Array.isArray(inputs)) return [];
  return inputs.flatMap((input) =>
    isRecord(input) && typeof input['id'] === 'string'
      ? [
          {
            id: input['id'],
            ...(typeof input['description'] === 'string' && { description: input['description'] }),
            ...(input['password'] === true && { password: true }),
          },
        ]
      : [],
  );
}
