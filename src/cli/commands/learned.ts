/**
 * C13 — `toolsearch learned show [--tool T]` and `toolsearch learned forget [--tool T | --all]`:
 * what searches learned from use, and how to correct it. Reads (and for `forget` rewrites,
 * atomically) the store file a gateway keeps; a running gateway keeps its own copy in memory, so
 * forget while it is stopped (or restart it afterwards).
 */
import type { Command } from 'commander';
import { LearnedFileStore } from '../../learning/file-store.js';
import { learnedSummary } from '../../learning/learner.js';
import { defaultLearnedPath } from '../../learning/paths.js';
import { createStderrLogger } from '../../util/log.js';

interface LearnedOptions {
  file?: string;
  tool?: string;
  all?: boolean;
  json?: boolean;
}

function store(options: LearnedOptions): LearnedFileStore {
  return new LearnedFileStore(options.file ?? defaultLearnedPath(), createStderrLogger('warn'));
}

export function runLearnedShow(options: LearnedOptions, write: (line: string) => void): void {
  const file = store(options);
  const rows = learnedSummary(file.load(), { ...(options.tool !== undefined && { tool: options.tool }), terms: true });
  if (options.json) {
    for (const row of rows) write(JSON.stringify(row));
    return;
  }
  if (rows.length === 0) {
    write(
      options.tool !== undefined
        ? `Nothing learned for ${options.tool} (${file.path}).`
        : `Nothing learned yet (${file.path}).`,
    );
    return;
  }
  write(`Learned from use (${file.path}):`);
  for (const row of rows) {
    const when = new Date(row.last).toISOString().slice(0, 16).replace('T', ' ');
    write(`  ${row.tool}: ${row.searches} search(es), ${row.entries} distinct, last ${when} UTC`);
    if (row.terms && row.terms.length > 0) write(`      terms: ${row.terms.join(', ')}`);
  }
}

export function runLearnedForget(options: LearnedOptions, write: (line: string) => void): void {
  if ((options.tool === undefined) === (options.all !== true))
    throw new Error('Say what to forget: --tool NAME or --all.');
  const file = store(options);
  const log = file.load();
  if (options.all) {
    const count = log.toolNames().length;
    log.clear();
    file.save(log);
    write(`Forgot what ${count} tool(s) learned (${file.path}).`);
    return;
  }
  const forgotten = log.forget(options.tool!);
  if (forgotten) file.save(log);
  write(forgotten ? `Forgot what ${options.tool} learned.` : `Nothing learned for ${options.tool}.`);
}

export function registerLearnedCommand(program: Command): void {
  const learned = program
    .command('learned')
    .description('What searches learned from use (a search followed by a call), and forgetting it');
  const out = (line: string) => process.stdout.write(`${line}\n`);
  learned
    .command('show')
    .description('tools with learned evidence: how many searches led to each, when, and their main terms')
    .option('--tool <name>', 'one tool (model-facing name)')
    .option('--file <file>', `the store (default ${defaultLearnedPath()})`)
    .option('--json', 'one JSON line per tool')
    .action((options: LearnedOptions) => runLearnedShow(options, out));
  learned
    .command('forget')
    .description('drop learned evidence of one tool, or all of it')
    .option('--tool <name>', 'the tool (model-facing name)')
    .option('--all', 'everything')
    .option('--file <file>', `the store (default ${defaultLearnedPath()})`)
    .action((options: LearnedOptions) => runLearnedForget(options, out));
}
