/** Shared option parsers for the CLI: bad values fail with the option named. */
import { InvalidArgumentError } from 'commander';

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}

/** Where `npm start` (`toolsearch demo`) serves, and where `toolsearch status` looks unless told. */
export const LOCAL_GATEWAY_ADDRESS = '127.0.0.1:8765';
