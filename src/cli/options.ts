/** Shared option parsers for the CLI: bad values fail with the option named. */
import { InvalidArgumentError, Option } from 'commander';
import { TOOL_LIST_MODES, type ToolListMode } from '../core/session-policy.js';

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}

/** Where `npm start` (`toolsearch demo`) serves, and where `toolsearch status` looks unless told. */
export const LOCAL_GATEWAY_ADDRESS = '127.0.0.1:8765';

/** E5: `--tool-list fixed|growing` (serve's session tool list; inspect's estimate). */
export function parseToolList(value: string): ToolListMode {
  const mode = TOOL_LIST_MODES.find((m) => m === value.trim().toLowerCase());
  if (!mode) throw new InvalidArgumentError(`expected "fixed" (the default) or "growing", got "${value}"`);
  return mode;
}

export interface InstallTimeoutFlag {
  /** G13: `--install-timeout-ms`. */
  installTimeoutMs?: number;
}

/** G13: `--install-timeout-ms` (serve, demo, doctor): a package runner's install allowance, over the config's. */
export function installTimeoutOption(): Option {
  return new Option(
    '--install-timeout-ms <ms>',
    "how long a package runner (npx, uvx, …) may take to install a server on its first start (default: the config's toolSearch.installTimeoutMs, else 300000)",
  ).argParser(parsePositiveInt);
}
