/**
 * G13 — the one entry that replaces a client's servers: the gateway, started over stdio with the
 * servers file, written in that client's own format; and the client's file with its servers
 * part replaced by it (every other key, comment and layout of the file kept: json-edit.ts).
 *
 * Entries that stay in the client's file (ones the gateway cannot run) keep their place; the
 * entry that ran toolsearch before is replaced by the new one under its old name. In Claude
 * Code's `~/.claude.json` the gateway goes into the user-wide `mcpServers` and the imported
 * projects' sections are emptied: every project then reaches all the servers through it.
 */
import { type ClientConfig, type ClientKind, sectionName } from './client-config.js';
import type { Conversion } from './client-entries.js';
import { indentUnit, replaceNode, setAt } from './json-edit.js';
import { type JsonNode, nodeAt, parseJsonc } from './jsonc.js';
import { shellWord } from '../../util/terminal-text.js';

/** How to start this toolsearch: a program and the arguments before `serve`. */
export interface GatewayLaunch {
  readonly command: string;
  readonly args: readonly string[];
}

const TYPED: ReadonlySet<ClientKind> = new Set(['claude-code', 'vscode']);

/** The gateway's entry for a client: stdio, `serve --config <servers file>`, passing on what `forward` names. */
export function gatewayClientEntry(
  kind: ClientKind,
  launch: GatewayLaunch,
  serversFile: string,
  forward: Readonly<Record<string, string>>,
): Record<string, unknown> {
  return {
    // Claude Code and VS Code write the type of every entry; Claude Desktop and Cursor leave it out.
    ...(TYPED.has(kind) && { type: 'stdio' }),
    command: launch.command,
    args: [...launch.args, 'serve', '--config', serversFile],
    ...(Object.keys(forward).length > 0 && { env: { ...forward } }),
  };
}

/** The name the gateway's entry takes: the old toolsearch entry's, else `toolsearch` unless an entry that stays has it. */
export function gatewayEntryName(config: ClientConfig, conversion: Conversion): string {
  const primary = config.sections.find((section) => section.primary)!;
  const self = conversion.left.find((entry) => entry.self && entry.section === primary.path);
  if (self) return self.key;
  const staying = new Set(conversion.left.filter((entry) => entry.section === primary.path).map((entry) => entry.key));
  return staying.has('toolsearch') ? 'toolsearch-gateway' : 'toolsearch';
}

/** What to paste into the client's file: its servers part holding only the gateway (and what stays). */
export function clientSnippet(config: ClientConfig, sectionValue: Record<string, unknown>): unknown {
  const path = config.sections.find((section) => section.primary)!.path;
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), sectionValue);
}

/** Claude Code's own command for the same entry (user scope), for those who prefer it to editing the file. */
export function claudeCodeCommand(name: string, entry: Record<string, unknown>): string {
  const env = Object.entries((entry['env'] as Record<string, string> | undefined) ?? {}).map(
    ([key, value]) => `-e ${shellWord(`${key}=${value}`)} `,
  );
  const words = [entry['command'] as string, ...(entry['args'] as string[])].map(shellWord);
  return `claude mcp add --scope user ${env.join('')}${shellWord(name)} -- ${words.join(' ')}`;
}

/** One servers section of the client's file, as it becomes. */
export interface RewrittenSection {
  readonly path: readonly string[];
  readonly value: Record<string, unknown>;
}

/** Each servers section of the client's file as it becomes: what stays, and the gateway in the primary one. */
export function rewrittenSections(
  config: ClientConfig,
  conversion: Conversion,
  name: string,
  entry: Record<string, unknown>,
): RewrittenSection[] {
  return config.sections.map((section) => {
    const staying = new Set(
      conversion.left.filter((left) => left.section === section.path && !left.self).map((left) => left.key),
    );
    const members: [string, unknown][] = [];
    let placed = !section.primary;
    for (const [key, value] of Object.entries(section.entries ?? {})) {
      if (staying.has(key)) members.push([key, value]);
      else if (key === name && !placed) {
        members.push([name, entry]);
        placed = true;
      }
    }
    if (!placed) members.push([name, entry]);
    return { path: section.path, value: Object.fromEntries(members) };
  });
}

/**
 * The client's file with each servers section rewritten; everything outside them as it was. The
 * sections there are replaced from the last to the first in one pass over one parse (a Claude Code
 * file of tens of MB is read once, not once per project); a missing one is then added.
 */
export function rewriteClientText(text: string, sections: readonly RewrittenSection[]): string {
  const unit = indentUnit(text);
  const root = parseJsonc(text).root;
  const present = sections
    .map((section) => ({ section, node: nodeAt(root, section.path) }))
    .filter((found): found is { section: RewrittenSection; node: JsonNode } => found.node !== undefined)
    .sort((a, b) => b.node.start - a.node.start);
  let out = text;
  for (const { section, node } of present) out = replaceNode(out, node, section.value, unit);
  const missing = sections.filter((section) => nodeAt(root, section.path) === undefined);
  return missing.reduce((current, section) => setAt(current, section.path, section.value), out);
}

/** `mcpServers`, `servers`, `mcp.servers`: the primary section's name, for messages. */
export function primarySectionName(config: ClientConfig): string {
  return sectionName(config.sections.find((section) => section.primary)!.path);
}
