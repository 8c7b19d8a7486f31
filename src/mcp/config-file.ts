/**
 * G5/G7 — reading the config file without letting the path decide how we block. A FIFO (or a
 * device) put at the config path made every read wait for a writer: the first reload after it
 * stalled, every later reload queued behind it, and SIGTERM's shutdown waited on it too. The file
 * is opened non-blocking and must be a regular file of at most `MAX_CONFIG_BYTES`.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** A config is a few KB; this is far past any real one. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** The path is not a regular file, or is too large: the reason, in words. */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function check(stats: { isFile(): boolean; size: number }, maxBytes = MAX_CONFIG_BYTES): void {
  if (!stats.isFile()) throw new ConfigFileError('not a regular file (a FIFO, device or directory is refused)');
  if (stats.size > maxBytes) throw new ConfigFileError(`larger than ${maxBytes} bytes`);
}

/** `maxBytes`: another bound for another kind of file (a client's config read by `import`). */
export async function readConfigText(path: string, maxBytes = MAX_CONFIG_BYTES): Promise<string> {
  const handle = await open(path, FLAGS);
  try {
    check(await handle.stat(), maxBytes);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

export function readConfigTextSync(path: string): string {
  const fd = openSync(path, FLAGS);
  try {
    check(fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
