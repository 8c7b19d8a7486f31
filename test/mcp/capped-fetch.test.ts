import { describe, expect, it } from 'vitest';
import { cappedFetch, MessageTooLargeError } from '../../src/mcp/capped-fetch.js';

const stream = (chunks: string[], type: string) => async () =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    { headers: { 'content-type': type } },
  );

describe('G5 cappedFetch: bytes counted while reading', () => {
  it('G5: many small SSE events pass; the count restarts at each blank line (LF or CRLF)', async () => {
    const events = Array.from({ length: 50 }, (_, i) => `data: ${'x'.repeat(60)}${i}\r\n\r\n`);
    const exceeded: unknown[] = [];
    const fetch = cappedFetch('s', 100, (e) => exceeded.push(e), stream(events, 'text/event-stream'));
    expect((await (await fetch('http://x')).text()).length).toBeGreaterThan(3_000);
    expect(exceeded).toEqual([]);
  });

  it('G5: an SSE event that never ends fails once it passes the cap, across chunks', async () => {
    const exceeded: unknown[] = [];
    const chunks = Array.from({ length: 20 }, () => 'data: ' + 'y'.repeat(30) + '\n');
    const fetch = cappedFetch('s', 200, (e) => exceeded.push(e), stream(chunks, 'text/event-stream'));
    await expect((await fetch('http://x')).text()).rejects.toThrow(MessageTooLargeError);
    expect(exceeded).toHaveLength(1);
  });

  it('G5: a JSON body is counted whole', async () => {
    const fetch = cappedFetch('j', 10, () => undefined, stream(['{"a":', '"0123456789"}'], 'application/json'));
    await expect((await fetch('http://x')).json()).rejects.toThrow(/larger than 10 bytes \(upstreamMessageBytes\)/);
  });
});
