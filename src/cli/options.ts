/** Shared option parsers for the CLI: bad values fail with the option named. */
import { InvalidArgumentError } from 'commander';

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}
