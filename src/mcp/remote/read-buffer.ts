/**
 * G5 — a stdio server's messages read in linear time. The SDK's own read buffer joins every
 * chunk onto everything held (`Buffer.concat`) and searches all of it for a newline again: a
 * message of N chunks costs N²/2 chunk copies. A 20,000-tool list is 2–3 MB (some 40 chunks of
 * 64 KB, about 50 MB copied and scanned per listing); a 10 MB line at `upstreamMessageBytes`
 * some 800 MB. Here chunks are kept as they came, each byte is searched once, and a line is
 * joined once, when its newline arrives. Same contract as the SDK's: the bound on bytes held
 * (past it the buffer is cleared and `append` throws, and the transport closes), lines that are
 * not JSON skipped, `\r\n` accepted.
 */
import { deserializeMessage } from '@modelcontextprotocol/client';

type Message = ReturnType<typeof deserializeMessage>;

const NEWLINE = 0x0a;

export class LinearReadBuffer {
  private chunks: Buffer[] = [];
  /** Bytes held over all chunks. */
  private held = 0;
  /** The first chunks, searched for a newline already (none there), and their bytes. */
  private searchedChunks = 0;
  private searchedBytes = 0;

  constructor(private readonly maxBytes: number) {}

  append(chunk: Buffer): void {
    if (this.held + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.chunks.push(chunk);
    this.held += chunk.length;
  }

  readMessage(): Message | null {
    for (let end = this.newline(); end >= 0; end = this.newline()) {
      const line = this.take(end).toString('utf8').replace(/\r$/, '');
      try {
        return deserializeMessage(line);
      } catch (error) {
        // As the SDK does: a line that is not JSON (garbage on stdout) is skipped.
        if (!(error instanceof SyntaxError)) throw error;
      }
    }
    return null;
  }

  clear(): void {
    this.chunks = [];
    this.held = 0;
    this.searchedChunks = 0;
    this.searchedBytes = 0;
  }

  /** Where the first newline is among the held bytes (searching the chunks not searched yet), or -1. */
  private newline(): number {
    for (; this.searchedChunks < this.chunks.length; this.searchedChunks++) {
      const chunk = this.chunks[this.searchedChunks]!;
      const found = chunk.indexOf(NEWLINE);
      if (found >= 0) return this.searchedBytes + found;
      this.searchedBytes += chunk.length;
    }
    return -1;
  }

  /** The held bytes before `end` (a newline's position), removed with the newline. */
  private take(end: number): Buffer {
    const parts: Buffer[] = [];
    let offset = 0;
    let index = 0;
    for (; index < this.chunks.length; index++) {
      const chunk = this.chunks[index]!;
      if (offset + chunk.length > end) {
        parts.push(chunk.subarray(0, end - offset));
        const rest = chunk.subarray(end - offset + 1);
        this.chunks = rest.length > 0 ? [rest, ...this.chunks.slice(index + 1)] : this.chunks.slice(index + 1);
        break;
      }
      parts.push(chunk);
      offset += chunk.length;
    }
    this.held -= end + 1;
    // What is left starts after the newline, in its chunk: not searched yet.
    this.searchedChunks = 0;
    this.searchedBytes = 0;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, end);
  }
}
