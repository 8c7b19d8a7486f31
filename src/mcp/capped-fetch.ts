/**
 * G5 — HTTP upstreams get the same message cap as stdio ones (`upstreamMessageBytes`). The MCP
 * SDK's Streamable HTTP transport buffers a JSON answer whole and an SSE event until its blank
 * line, with no bound: one 300 MB result took the gateway to 1.4 GiB, and an event that never ends
 * grew until the call timed out. This `fetch` wrapper, given to the transport through its `fetch`
 * option (both SDK generations take one), counts bytes while they are read:
 *
 * - a JSON body: all its bytes;
 * - an SSE stream (`text/event-stream`): the bytes of the current event, reset at each blank line.
 *
 * Past the cap the body fails with `MessageTooLargeError` (so the read in progress fails) and
 * `onExceeded` is told, so the connection can be closed and made again.
 */

export class MessageTooLargeError extends Error {
  override name = 'MessageTooLargeError';
  constructor(
    readonly server: string,
    readonly limit: number,
    readonly what: 'response' | 'SSE event',
  ) {
    super(
      `MCP server "${server}" sent an HTTP ${what} larger than ${limit} bytes (upstreamMessageBytes); the connection was closed and is made again`,
    );
  }
}

type Fetch = typeof fetch;

export function cappedFetch(
  server: string,
  maxBytes: number,
  onExceeded: (error: MessageTooLargeError) => void,
  base: Fetch = fetch,
): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const counter = sse ? sseCounter(maxBytes) : bodyCounter(maxBytes);
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (counter(chunk)) {
            const error = new MessageTooLargeError(server, maxBytes, sse ? 'SSE event' : 'response');
            controller.error(error);
            onExceeded(error);
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** True once the whole body passed `max` bytes. */
function bodyCounter(max: number): (chunk: Uint8Array) => boolean {
  let total = 0;
  return (chunk) => (total += chunk.byteLength) > max;
}

const LF = 0x0a;
const CR = 0x0d;

/** True once one SSE event (bytes since the last blank line) passed `max` bytes. */
function sseCounter(max: number): (chunk: Uint8Array) => boolean {
  let event = 0;
  /** Bytes of the current line so far (a CR before its LF not counted). */
  let line = 0;
  return (chunk) => {
    let pos = 0;
    while (pos < chunk.byteLength) {
      const lf = chunk.indexOf(LF, pos);
      const end = lf < 0 ? chunk.byteLength : lf;
      line += end - pos;
      // "\r\n" ends a line like "\n": a line holding only CR is blank.
      if (lf >= 0 && end > pos && chunk[end - 1] === CR) line--;
      event += end - pos;
      if (event > max) return true;
      if (lf < 0) break;
      // A blank line ends the event.
      if (line === 0) event = 0;
      else event++;
      line = 0;
      pos = lf + 1;
    }
    return false;
  };
}
