/**
 * G5 — the stdio read buffer that replaces the SDK's (whose copies grow with the square of a
 * line's chunks): the same messages whatever the chunking, lines that are not JSON skipped,
 * `\r\n` accepted, and past the bound on bytes held the buffer is cleared and `append` throws.
 */
import { describe, expect, it } from 'vitest';
import { LinearReadBuffer } from '../../src/mcp/remote/read-buffer.js';

const message = (id: number, size = 10) => ({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(size) } });
const wire = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

function drain(buffer: LinearReadBuffer): unknown[] {
  const out: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  return out;
}

describe('G5: stdio messages read in linear time', () => {
  it('G5: the same messages however the bytes are cut into chunks', () => {
    const messages = [message(1, 70_000), message(2), message(3, 200_000)];
    const bytes = wire(...messages.map((m) => JSON.stringify(m)));
    for (const size of [1, 7, 4_096, 65_536, bytes.length]) {
      const buffer = new LinearReadBuffer(10 * 1024 * 1024);
      const out: unknown[] = [];
      for (let at = 0; at < bytes.length; at += size) {
        buffer.append(bytes.subarray(at, at + size));
        out.push(...drain(buffer));
      }
      expect(out).toEqual(messages);
    }
  });

  it('G5: a line that is not JSON is skipped; \\r\\n is accepted; a partial line waits', () => {
    const buffer = new LinearReadBuffer(1024);
    buffer.append(Buffer.from(`not JSON at all\n${JSON.stringify(message(1))}\r\n{"jsonrpc":"2.0","id":2,`));
    expect(drain(buffer)).toEqual([message(1)]);
    buffer.append(Buffer.from('"result":{"text":"xxxxxxxxxx"}}\n'));
    expect(drain(buffer)).toEqual([message(2)]);
  });

  it('G5: past the bound on bytes held, append throws naming it and the buffer is emptied', () => {
    const buffer = new LinearReadBuffer(100);
    buffer.append(Buffer.alloc(60, 'a'));
    expect(() => buffer.append(Buffer.alloc(60, 'b'))).toThrow(/exceeded maximum size of 100 bytes/);
    buffer.append(wire(JSON.stringify(message(3))));
    expect(drain(buffer)).toEqual([message(3)]);
  });
});
