/**
 * G13 — `toolsearch remove <name>`: take a server out of the gateway's servers file (atomically,
 * the rest of the file as it was). A running gateway serving the file stops it on save.
 */
import { Command } from 'commander';
import { removeServer } from '../../mcp/movein/add.js';
import { defaultServersFile } from '../../mcp/movein/servers-file.js';

export function removeCommand(): Command {
  return new Command('remove')
    .description("take a server out of the gateway's servers file")
    .argument('<name>', 'its name in the servers file')
    .option('-c, --config <file>', `the gateway's servers file (default ${defaultServersFile()})`)
    .action(async (name: string, flags: { config?: string }) => {
      const file = flags.config ?? defaultServersFile();
      await removeServer(file, name);
      process.stdout.write(`Removed "${name}" from ${file}. A gateway serving that file stops it now.\n`);
    });
}
