/**
 * G10 — where pins live: a file in the state directory (owner-only, written through a rename,
 * state-dir.ts), or, for replicas, a Redis they share (gateway/redis/pins.ts). Both behind one
 * small interface: read the document, change it (the change is applied to the newest document,
 * so an approval made by `toolsearch tools approve` meanwhile is not overwritten), and hear of
 * changes other processes make (a gateway picks up an approval without a restart).
 */
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { emptyPins, type PinsDocument, parsePins } from '../trust/pins.js';
import { defaultStateDir, fileStamp, readStateFile, writeStateFile } from './state-dir.js';

export interface PinBackend {
  /** Where the pins are, for messages (a path, or `redis://host:port/db key`). */
  readonly display: string;
  read(): Promise<PinsDocument>;
  /** Apply `change` to the newest document and store the result; returns what was stored. */
  update(change: (doc: PinsDocument) => PinsDocument): Promise<PinsDocument>;
  /** `listener` runs when the stored document may have changed; returns the way to stop. */
  watch(listener: () => void): () => void;
}

export const PINS_FILE = 'tool-pins.json';
/** How often a gateway looks at the pins file for an approval (stat only). */
export const PIN_POLL_MS = 1_000;

export function defaultPinsPath(stateDir: string = defaultStateDir()): string {
  return join(stateDir, PINS_FILE);
}

/**
 * The pins file. Two writers (a gateway pinning a new tool, the CLI approving one) each read the
 * newest file before writing; the window between that read and the rename is small, and what a
 * lost write loses is re-derived at the next listing (a first-use pin) or reported (an approval
 * is then still shown as held).
 */
export class PinFile implements PinBackend {
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * G5: the document as this handle last read or wrote it, with the file's stamp then. While the
   * file keeps that stamp it is not read again: the pins of a 20,000-tool server are tens of
   * megabytes, and the watcher fires after every write of our own.
   */
  private known: { stamp: string; doc: PinsDocument } | undefined;

  constructor(readonly path: string = defaultPinsPath()) {}

  get display(): string {
    return this.path;
  }

  async read(): Promise<PinsDocument> {
    // Stamped before reading: a write in between leaves an older stamp, and the next read reads again.
    const stamp = await fileStamp(this.path);
    if (stamp !== undefined && this.known?.stamp === stamp) return this.known.doc;
    const doc = parsePins((await readStateFile<unknown>(this.path)) ?? emptyPins());
    this.known = stamp === undefined ? undefined : { stamp, doc };
    return doc;
  }

  update(change: (doc: PinsDocument) => PinsDocument): Promise<PinsDocument> {
    const run = this.queue.then(async () => {
      const current = await this.read();
      const next = change(current);
      if (next !== current) this.known = { stamp: await writeStateFile(this.path, next), doc: next };
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  watch(listener: () => void): () => void {
    const onStat = () => listener();
    watchFile(this.path, { interval: PIN_POLL_MS, persistent: false }, onStat);
    return () => unwatchFile(this.path, onStat);
  }
}
