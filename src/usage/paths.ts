/** C13 — where learned search evidence is kept by default: toolsearch's state directory. */
import { join, parse } from 'node:path';
import { defaultStateDir } from '../mcp/state-dir.js';

/** `learned-search.json` in `$TOOLSEARCH_STATE_DIR`, else `$XDG_STATE_HOME/toolsearch`, else `~/.local/state/toolsearch`. */
export function defaultLearnedPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultStateDir(env), 'learned-search.json');
}

/** G9: a profile learns on its own, in a file beside the gateway's (`learned-search.<profile>.json`). */
export function profileLearnedPath(path: string, profile: string): string {
  const { dir, name, ext } = parse(path);
  return join(dir, `${name}.${profile}${ext}`);
}
