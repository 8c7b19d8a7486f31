/**
 * G5 — upstream stderr split into log lines with bounded memory and linear time, whatever the
 * server writes. Only the new chunk is searched for a newline (the old splitter re-scanned and
 * re-copied everything held: 100 MB without a newline took minutes of CPU and 1.5 GiB).
 */
export interface LineSplitterLimits {
  /** Bytes held while waiting for a newline; past it the held part is emitted cut and the rest of that line dropped. */
  readonly maxBufferBytes: number;
  /** Characters of one emitted line; longer lines are cut and marked. */
  readonly maxLineChars: number;
}

const NEWLINE = 0x0a;

/** Returns a function to feed chunks to; `onLine` gets each line (trimmed, empty ones skipped), cut to the limits. */
export function lineSplitter(
  onLine: (line: string) => void,
  limits: LineSplitterLimits,
): (chunk: Buffer | string) => void {
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** The current line passed the buffer bound: it was emitted cut, drop the rest up to its newline. */
  let dropping = false;

  const emit = (text: string, cut: boolean) => {
    const line = text.trimEnd();
    if (line.length === 0) return;
    if (!cut && line.length <= limits.maxLineChars) return onLine(line);
    onLine(`${line.slice(0, limits.maxLineChars)} … [line cut by toolsearch]`);
  };

  const flush = (): string => {
    const text = (held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes)).toString('utf8');
    held = [];
    heldBytes = 0;
    return text;
  };

  const hold = (part: Buffer) => {
    if (dropping || part.length === 0) return;
    const room = limits.maxBufferBytes - heldBytes;
    if (part.length < room) {
      held.push(part);
      heldBytes += part.length;
      return;
    }
    held.push(part.subarray(0, room));
    heldBytes += room;
    emit(flush(), true);
    dropping = true;
  };

  return (chunk) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE, start); newline >= 0; newline = bytes.indexOf(NEWLINE, start)) {
      hold(bytes.subarray(start, newline));
      if (dropping) dropping = false;
      else emit(flush(), false);
      start = newline + 1;
    }
    hold(bytes.subarray(start));
  };
}
