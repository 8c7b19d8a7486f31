/**
 * G13 — `toolsearch import <client config>`: move a client's MCP servers into the gateway's
 * servers file and print (or, with `--write-client`, write) the one entry that replaces them.
 * The work is in src/mcp/movein/import.ts; this file reads the flags and says what happened.
 */
import { Command, InvalidArgumentError } from 'commander';
import { plural } from '../../core/plural.js';
import { isRecord } from '../../util/records.js';
import { CLIENT_KINDS, CLIENT_LABELS, type ClientKind } from '../../mcp/movein/client-config.js';
import { claudeCodeCommand, primarySectionName } from '../../mcp/movein/client-entry.js';
import type { NeededVariable } from '../../mcp/movein/client-entries.js';
import { DEFAULT_MAX_CLIENT_BYTES, type ImportReport, importClientConfig } from '../../mcp/movein/import.js';
import { defaultServersFile } from '../../mcp/movein/servers-file.js';
import { gatewayLaunch } from '../gateway-launch.js';
import { parsePositiveInt } from '../options.js';

interface ImportFlags {
  config?: string;
  client?: ClientKind;
  project?: string;
  workspace?: string;
  envToVars?: boolean;
  writeClient?: boolean;
  dryRun?: boolean;
  maxClientBytes: number;
}

type Write = (line: string) => void;

function parseClient(value: string): ClientKind {
  const kind = CLIENT_KINDS.find((k) => k === value.trim().toLowerCase());
  if (!kind) throw new InvalidArgumentError(`expected one of ${CLIENT_KINDS.join(', ')}, got "${value}"`);
  return kind;
}

export function importCommand(): Command {
  return new Command('import')
    .description(
      "move a client's MCP servers (Claude Desktop, Claude Code, Cursor, VS Code) into the gateway's servers file",
    )
    .argument('<client-config>', "the client's config file, e.g. ~/.cursor/mcp.json, .vscode/mcp.json, ~/.claude.json")
    .option('-c, --config <file>', `the gateway's servers file, created if missing (default ${defaultServersFile()})`)
    .option('--client <name>', `whose file it is when its name does not say: ${CLIENT_KINDS.join(', ')}`, parseClient)
    .option('--project <dir>', "Claude Code's ~/.claude.json: only this project's servers (and the user-wide ones)")
    .option('--workspace <dir>', `the folder \${workspaceFolder} means in a user-wide VS Code or Cursor file`)
    .option(
      '--env-to-vars',
      `move the values in env and headers into \${VAR} placeholders (listed: set them where the gateway runs)`,
    )
    .option('--write-client', "also rewrite the client's file to hold only the gateway (a backup is made beside it)")
    .option('--dry-run', 'show both changes and write nothing')
    .option('--max-client-bytes <bytes>', 'the largest client file read', parsePositiveInt, DEFAULT_MAX_CLIENT_BYTES)
    .addHelpText(
      'after',
      '\nServers already in the servers file with the same entry are left as they are; a different entry under the same name is an error naming both. The entry that runs toolsearch itself is not imported.',
    )
    .action(async (file: string, flags: ImportFlags) => {
      const report = await importClientConfig({
        clientFile: file,
        serversFile: flags.config ?? defaultServersFile(),
        launch: gatewayLaunch(),
        ...(flags.client !== undefined && { kind: flags.client }),
        ...(flags.project !== undefined && { project: flags.project }),
        ...(flags.workspace !== undefined && { workspace: flags.workspace }),
        envToVars: flags.envToVars === true,
        writeClient: flags.writeClient === true,
        dryRun: flags.dryRun === true,
        maxClientBytes: flags.maxClientBytes,
      });
      writeImportReport(report, (line) => process.stdout.write(`${line}\n`));
    });
}

export function writeImportReport(report: ImportReport, write: Write): void {
  const { client, conversion } = report;
  const label = CLIENT_LABELS[client.kind];
  const names = conversion.servers.map((server) => server.name);
  if (report.dryRun) write('Dry run: nothing is written.');
  write(
    `${client.file} (${label}): ${plural(names.length, 'server')} to move${names.length > 0 ? `: ${names.join(', ')}` : ''}.`,
  );
  for (const left of conversion.left)
    write(`  ${left.from} ${left.self ? 'is toolsearch itself' : "stays in the client's file"}: ${left.reason}`);
  for (const server of conversion.servers) for (const note of server.notes) write(`  ${server.from}: ${note}`);
  if (names.length === 0) {
    write('Nothing to import.');
    return;
  }
  writeServersChange(report, write);
  writeVariables(conversion.variables, write);
  writeClientChange(report, write);
}

function writeServersChange(report: ImportReport, write: Write): void {
  const verb = report.dryRun ? 'Would add' : 'Added';
  const where = `${report.serversFile}${report.serversFileExisted ? '' : ' (a new file)'}`;
  if (report.added.length > 0)
    write(`${verb} ${plural(report.added.length, 'server')} to ${where}: ${report.added.join(', ')}.`);
  if (report.alreadyThere.length > 0)
    write(`Already in ${report.serversFile} with the same entry: ${report.alreadyThere.join(', ')}.`);
  if (report.dryRun && report.added.length > 0) {
    const entries = Object.fromEntries(
      report.conversion.servers
        .filter((s) => report.added.includes(s.name))
        .map((s) => [s.name, withValuesHidden(s.entry)]),
    );
    write(JSON.stringify(entries, null, 2));
  }
  if (!report.dryRun && report.added.length > 0)
    write('A gateway already serving that file picks them up now; their tools are pinned when first listed.');
}

/** Values written in `env` and `headers` are secrets as often as not: a dry run shows where they go, not what they are. */
const HIDDEN = '<as written in the client file>';

function withValuesHidden(entry: Record<string, unknown>): Record<string, unknown> {
  const hide = (record: unknown) =>
    isRecord(record)
      ? Object.fromEntries(
          Object.entries(record).map(([key, value]) => [
            key,
            typeof value === 'string' && value !== '' && !value.includes('${') ? HIDDEN : value,
          ]),
        )
      : record;
  return {
    ...entry,
    ...(entry['env'] !== undefined && { env: hide(entry['env']) }),
    ...(entry['headers'] !== undefined && { headers: hide(entry['headers']) }),
  };
}

const SOURCES: Record<NeededVariable['source'], string> = {
  input: "passed on by the gateway's client entry below (the editor still prompts for it)",
  reference: 'the entry already read it from the environment',
  moved: 'its value was in the client file: set it where the gateway runs',
};

function writeVariables(variables: readonly NeededVariable[], write: Write): void {
  if (variables.length === 0) return;
  write('');
  write('The gateway reads these variables from its environment:');
  const width = Math.max(...variables.map((v) => v.name.length));
  for (const variable of variables) {
    const about = [variable.description, variable.secret ? 'secret' : undefined].filter(Boolean).join(', ');
    write(
      `  ${variable.name.padEnd(width)}  ${variable.from}${about ? ` (${about})` : ''}: ${SOURCES[variable.source]}`,
    );
  }
}

function writeClientChange(report: ImportReport, write: Write): void {
  const { client, gateway } = report;
  const section = primarySectionName(client);
  write('');
  if (report.clientWritten) {
    write(
      `Rewrote ${client.file}: its ${section} now starts the gateway ("${gateway.name}"); the rest of the file is as it was.`,
    );
    write(`Backup: ${report.backup}`);
    if (client.kind === 'claude-code')
      write('Claude Code rewrites this file while it runs: quit it before importing, or check the change stayed.');
    write(`Restart ${CLIENT_LABELS[client.kind]} (or reload its MCP servers) to start the gateway.`);
    return;
  }
  if (report.dryRun && report.backup !== undefined) {
    write(`Would rewrite ${client.file} (backup ${report.backup}), the servers part becoming:`);
  } else {
    write(`Replace ${section} in ${client.file} with this (or run again with --write-client):`);
  }
  write(JSON.stringify(report.snippet, null, 2));
  for (const section of report.sections.slice(1))
    write(`and ${section.path.join(' → ')} with ${JSON.stringify(section.value)}`);
  if (client.kind === 'claude-code' && client.file.endsWith('.claude.json'))
    write(`Or with Claude Code's own command: ${claudeCodeCommand(gateway.name, gateway.entry)}`);
}
