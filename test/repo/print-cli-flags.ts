/**
 * Prints the `toolsearch` program's commands and their long flags as JSON, `[[path, flags], …]`,
 * read from the commander program src/cli/main.ts builds: parsing is replaced by this walk, so
 * nothing runs. Run by test/repo/docs.test.ts as `node --import tsx test/repo/print-cli-flags.ts`.
 */
import { Command } from 'commander';

type Entry = [path: string, flags: string[]];

function walk(command: Command, path: string[]): Entry[] {
  const flags = command.options.map((option) => option.long).filter((long): long is string => long !== undefined);
  return [[path.join(' '), flags], ...command.commands.flatMap((sub) => walk(sub, [...path, sub.name()]))];
}

function print(this: Command): Command {
  process.stdout.write(`${JSON.stringify(walk(this, []))}\n`);
  return this;
}

Command.prototype.parse = print;
Command.prototype.parseAsync = async function (this: Command) {
  return print.call(this);
};
await import('../../src/cli/main.js');
