/**
 * Every reply the HTTP gateway writes itself (the SDK transport writes the rest): JSON-RPC errors
 * in one shape, `503 + Retry-After` for "try again shortly", `429 + Retry-After` for "slow down", and request-body reading with its
 * size limit. One place, so a status code and its message never drift apart.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The text of a 503 when the shared session store cannot be reached. */
export function storeUnavailableMessage(reason: string): string {
  return `Session store unavailable (${reason}); retry shortly.`;
}

/** The text of a 429 for a client address past its `initialize` rate. */
export function tooManyInitializesMessage(perMinute: number, burst: number): string {
  return `Too many initialize requests from this address (${burst} at once, then ${perMinute} a minute: limits initializeBurst, initializePerMinute); retry after the seconds in Retry-After.`;
}

/** A JSON-RPC error reply (no request id: the gateway answers before the SDK reads the body). */
export function replyError(res: ServerResponse, status: number, message: string, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(retryAfterSeconds));
  sendJson(res, status, jsonRpcError(message));
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: number; message: string };

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return { ok: false, status: 413, message: `Request body over ${maxBytes} bytes.` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: the body is not JSON.' };
  }
}

export function jsonRpcError(message: string) {
  return { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
