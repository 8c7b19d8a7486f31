/**
 * G13 — the gateway's servers file as `import`, `add` and `remove` change it: entries go into its
 * servers section (`mcpServers`, or VS Code's `servers` when that is the one it has) and come out
 * of it; everything else in the file stays byte for byte (json-edit.ts).
 *
 * Each change is read → edit → check → write, and the write is atomic and refuses to overwrite a
 * change another program made meanwhile (atomic-file.ts). Such a change is retried from a fresh
 * read (the edit runs again, so a name clash the other program created is still caught), and
 * after `MAX_ATTEMPTS` the command stops with one line. The result is checked with the gateway's
 * own validation before it is written: the file is never left in a state a reload refuses.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '../../util/records.js';
import { ConfigFileError } from '../config-file.js';
import { type FileSnapshot, readSnapshot, replaceFile } from './atomic-file.js';
import { ConcurrentChangeError, ServersFileError } from './errors.js';
import { deleteMember, insertMembers, setAt } from './json-edit.js';
import { JsoncError, nodeAt, parseJsonc } from './jsonc.js';
import { configProblem } from './validate.js';

/** Tries of read → edit → write before a file that keeps changing is given up on. */
export const MAX_ATTEMPTS = 3;

/** Where `import`, `add` and `remove` write unless told: `$XDG_CONFIG_HOME/toolsearch/servers.json`, else `~/.config/…`. */
export function defaultServersFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'toolsearch', 'servers.json');
}

/** The servers file as read: its snapshot, and its servers by name (as written, `${VAR}` unexpanded). */
export interface ServersFile {
  readonly snapshot: FileSnapshot;
  readonly exists: boolean;
  /** The section servers live in: `mcpServers`, or `servers` when only that one is there. */
  readonly section: 'mcpServers' | 'servers';
  readonly servers: Readonly<Record<string, unknown>>;
}

export async function readServersFile(path: string): Promise<ServersFile> {
  let snapshot: FileSnapshot;
  try {
    snapshot = await readSnapshot(path);
  } catch (error) {
    const reason =
      error instanceof ConfigFileError ? error.reason : ((error as NodeJS.ErrnoException).code ?? String(error));
    throw new ServersFileError(path, `cannot read the servers file (${reason}); nothing was written`);
  }
  if (snapshot.text === undefined || snapshot.text.trim() === '')
    return { snapshot, exists: snapshot.text !== undefined, section: 'mcpServers', servers: {} };
  let value: unknown;
  try {
    // The gateway reads this file with JSON.parse: no comments, no trailing commas.
    value = parseJsonc(snapshot.text, { comments: false }).value;
  } catch (error) {
    const where = error instanceof JsoncError ? error.message : String(error);
    throw new ServersFileError(path, `not valid JSON (${where}); fix it first, nothing was written`);
  }
  if (!isRecord(value))
    throw new ServersFileError(path, 'expected a JSON object ({"mcpServers": {…}}); nothing was written');
  const problem = configProblem(value, path);
  if (problem)
    throw new ServersFileError(
      path,
      `the gateway would refuse it as it is (${problem}); fix it first, nothing was written`,
    );
  const section = !('mcpServers' in value) && 'servers' in value ? 'servers' : 'mcpServers';
  const servers =
    isRecord(value['mcpServers']) || isRecord(value['servers'])
      ? { ...(value['servers'] as object), ...(value['mcpServers'] as object) }
      : {};
  return { snapshot, exists: true, section, servers };
}

/** The file's text with `entries` added to its servers section (created with the file when missing). */
export function withServers(file: ServersFile, entries: readonly (readonly [string, unknown])[]): string {
  const text = file.snapshot.text;
  if (text === undefined || text.trim() === '')
    return `${JSON.stringify({ mcpServers: Object.fromEntries(entries) }, null, 2)}\n`;
  const section = nodeAt(parseJsonc(text).root, [file.section]);
  if (section?.kind === 'object') return insertMembers(text, section, entries);
  return setAt(text, [file.section], Object.fromEntries(entries));
}

/** The file's text without the server `name` (in either section). */
export function withoutServer(file: ServersFile, name: string): string {
  return deleteMember(deleteMember(file.snapshot.text ?? '', ['mcpServers'], name), ['servers'], name);
}

/**
 * Read the file, let `edit` decide the new text (it may throw: a clash, an unknown name), check
 * it, and write it atomically; a concurrent change starts over from a fresh read. Returns what
 * `edit` returned besides the text. `edit` returning undefined text writes nothing.
 */
export async function updateServersFile<T>(
  path: string,
  edit: (
    file: ServersFile,
  ) => Promise<{ text: string | undefined; result: T }> | { text: string | undefined; result: T },
): Promise<T & { file: ServersFile }> {
  for (let attempt = 1; ; attempt++) {
    const file = await readServersFile(path);
    const { text, result } = await edit(file);
    if (text === undefined) return { ...result, file };
    const problem = configProblem(JSON.parse(text), file.snapshot.path);
    if (problem)
      throw new ServersFileError(
        path,
        `the change would make a file the gateway refuses (${problem}); nothing was written`,
      );
    try {
      await replaceFile(file.snapshot, text, attempt);
      return { ...result, file };
    } catch (error) {
      if (!(error instanceof ConcurrentChangeError) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
