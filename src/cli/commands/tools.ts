/**
 * G10 — `toolsearch tools [--held]`: what the trust gate pinned and what it holds, and why;
 * `toolsearch tools diff <server> [--tool NAME] [--full]`: the held text against the pinned one,
 * with the held text's hash; `toolsearch tools approve <server> [--tool NAME --hash H]`: pin what
 * is held (by hash: only the text that was reviewed). Reads and writes the pins file in the state
 * directory, or with `--session-store` the replicas' Redis; a running gateway notices an approval
 * within a second and lets the tool in without a restart.
 *
 * G5: names and texts come from servers; everything printed goes through `visibleText` (no
 * terminal escapes) and names in suggested commands are shell words.
 */
import { plural } from '../../core/plural.js';
import type { Command } from 'commander';
import { connectRedisBackend } from '../../gateway/redis/backend.js';
import { SESSION_STORE_ENV, sessionStoreFrom } from '../../gateway/redis/store-url.js';
import { defaultPinsPath, type PinBackend, PinFile } from '../../mcp/pin-store.js';
import { definitionLines } from '../../trust/diff.js';
import { shortHash } from '../../trust/definition.js';
import { heldToolView } from '../../trust/held-view.js';
import { approve, type HoldReason, type PinRow, pinRows } from '../../trust/pins.js';
import { createStderrLogger } from '../../util/log.js';
import { shellWord, visibleJson, visibleText } from '../../util/terminal-text.js';

interface ToolsOptions {
  file?: string;
  sessionStore?: string;
  tool?: string;
  json?: boolean;
  held?: boolean;
  hash?: string;
  full?: boolean;
}

type Write = (line: string) => void;

/** Every line this command prints of third-party text goes out with its controls written out. */
const safely =
  (write: Write): Write =>
  (line) =>
    write(visibleText(line));

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

export async function runToolsList(options: ToolsOptions, rawWrite: Write): Promise<void> {
  const write = safely(rawWrite);
  const { pins, close } = await openPins(options);
  let rows: PinRow[];
  try {
    rows = pinRows(await pins.read());
  } finally {
    await close();
  }
  const shown = options.held ? rows.filter((r) => r.state === 'held') : rows;
  if (options.json) {
    // JSON escapes the controls below U+0020 itself; `visibleJson` writes out the rest (C1, bidi, invisible) as \u escapes.
    for (const row of shown) rawWrite(visibleJson(JSON.stringify(row)));
    return;
  }
  const held = rows.filter((r) => r.state === 'held');
  if (options.held) {
    write(`${held.length === 0 ? 'No tool held' : `${held.length} held`} (${pins.display}).`);
  } else {
    if (rows.length === 0) return write(`No tool pinned yet (${pins.display}).`);
    write(`Tool pins (${pins.display}): ${rows.length - held.length} pinned, ${held.length} held.`);
  }
  for (const row of shown) writeRow(row, write);
  if (held.length > 0)
    write(`Review with "toolsearch tools diff <server>", which prints the command that approves what you read.`);
}

function writeRow(row: PinRow, write: Write): void {
  const when = row.since.slice(0, 16).replace('T', ' ');
  const state = row.state === 'held' ? `HELD (${REASONS[row.reason!]})` : 'pinned';
  write(`  ${shellWord(row.server)} / ${shellWord(row.tool)}: ${state}, ${shortHash(row.hash)}, since ${when} UTC`);
  for (const finding of row.findings) write(`      ${finding.severity}: ${finding.message}`);
}

export async function runToolsDiff(server: string, options: ToolsOptions, rawWrite: Write): Promise<void> {
  const write = safely(rawWrite);
  const { pins, close } = await openPins(options);
  let doc: Awaited<ReturnType<PinBackend['read']>>;
  try {
    doc = await pins.read();
  } finally {
    await close();
  }
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
    const view = heldToolView(server, name, entry);
    write(`${shellWord(server)} / ${shellWord(name)}: ${REASONS[view.reason]} (- pinned, + held)`);
    write(`  held text: ${view.hash}`);
    for (const finding of view.findings) write(`  ${finding}`);
    const lines = options.full ? definitionLines(entry.held!.definition).map((l) => `+ ${l}`) : view.diff;
    for (const line of lines) write(`  ${line}`);
    write(`  approve: ${view.approve}`);
  }
}

export async function runToolsApprove(server: string, options: ToolsOptions, rawWrite: Write): Promise<void> {
  const write = safely(rawWrite);
  const { pins, close } = await openPins(options);
  let result: ReturnType<typeof approve> | undefined;
  let known = true;
  try {
    await pins.update((doc) => {
      known = doc.servers[server] !== undefined;
      result = approve(doc, {
        server,
        now: new Date().toISOString(),
        ...(options.tool !== undefined && { tool: options.tool }),
        ...(options.hash !== undefined && { hash: options.hash }),
      });
      return result.doc;
    });
  } finally {
    await close();
  }
  if (!known) throw new Error(`No pins for server "${server}" in ${pins.display}: see "toolsearch tools".`);
  if (result!.refused.length > 0) throw new Error(visibleText(`Nothing approved: ${result!.refused.join('; ')}.`));
  const approved = result!.approved;
  if (approved.length === 0) {
    write(
      options.tool === undefined
        ? `Nothing held for server "${server}"; it no longer waits for approval.`
        : `Nothing held for "${options.tool}" of "${server}".`,
    );
    return;
  }
  write(`Approved ${plural(approved.length, 'tool')} of "${server}"; a running gateway lets them in within a second:`);
  for (const { tool, hash } of approved) write(`  ${shellWord(tool)}: pinned ${hash}`);
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
      .option('--held', 'only the held tools')
      .option('--json', 'one JSON line per tool'),
  ).action((options: ToolsOptions) => runToolsList(options, out));
  where(
    tools
      .command('diff <server>')
      .description(
        "a held tool's definition against its pinned one, with the scanner's findings, the held text's hash and the command that approves it",
      )
      .option('--tool <name>', "one tool (the server's own name)")
      .option('--full', 'the whole held definition instead of the (bounded) diff'),
  ).action((server: string, options: ToolsOptions) => runToolsDiff(server, { ...tools.opts(), ...options }, out));
  where(
    tools
      .command('approve <server>')
      .description('pin what is held for a server (all of it, or one tool); a running gateway lets it in')
      .option('--tool <name>', "one tool (the server's own name)")
      .option(
        '--hash <sha256:…>',
        'the held text you reviewed ("tools diff" prints it): refused if the held text changed since',
      ),
  ).action((server: string, options: ToolsOptions) =>
    // The parent's --file / --session-store, given after the subcommand, are parsed by the parent.
    runToolsApprove(server, { ...tools.opts(), ...options }, out),
  );
}
