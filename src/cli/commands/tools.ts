/**
 * G10 — `toolsearch tools`: what the trust gate pinned and what it holds, and why;
 * `toolsearch tools diff <server> [--tool NAME]`: the held text against the pinned one;
 * `toolsearch tools approve <server> [--tool NAME]`: pin what is held. Reads and writes the pins
 * file in the state directory, or with `--session-store` the replicas' Redis; a running gateway
 * notices an approval within a second and lets the tool in without a restart.
 */
import { plural } from '../../core/plural.js';
import type { Command } from 'commander';
import { connectRedisBackend } from '../../gateway/redis/backend.js';
import { SESSION_STORE_ENV, sessionStoreFrom } from '../../gateway/redis/store-url.js';
import { defaultPinsPath, type PinBackend, PinFile } from '../../mcp/pin-store.js';
import { definitionDiff } from '../../trust/diff.js';
import { shortHash } from '../../trust/definition.js';
import { approveCommand } from '../../trust/messages.js';
import { approve, type HoldReason, type PinRow, pinRows } from '../../trust/pins.js';
import { createStderrLogger } from '../../util/log.js';

interface ToolsOptions {
  file?: string;
  sessionStore?: string;
  tool?: string;
  json?: boolean;
}

type Write = (line: string) => void;

/** The pins the options name; `close` ends a Redis connection. */
async function openPins(options: ToolsOptions): Promise<{ pins: PinBackend; close(): Promise<void> }> {
  const url = options.file === undefined ? sessionStoreFrom(options.sessionStore) : options.sessionStore;
  if (url !== undefined) {
    const redis = await connectRedisBackend(url, { logger: createStderrLogger('warn') });
    return { pins: redis.pins, close: () => redis.close() };
  }
  return { pins: new PinFile(options.file ?? defaultPinsPath()), close: async () => undefined };
}

const REASONS: Record<HoldReason, string> = {
  changed: 'changed since it was pinned',
  'new-server': 'its server waits for approval',
  findings: 'the scanner found a problem',
};

export async function runToolsList(options: ToolsOptions, write: Write): Promise<void> {
  const { pins, close } = await openPins(options);
  const rows = pinRows(await pins.read());
  await close();
  if (options.json) {
    for (const row of rows) write(JSON.stringify(row));
    return;
  }
  if (rows.length === 0) return write(`No tool pinned yet (${pins.display}).`);
  const held = rows.filter((r) => r.state === 'held');
  write(`Tool pins (${pins.display}): ${rows.length - held.length} pinned, ${held.length} held.`);
  for (const row of rows) writeRow(row, write);
  if (held.length > 0)
    write(`Review with "toolsearch tools diff <server>", approve with "toolsearch tools approve <server>".`);
}

function writeRow(row: PinRow, write: Write): void {
  const when = row.since.slice(0, 16).replace('T', ' ');
  const state = row.state === 'held' ? `HELD (${REASONS[row.reason!]})` : 'pinned';
  write(`  ${row.server} / ${row.tool}: ${state}, ${shortHash(row.hash)}, since ${when} UTC`);
  for (const finding of row.findings) write(`      ${finding.severity}: ${finding.message}`);
}

export async function runToolsDiff(server: string, options: ToolsOptions, write: Write): Promise<void> {
  const { pins, close } = await openPins(options);
  const doc = await pins.read();
  await close();
  const record = doc.servers[server];
  const held = Object.entries(record?.tools ?? {}).filter(
    ([name, entry]) => entry.held && (options.tool === undefined || name === options.tool),
  );
  if (held.length === 0) {
    write(
      `Nothing held for ${options.tool === undefined ? `server "${server}"` : `"${options.tool}" of "${server}"`}.`,
    );
    return;
  }
  for (const [name, entry] of held) {
    write(`${server} / ${name}: ${REASONS[entry.held!.reason]} (- pinned, + held)`);
    for (const finding of entry.held!.findings) write(`  ${finding.severity}: ${finding.message}`);
    for (const line of definitionDiff(entry.pinned?.definition, entry.held!.definition)) write(`  ${line}`);
    write(`  approve: ${approveCommand(server, name)}`);
  }
}

export async function runToolsApprove(server: string, options: ToolsOptions, write: Write): Promise<void> {
  const { pins, close } = await openPins(options);
  let approved: readonly string[] = [];
  let known = true;
  try {
    await pins.update((doc) => {
      known = doc.servers[server] !== undefined;
      const result = approve(doc, server, options.tool, new Date().toISOString());
      approved = result.approved;
      return result.doc;
    });
  } finally {
    await close();
  }
  if (!known) throw new Error(`No pins for server "${server}" in ${pins.display}: see "toolsearch tools".`);
  if (approved.length === 0) {
    write(
      options.tool === undefined
        ? `Nothing held for server "${server}"; it no longer waits for approval.`
        : `Nothing held for "${options.tool}" of "${server}".`,
    );
    return;
  }
  write(
    `Approved ${plural(approved.length, 'tool')} of "${server}": ${approved.join(', ')}. A running gateway lets them in within a second.`,
  );
}

export function registerToolsCommand(program: Command): void {
  const out: Write = (line) => process.stdout.write(`${line}\n`);
  const where = (command: Command) =>
    command
      .option('--file <file>', `the pins file (default ${defaultPinsPath()})`)
      .option('--session-store <url>', `the replicas' shared Redis instead (or ${SESSION_STORE_ENV})`);
  const tools = where(
    program
      .command('tools')
      .description('pinned tool definitions, and the tools held until an operator approves them')
      .option('--json', 'one JSON line per tool'),
  ).action((options: ToolsOptions) => runToolsList(options, out));
  where(
    tools
      .command('diff <server>')
      .description("a held tool's definition against its pinned one, with the scanner's findings")
      .option('--tool <name>', "one tool (the server's own name)"),
  ).action((server: string, options: ToolsOptions) => runToolsDiff(server, { ...tools.opts(), ...options }, out));
  where(
    tools
      .command('approve <server>')
      .description('pin what is held for a server (all of it, or one tool); a running gateway lets it in')
      .option('--tool <name>', "one tool (the server's own name)"),
  ).action((server: string, options: ToolsOptions) =>
    // The parent's --file / --session-store, given after the subcommand, are parsed by the parent.
    runToolsApprove(server, { ...tools.opts(), ...options }, out),
  );
}
