/**
 * G5 — bytes queued per session stream (limit `streamQueuedBytes`).
 *
 * The SDK transport writes each SSE event into a web `ReadableStream` that @hono/node-server
 * pipes into the Node response, waiting for 'drain' between chunks. A client that opens a stream
 * and never reads stops that pipe, so every later event (upstream logs, progress, list changes)
 * waits in the ReadableStream's queue: a GET stream never read plus 300 MB of logs held 808 MiB.
 * The response's own buffer stays small (the pipe waits for drain); the queue is what grows.
 *
 * Here each stream's queue is measured (the chunk sizes it was given, trimmed to the chunks the
 * stream still holds), and past the cap the response that carries it is destroyed: the pipe then
 * cancels the stream, which drops its queue (and the SDK forgets the stream as on any client
 * disconnect). A GET stream's client may reconnect; its session lives on.
 *
 * This reaches into SDK internals (like resume.ts): the web-standard transport's `_streamMapping`,
 * where each new stream is registered while the request that opens it is handled (an
 * AsyncLocalStorage names that request's response). A changed SDK fails loudly here instead of
 * leaving streams uncapped.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from '@modelcontextprotocol/node';

type Controller = ReadableStreamDefaultController<Uint8Array>;

interface SdkInternals {
  _streamMapping: Map<string, { controller?: Controller }>;
}

/** Which stream was closed, and how much it held unread. */
export interface StreamOverflow {
  /** `GET` (the session's standalone stream) or `POST` (a request's response stream). */
  readonly stream: string;
  readonly queuedBytes: number;
}

/** The response of the request being handled (the one a stream registered now belongs to). */
const handling = new AsyncLocalStorage<ServerResponse>();

/**
 * The bytes a FIFO stream still holds: sizes of chunks given, trimmed from the front to the
 * number of chunks the stream reports queued (a chunk handed straight to a waiting reader is never
 * queued). Amortized O(1) per chunk.
 */
export class QueuedBytes {
  private sizes: number[] = [];
  private head = 0;
  private total = 0;

  /** A chunk of `size` bytes was given; `queuedChunks` is what the stream holds now. Returns the bytes held. */
  push(size: number, queuedChunks: number): number {
    this.sizes.push(size);
    this.total += size;
    while (this.sizes.length - this.head > Math.max(0, queuedChunks)) this.total -= this.sizes[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.sizes.length) {
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    return this.total;
  }
}

/** Cap every SSE stream of this transport at `maxBytes` queued (0: no cap). */
export function capStreamQueues(
  transport: StreamableHTTPServerTransport,
  maxBytes: number,
  closed: (overflow: StreamOverflow) => void,
): void {
  if (maxBytes <= 0) return;
  const inner = (transport as unknown as { _webStandardTransport?: SdkInternals })._webStandardTransport;
  if (!(inner?._streamMapping instanceof Map))
    throw new Error('cannot cap stream queues: the MCP SDK transport internals changed');
  const streams = inner._streamMapping;
  const measured = new WeakSet<Controller>();
  streams.set = (key, stream) => {
    const res = handling.getStore();
    const controller = stream.controller;
    if (res && controller && !measured.has(controller)) {
      measured.add(controller);
      measure(controller, maxBytes, (queuedBytes) => {
        res.destroy();
        closed({ stream: res.req.method ?? '?', queuedBytes });
      });
    }
    return Map.prototype.set.call(streams, key, stream) as typeof streams;
  };
  const handle = transport.handleRequest.bind(transport);
  transport.handleRequest = (req, res, body) => handling.run(res, () => handle(req, res, body));
}

/** Count what `controller` is given from now on (events, keep-alives); call `over` once past the cap. */
function measure(controller: Controller, maxBytes: number, over: (queuedBytes: number) => void): void {
  const queue = new QueuedBytes();
  const enqueue = controller.enqueue.bind(controller);
  let done = false;
  controller.enqueue = (chunk: Uint8Array) => {
    enqueue(chunk);
    // The SDK's streams use the default strategy: one chunk counts 1 against a high-water mark of 1.
    const held = queue.push(chunk.byteLength, 1 - (controller.desiredSize ?? 1));
    if (held <= maxBytes || done) return;
    done = true;
    over(held);
  };
}

/**
 * The same cap for a response built by the SDK's 2026-07-28 entry (a call's SSE answer, a
 * `subscriptions/listen` stream): its body is read as fast as the SDK writes it into a stream
 * that counts bytes (a byte-length high-water mark of `maxBytes`, so the bytes it holds are
 * `maxBytes - desiredSize`); past the cap the SDK's stream is cancelled and `over` is told.
 */
export function capResponseBody(response: Response, maxBytes: number, over: (queuedBytes: number) => void): Response {
  // A JSON answer is one body already in memory: only a stream can grow while its client waits.
  if (maxBytes <= 0 || response.body === null || !response.headers.get('content-type')?.includes('text/event-stream'))
    return response;
  const source = response.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const pump = async (): Promise<void> => {
          for (;;) {
            const { done, value } = await source.read();
            if (done) return controller.close();
            controller.enqueue(value);
            const held = maxBytes - (controller.desiredSize ?? maxBytes);
            if (held <= maxBytes) continue;
            await source.cancel();
            over(held);
            return controller.error(new Error(`stream closed: ${held} bytes queued unread (limit streamQueuedBytes)`));
          }
        };
        pump().catch((error: unknown) => controller.error(error));
      },
      cancel: (reason) => source.cancel(reason),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxBytes }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
