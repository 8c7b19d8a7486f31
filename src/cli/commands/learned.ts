/**
 * C13 — `toolsearch learned show [--tool T]` and `toolsearch learned forget [--tool T | --all]`:
 * what searches learned from use, and how to correct it. Reads (and for `forget` rewrites,
 * atomically) the store file a gateway keeps, or with `--session-store` the replicas' Redis stream
 * (a forget there is one more change every replica reads). A running gateway notices the new file within its
 * poll interval (2 s), takes it and re-applies only its own newer recordings on top, so a forget
 * sticks without a restart.
 */
import type { Command } from 'commander';
import { connectRedisBackend } from '../../gateway/redis/backend.js';
import { SESSION_STORE_ENV, sessionStoreFrom } from '../../gateway/redis/store-url.js';
import { LearnedFileStore } from '../../usage/file-store.js';
import { Learner, learnedSummary } from '../../usage/learner.js';
import { defaultLearnedPath } from '../../usage/paths.js';
import { DEFAULT_LEARNED_LIMITS } from '../../search/learned/log.js';
import { createStderrLogger } from '../../util/log.js';
import { plural } from '../../core/plural.js';

interface LearnedOptions {
  file?: string;
  /** The replicas' shared Redis (`serve --session-store`): their learned stream instead of a file. */
  sessionStore?: string;
  tool?: string;
  all?: boolean;
  json?: boolean;
}

/** The store the options name, opened and read; `close` writes what changed. */
async function openLearned(
  options: LearnedOptions,
): Promise<{ learner: Learner; where: string; close(): Promise<void> }> {
  const logger = createStderrLogger('warn');
  // --file names the file: the environment's store does not override it.
  const url = options.file === undefined ? sessionStoreFrom(options.sessionStore) : options.sessionStore;
  if (url !== undefined) {
    const redis = await connectRedisBackend(url, { logger });
    const store = redis.learnedStore(DEFAULT_LEARNED_LIMITS.total * 4);
    const learner = new Learner({ store, pollMs: 0, logger });
    await learner.ready;
    const close = async () => {
      await learner.close();
      await redis.close();
    };
    return { learner, where: store.display, close };
  }
  const store = new LearnedFileStore(options.file ?? defaultLearnedPath(), logger);
  const learner = new Learner({ store, pollMs: 0, logger });
  return { learner, where: store.path, close: () => learner.close() };
}

export async function runLearnedShow(options: LearnedOptions, write: (line: string) => void): Promise<void> {
  const { learner, where, close } = await openLearned(options);
  const rows = learnedSummary(learner.log, { ...(options.tool !== undefined && { tool: options.tool }), terms: true });
  await close();
  if (options.json) {
    for (const row of rows) write(JSON.stringify(row));
    return;
  }
  if (rows.length === 0) {
    write(
      options.tool !== undefined
        ? `Nothing learned for ${options.tool} (${where}).`
        : `Nothing learned yet (${where}).`,
    );
    return;
  }
  write(`Learned from use (${where}):`);
  for (const row of rows) {
    const when = new Date(row.last).toISOString().slice(0, 16).replace('T', ' ');
    write(`  ${row.tool}: ${row.searches} search(es), ${row.entries} distinct, last ${when} UTC`);
    if (row.terms && row.terms.length > 0) write(`      terms: ${row.terms.join(', ')}`);
    write(
      row.lifting && row.lifting.length > 0
        ? `      lifts it: ${row.lifting.join(', ')}`
        : '      lifts it: nothing yet for a shared gateway (a word lifts once two clients used it for this tool; a gateway only one client reaches lifts its words at once)',
    );
  }
}

/**
 * Marked even when nothing is there yet: a running gateway's unsaved recordings of the tool (made
 * before now) are dropped too when it next reads the store.
 */
export async function runLearnedForget(options: LearnedOptions, write: (line: string) => void): Promise<void> {
  if ((options.tool === undefined) === (options.all !== true))
    throw new Error('Say what to forget: --tool NAME or --all.');
  const { learner, where, close } = await openLearned(options);
  const count = learner.forget(options.tool);
  await close();
  if (options.all) write(`Forgot what ${plural(count, 'tool')} learned (${where}).`);
  else write(count > 0 ? `Forgot what ${options.tool} learned.` : `Nothing learned for ${options.tool}.`);
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
    .option('--session-store <url>', `the replicas' shared Redis instead (or ${SESSION_STORE_ENV})`)
    .option('--json', 'one JSON line per tool')
    .action((options: LearnedOptions) => runLearnedShow(options, out));
  learned
    .command('forget')
    .description('drop learned evidence of one tool, or all of it')
    .option('--tool <name>', 'the tool (model-facing name)')
    .option('--all', 'everything')
    .option('--file <file>', `the store (default ${defaultLearnedPath()})`)
    .option('--session-store <url>', `the replicas' shared Redis instead (or ${SESSION_STORE_ENV})`)
    .action((options: LearnedOptions) => runLearnedForget(options, out));
}
