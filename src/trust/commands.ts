/**
 * G10 — the commands an operator is told to run for a held tool. Server and tool names come from
 * the config and from the server: in a command they are shell words (`shellWord`), so a name such
 * as `x$(touch f)` pasted into a shell stays a name.
 */
import { shellWord } from '../util/terminal-text.js';

/** The command that approves one held tool; with its hash, it approves only that text. */
export function approveCommand(server: string, tool: string, hash?: string): string {
  return `toolsearch tools approve ${shellWord(server)} --tool ${shellWord(tool)}${hash === undefined ? '' : ` --hash ${hash}`}`;
}

export function diffCommand(server: string, tool: string): string {
  return `toolsearch tools diff ${shellWord(server)} --tool ${shellWord(tool)}`;
}
