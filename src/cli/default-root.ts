/**
 * G5 — `serve` without a config says which directory the bundled filesystem server may read and
 * write, or, when the current directory is too wide to be that root unasked, that it is not started
 * and how to give one.
 */
import { filesystemRoot } from '../mcp/defaults.js';
import type { Logger } from '../util/log.js';

export function logFilesystemRoot(logger: Logger, root: string | undefined): void {
  const { root: dir, refused } = filesystemRoot({ root });
  if (refused !== undefined) {
    logger.warn(
      `not starting the bundled filesystem server: ${refused}; give it a folder with --root <dir> (or start from that folder)`,
    );
    return;
  }
  const how = root === undefined ? ' (the current directory; --root <dir> to change it)' : '';
  logger.info(`bundled filesystem server root: ${dir}${how}`);
}
