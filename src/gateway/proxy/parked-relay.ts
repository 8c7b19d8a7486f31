/**
 * G6/G8 — the retry of a parked 2026-07-28 call (input-required.ts) that a balancer without
 * stickiness sends to another replica. The upstream call lives in the process that started it
 * and cannot move; the retry can. The replica that got the retry publishes it on the shared bus
 * (`resume`, with the client's answers and capabilities); the replica holding the call says so at
 * once (`resume-ack`), continues it as if the retry had come to it, and publishes the outcome
 * (`resumed`: the result, the next `input_required`, or an MCP error). If no replica acknowledges
 * within RELAY_ACK_MS the call is gone (timed out, or its replica stopped) and the client is told
 * to make it again. A client that gives up its retry cancels the call (`resume-cancel`).
 *
 * Progress the upstream sends meanwhile crosses back too (`resume-progress`), re-emitted under the
 * retry's own progress token. Only built when the bus is shared.
 */
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { errorMessage } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { ProxyError } from '../errors.js';
import type { BusEvent, NotificationBus } from '../sessions/bus.js';
import { envelopeCapabilities, PARKED_CALL_TIMEOUT_MS, type ParkedCalls } from './input-required.js';

/** How long the replica that got a retry waits for the one holding its call to answer "here". */
export const RELAY_ACK_MS = 2_000;

type ResumeEvent = Extract<BusEvent, { type: 'resume' }>;
type ResumedEvent = Extract<BusEvent, { type: 'resumed' }>;

interface Waiter {
  ack(): void;
  progress(params: Record<string, unknown>): void;
  done(event: ResumedEvent): void;
}

export class ParkedRelay {
  /** Retries this replica relayed, by reply id. */
  private readonly waiting = new Map<string, Waiter>();
  /** Calls this replica continues for another's retry, by reply id (to cancel). */
  private readonly serving = new Map<string, AbortController>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: NotificationBus,
    private readonly parked: ParkedCalls,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.onEvent(event));
    parked.elsewhere = (requestState, ctx) => this.relay(requestState, ctx);
  }

  close(): void {
    this.unsubscribe();
    this.parked.elsewhere = undefined;
    for (const abort of this.serving.values()) abort.abort(new Error('the gateway is shutting down'));
  }

  private onEvent(event: BusEvent): void {
    if (event.type === 'resume') this.continueHere(event);
    else if (event.type === 'resume-ack') this.waiting.get(event.reply)?.ack();
    else if (event.type === 'resumed') this.waiting.get(event.reply)?.done(event);
    else if (event.type === 'resume-progress') this.waiting.get(event.reply)?.progress(event.params);
    else if (event.type === 'resume-cancel')
      this.serving.get(event.reply)?.abort(new Error('the client cancelled the retry'));
  }

  /** The replica holding the call: continue it for a retry that reached another replica. */
  private continueHere(event: ResumeEvent): void {
    if (!this.parked.has(event.requestState)) return;
    const { reply } = event;
    this.bus.publish({ type: 'resume-ack', reply });
    const abort = new AbortController();
    this.serving.set(reply, abort);
    this.parked
      .continueFor(
        event.requestState,
        standIn(event, abort.signal, (params) => this.bus.publish({ type: 'resume-progress', reply, params })),
      )
      .then(
        (result) => this.bus.publish({ type: 'resumed', reply, result: result as Record<string, unknown> }),
        (error: unknown) => this.bus.publish({ type: 'resumed', reply, error: asRpcError(error) }),
      )
      .finally(() => this.serving.delete(reply));
  }

  /** The replica that got the retry: hand it to the one holding the call and wait for its outcome. */
  private relay(requestState: string, ctx: ServerContext): Promise<unknown> {
    const reply = randomUUID();
    const signal = ctx.mcpReq.signal;
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(reply);
        signal.removeEventListener('abort', onAbort);
      };
      const fail = (error: Error) => {
        finish();
        reject(error);
      };
      let timer = setTimeout(() => fail(unknownState()), RELAY_ACK_MS);
      const onAbort = () => {
        this.bus.publish({ type: 'resume-cancel', reply });
        fail(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      };
      this.waiting.set(reply, {
        ack: () => {
          clearTimeout(timer);
          this.logger.debug(`relayed a retry to the replica holding its parked call (${requestState})`);
          // The holder answers when the call ends or asks again, within the parked call's own bound.
          timer = setTimeout(
            () =>
              fail(new ProxyError(ProtocolErrorCode.InternalError, 'the replica holding the call stopped answering')),
            PARKED_CALL_TIMEOUT_MS,
          );
        },
        progress: (params) => {
          const progressToken = ctx.mcpReq._meta?.progressToken;
          if (progressToken === undefined) return;
          ctx.mcpReq
            .notify({ method: 'notifications/progress', params: { ...params, progressToken } as never })
            .catch(() => undefined);
        },
        done: (event) => {
          finish();
          if (event.error) reject(new ProxyError(event.error.code, event.error.message));
          else resolve(event.result);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      const capabilities = envelopeCapabilities(ctx) as Record<string, unknown> | undefined;
      this.bus.publish({
        type: 'resume',
        requestState,
        reply,
        answers: (ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>,
        ...(capabilities && { capabilities }),
        ...(ctx.mcpReq._meta?.progressToken !== undefined && { progress: true }),
      });
    });
  }
}

/**
 * What ParkedCalls reads of a retry's request, for one that arrived elsewhere: its answers,
 * capabilities and cancellation, and progress sent back over the bus (`send`) when it asked for any.
 */
function standIn(
  event: ResumeEvent,
  signal: AbortSignal,
  send: (params: Record<string, unknown>) => void,
): ServerContext {
  const mcpReq = {
    signal,
    inputResponses: event.answers,
    envelope: event.capabilities ? { [CLIENT_CAPABILITIES_META_KEY]: event.capabilities } : undefined,
    requestState: () => event.requestState,
    // The token is the retry's, on the other replica; there it is put back.
    ...(event.progress && { _meta: { progressToken: 'relayed' } }),
    notify: async (notification: { params?: Record<string, unknown> }) => {
      const { progressToken: _, ...params } = notification.params ?? {};
      send(params);
    },
  };
  return { mcpReq } as unknown as ServerContext;
}

function unknownState(): ProxyError {
  return new ProxyError(
    ProtocolErrorCode.InvalidParams,
    'Unknown or expired requestState: no gateway replica holds the call it continues (it timed out, or its replica stopped). Make the request again.',
  );
}

function asRpcError(error: unknown): { code: number; message: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return { code: typeof code === 'number' ? code : ProtocolErrorCode.InternalError, message: errorMessage(error) };
}
