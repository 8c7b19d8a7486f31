/**
 * `toolsearch serve`'s flags that need more than a type: an address, limits, the bearer token and
 * trusted proxies, each checked when parsed so a mistake stops serve with one line (G5).
 */
import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { InvalidLimitError, LIMIT_NAMES, resolveLimits, type LimitName } from '../../core/limits.js';
import { DEFAULT_HTTP_HOST } from '../../gateway/transports/http/server.js';
import { clientAddress } from '../../gateway/transports/http/client-address.js';
import { errorMessage } from '../../util/errors.js';

export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65535)
    throw new InvalidArgumentError(`expected HOST:PORT or PORT, e.g. 127.0.0.1:8765 (got "${value}")`);
  return { host: (match[1] ?? DEFAULT_HTTP_HOST).replace(/^\[|\]$/g, ''), port };
}

/** `--limit NAME=VALUE` (repeatable) into one object; names and values checked by `resolveLimits`. */
export function parseLimitOption(
  value: string,
  previous: Partial<Record<LimitName, number>> = {},
): Partial<Record<LimitName, number>> {
  const match = /^([A-Za-z]+)=(\d+)$/.exec(value.trim());
  if (!match)
    throw new InvalidArgumentError(`expected NAME=INTEGER, e.g. sessions=200; names: ${LIMIT_NAMES.join(', ')}`);
  const next = { ...previous, [match[1]!]: Number(match[2]) };
  try {
    resolveLimits({ values: next, source: '--limit' });
  } catch (error) {
    throw new InvalidArgumentError(error instanceof InvalidLimitError ? error.reason : String(error));
  }
  return next;
}

/**
 * G5: the bearer token, from `--token`, `--token-file` or TOOLSEARCH_TOKEN (in that order). A flag
 * value is visible to every user in the process list, so the file and the variable are preferred.
 */
export async function resolveToken(
  options: { readonly token?: string; readonly tokenFile?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new InvalidArgumentError('use --token or --token-file, not both');
  if (options.tokenFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.tokenFile, 'utf8');
    } catch (error) {
      throw new InvalidArgumentError(
        `--token-file ${options.tokenFile}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    const token = text.split(/\r?\n/)[0]!.trim();
    if (token === '') throw new InvalidArgumentError(`--token-file ${options.tokenFile}: the first line is empty`);
    return token;
  }
  const token = options.token ?? (env['TOOLSEARCH_TOKEN'] || undefined);
  if (token !== undefined && token.trim() === '') throw new InvalidArgumentError('the bearer token is empty');
  return token;
}

/**
 * G5, C15/G11: the tokens `serve` accepts: as `resolveToken`, except that every non-empty line of
 * `--token-file` is a token, one per client. The gateway tells their holders apart (learning
 * corroborates across them, code mode gives each its share); the first line is also what
 * `toolsearch status` reads.
 */
export async function resolveTokens(
  options: { readonly token?: string; readonly tokenFile?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | readonly string[] | undefined> {
  const first = await resolveToken(options, env);
  if (options.tokenFile === undefined) return first;
  const lines = (await readFile(options.tokenFile, 'utf8')).split(/\r?\n/).map((line) => line.trim());
  const tokens = [...new Set(lines.filter((line) => line !== ''))];
  return tokens.length > 1 ? tokens : first;
}

/** G5: `--trust-proxy a,b` (repeatable): each entry checked now, so a typo stops serve with one line. */
export function collectTrustedProxies(value: string, all: string[]): string[] {
  const entries = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  try {
    clientAddress(entries);
  } catch (error) {
    throw new InvalidArgumentError(errorMessage(error));
  }
  return [...all, ...entries];
}
