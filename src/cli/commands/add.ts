/**
 * G13 — `toolsearch add <name or search words>`: a server from the MCP Registry into the gateway's
 * servers file; `toolsearch remove <name>`: an entry out of it (remove.ts). The work is in
 * src/mcp/movein/add.ts; this file reads the flags and says what happened.
 *
 * Exit code: 0 written (or already there), 1 an error, 2 several servers matched (listed; nothing
 * written).
 */
import { Command, InvalidArgumentError } from 'commander';
import { plural } from '../../core/plural.js';
import { type AddReport, addFromRegistry } from '../../mcp/movein/add.js';
import { DEFAULT_REGISTRY, DEFAULT_REGISTRY_LIMITS } from '../../mcp/movein/registry-client.js';
import { type EntryInput, type Way, WAYS } from '../../mcp/movein/registry-entry.js';
import type { ServerResponse } from '../../mcp/movein/registry-schema.js';
import { defaultServersFile } from '../../mcp/movein/servers-file.js';
import { sanitizeLogText } from '../../util/log.js';
import { parsePositiveInt } from '../options.js';

/** `toolsearch add` exits 2 when several servers match and nothing was written. */
export const ADD_EXIT_SEVERAL = 2;

interface AddFlags {
  config?: string;
  registry: string;
  name?: string;
  use?: Way;
  set?: Record<string, string>;
  dryRun?: boolean;
  registryTimeout: number;
  registryMaxBytes: number;
}

type Write = (line: string) => void;

function parseWay(value: string): Way {
  const way = WAYS.find((w) => w === value.trim().toLowerCase());
  if (!way) throw new InvalidArgumentError(`expected one of ${WAYS.join(', ')}, got "${value}"`);
  return way;
}

function collectSet(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected NAME=value, got "${value}"`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

export function addCommand(): Command {
  return new Command('add')
    .description("add a server from the MCP Registry to the gateway's servers file")
    .argument('<query...>', 'its registry name (io.github.owner/server), or words of it')
    .option('-c, --config <file>', `the gateway's servers file, created if missing (default ${defaultServersFile()})`)
    .option('--registry <url>', 'the MCP Registry to ask', DEFAULT_REGISTRY)
    .option('--name <name>', 'its name in the servers file (default: the last part of its registry name)')
    .option('--use <way>', `how to run it when it offers several ways: ${WAYS.join(', ')}`, parseWay)
    .option('--set <NAME=value>', 'a value for one of its inputs, written into the entry (repeatable)', collectSet)
    .option('--dry-run', 'show the entry and write nothing')
    .option(
      '--registry-timeout <seconds>',
      'how long one registry request may take',
      parsePositiveInt,
      DEFAULT_REGISTRY_LIMITS.timeoutMs / 1000,
    )
    .option(
      '--registry-max-bytes <bytes>',
      'the largest registry answer read',
      parsePositiveInt,
      DEFAULT_REGISTRY_LIMITS.maxResponseBytes,
    )
    .addHelpText(
      'after',
      '\nExit code: 0 written (or already there), 1 an error, 2 several servers matched (nothing written).',
    )
    .action(async (query: string[], flags: AddFlags) => {
      const report = await addFromRegistry({
        query: query.join(' '),
        serversFile: flags.config ?? defaultServersFile(),
        registry: flags.registry,
        limits: {
          ...DEFAULT_REGISTRY_LIMITS,
          timeoutMs: flags.registryTimeout * 1000,
          maxResponseBytes: flags.registryMaxBytes,
        },
        ...(flags.name !== undefined && { name: flags.name }),
        ...(flags.use !== undefined && { use: flags.use }),
        values: flags.set ?? {},
        env: process.env,
        dryRun: flags.dryRun === true,
      });
      if (report.kind === 'several') process.exitCode = ADD_EXIT_SEVERAL;
      writeAddReport(report, { query: query.join(' '), registry: flags.registry, values: flags.set ?? {} }, (line) =>
        process.stdout.write(`${line}\n`),
      );
    });
}

/** Text from the registry, safe for a terminal: control characters escaped, cut to `max`. */
function shown(text: string | undefined, max = 160): string {
  const safe = sanitizeLogText((text ?? '').trim());
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

function ways(item: ServerResponse): string {
  const kinds = [
    ...(item.server.packages ?? []).map((p) => p.registryType),
    ...((item.server.remotes ?? []).length > 0 ? ['remote'] : []),
  ];
  return [...new Set(kinds.map((k) => shown(k, 20)))].join(', ');
}

/** What was asked: the query, the registry, the --set values. */
interface Asked {
  readonly query: string;
  readonly registry: string;
  readonly values: Readonly<Record<string, string>>;
}

export function writeAddReport(report: AddReport, asked: Asked, write: Write): void {
  const { query, registry } = asked;
  if (report.kind === 'several') {
    const example = report.servers[0]!.server.name;
    write(
      `${plural(report.servers.length, 'server')} in the MCP Registry at ${registry} match "${shown(query)}"${report.truncated ? ' (more than were read)' : ''}; nothing was written.`,
    );
    write(`Pick one by its exact name, e.g. toolsearch add ${example}`);
    const width = Math.max(...report.servers.map((s) => s.server.name.length));
    report.servers.forEach((item, i) => {
      const version = shown(item.server.version, 24);
      write(
        `  ${String(i + 1).padStart(2)}. ${item.server.name.padEnd(width)}  ${version}  ${shown(item.server.title ?? item.server.description, 100)} (${ways(item)})`,
      );
    });
    return;
  }
  const { server, entry, name } = report;
  const verb = report.dryRun ? 'Would add' : 'Added';
  if (report.dryRun) write('Dry run: nothing is written.');
  if (report.kind === 'already-there') write(`"${name}" is in ${report.serversFile} already, with the same entry.`);
  else
    write(
      `${verb} "${name}" to ${report.serversFile}${report.created ? ' (a new file)' : ''}: ${server.server.name} ${shown(server.server.version, 24)}`,
    );
  if (server.server.description) write(`  ${shown(server.server.description)}`);
  write(`  runs ${shown(entry.via, 200)}`);
  write(`  ${secretsHidden(JSON.stringify({ [name]: entry.entry }), entry.inputs, asked.values)}`);
  for (const note of entry.notes) write(`  note: ${shown(note, 200)}`);
  writeInputs(entry.inputs, write);
  if (entry.others.length > 0) write(`Also offered: ${entry.others.join(', ')} (--use ${entry.others[0]}).`);
  if (report.skipped > 0)
    write(`(${plural(report.skipped, 'registry entry', 'registry entries')} of the wrong shape skipped.)`);
  if (report.kind === 'added' && !report.dryRun) {
    write(
      entry.entry['disabled'] === true
        ? `It is written disabled until its variables are set; then remove "disabled": true from its entry.`
        : 'A gateway serving this file starts it now; its tools are pinned when first listed ("toolsearch tools" shows them).',
    );
  }
}

/** The entry as shown: a secret given with --set is not echoed back to the terminal. */
function secretsHidden(text: string, inputs: readonly EntryInput[], values: Readonly<Record<string, string>>): string {
  let out = text;
  for (const input of inputs) {
    const value = values[input.name];
    if (input.secret && input.state === 'set' && value !== undefined && value.length >= 4)
      out = out.split(JSON.stringify(value).slice(1, -1)).join('<given with --set>');
  }
  return out;
}

const STATES: Record<EntryInput['state'], string> = {
  set: 'written as given with --set',
  environment: 'read from the environment (set here; the gateway needs it too)',
  missing: 'NOT SET here: set it where the gateway runs, or give it with --set',
  default: 'read from the environment, else its default',
  optional: 'optional, left out',
};

function writeInputs(inputs: readonly EntryInput[], write: Write): void {
  if (inputs.length === 0) return;
  write('Its inputs:');
  const width = Math.max(...inputs.map((input) => input.name.length));
  for (const input of inputs) {
    const about = [shown(input.where, 60), input.required ? 'required' : undefined, input.secret ? 'secret' : undefined]
      .filter(Boolean)
      .join(', ');
    const fallback = input.default !== undefined ? ` (default ${shown(input.default, 60)})` : '';
    write(
      `  ${shown(input.name, 60).padEnd(width)}  ${about}: ${shown(input.description, 120) || 'no description'}${fallback} — ${STATES[input.state]}`,
    );
  }
}
