/**
 * G13 — how a client should start this toolsearch: Node by its absolute path and this package's
 * `dist/cli/main.js`. Desktop apps start servers without the user's shell PATH, so neither
 * `toolsearch` nor `node` may be found by name; absolute paths always are. The entry is also one
 * the gateway recognises as itself (self-reference.ts), so importing the same file again skips it.
 * Without a built `dist/` (a run from source) the command is `toolsearch`, as after a global install.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayLaunch } from '../mcp/movein/client-entry.js';

/** The folder of the package named toolsearch that holds this file, walking up. */
function packageRoot(from: string): string | undefined {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'toolsearch')
        return dir;
    } catch {
      // no package.json here (or not JSON): keep walking up
    }
  }
  return undefined;
}

export function gatewayLaunch(): GatewayLaunch {
  const root = packageRoot(realpathSync(fileURLToPath(import.meta.url)));
  const main = root === undefined ? undefined : join(root, 'dist', 'cli', 'main.js');
  if (main !== undefined && existsSync(main)) return { command: process.execPath, args: [main] };
  return { command: 'toolsearch', args: [] };
}
