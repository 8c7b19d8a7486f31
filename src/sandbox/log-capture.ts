/**
 * G11 — a script's `console` output, kept up to a byte cap: past it one note says how much was cut,
 * so a chatty script costs the context no more than the cap.
 */
import { plural } from '../core/plural.js';

const encoder = new TextEncoder();

export class LogCapture {
  private readonly kept: string[] = [];
  private bytes = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  add(line: string): void {
    const size = encoder.encode(line).byteLength + 1;
    if (this.dropped === 0 && this.bytes + size <= this.maxBytes) {
      this.kept.push(line);
      this.bytes += size;
    } else this.dropped += 1;
  }

  lines(): string[] {
    if (this.dropped === 0) return [...this.kept];
    return [
      ...this.kept,
      `… ${plural(this.dropped, 'more console line', 'more console lines')} cut at the ${this.maxBytes}-byte log limit (maxLogBytes)`,
    ];
  }
}
