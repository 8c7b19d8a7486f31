#!/usr/bin/env node
/**
 * H1 — the `toolsearch` command. Each subcommand lives in its own file under ./commands and
 * registers itself here. Logs go to stderr: stdout belongs to results (and to JSON-RPC in
 * `serve`'s stdio mode).
 */
import { Command } from 'commander';
import { demoCommand } from './commands/demo.js';
import { statusCommand } from './commands/status.js';
import { authCommand } from './commands/auth.js';
import { registerInspectCommand } from './commands/inspect.js';
import { registerSearchCommand } from './commands/search.js';
import { registerLearnedCommand } from './commands/learned.js';
import { registerToolsCommand } from './commands/tools.js';
import { addLiveConfigToInspect, serveCommand } from './commands/serve.js';
import { importCommand } from './commands/import.js';
import { addCommand } from './commands/add.js';
import { removeCommand } from './commands/remove.js';
import { doctorCommand } from './commands/doctor.js';
import { errorMessage } from '../util/errors.js';
import { VERSION } from '../util/version.js';

const program = new Command()
  .name('toolsearch')
  .description('Deferred tool loading for LLM agents: search, inspect and serve tool catalogs.')
  .version(VERSION);

// Subcommands register here, one line each.
registerSearchCommand(program);
registerLearnedCommand(program);
registerToolsCommand(program);
addLiveConfigToInspect(registerInspectCommand(program));
program.addCommand(serveCommand());
program.addCommand(demoCommand());
program.addCommand(statusCommand());
program.addCommand(authCommand());
program.addCommand(importCommand());
program.addCommand(addCommand());
program.addCommand(removeCommand());
program.addCommand(doctorCommand());

// H4: a failed command prints one line and exits non-zero at once, whatever handles are still
// open (the 'exit' hooks stop any spawned server).
program.parseAsync(process.argv).catch((error: unknown) => {
  const message = errorMessage(error);
  process.stderr.write(`toolsearch: ${message.split('\n')[0]}\n`);
  process.exit(1);
});
