/**
 * A response body read whole, but never past a cap: an answer from outside (an OAuth server, an
 * embedding server, the MCP Registry) is bounded before it is believed. A declared
 * `Content-Length` over the cap is refused before reading; otherwise bytes are counted as they
 * arrive, and past the cap the stream is cancelled (the rest is never read).
 */

/** The whole body, or undefined when it is larger than `max` bytes (each caller says so in its own words). */
export async function readCappedBody(response: Response, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
