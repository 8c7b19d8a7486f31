/**
 * G13 — never write a servers file the gateway would refuse: a refused file stops every later
 * reload, not just the new entry. The check is the gateway's own (`parseHubConfig`), run before
 * writing; its variables are not the point here (they are set where the gateway runs, maybe not
 * where `import` or `add` runs), so every `${NAME}` counts as set, with a few stand-in values so a
 * reference that is a whole URL, a host or a port still makes a URL.
 */
import { parseHubConfig } from '../config.js';
import { errorMessage } from '../../util/errors.js';
import type { Environment } from '../variables.js';

/** Stand-ins tried in turn: a word, a whole URL, a port. */
const STAND_INS = ['x', 'http://x.invalid', '1'];

function everySet(value: string): Environment {
  return new Proxy({} as Record<string, string>, {
    get: (_target, key) => (typeof key === 'string' ? value : undefined),
  });
}

/** Why the gateway would refuse `config` (a whole servers-file value), or undefined when it would not. */
export function configProblem(config: unknown, source: string): string | undefined {
  let first: string | undefined;
  for (const value of STAND_INS) {
    try {
      parseHubConfig(config, source, everySet(value));
      return undefined;
    } catch (error) {
      first ??= errorMessage(error);
    }
  }
  return first;
}

/** Why the gateway would refuse this one entry under this name, or undefined. */
export function entryProblem(name: string, entry: unknown, source: string): string | undefined {
  return configProblem({ mcpServers: { [name]: entry } }, source);
}
