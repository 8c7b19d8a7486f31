/**
 * G8 — server → client requests for 2026-07-28 clients (multi round-trip requests, MRTR).
 *
 * A 2026 client cannot receive a request from the server: when a tool call needs its input, the
 * call *returns* `input_required` with the questions and an opaque `requestState`, and the client
 * retries the call with its answers. Upstream servers of the 2025 era still ask the old way, in
 * the middle of a call the gateway has running on them. So the gateway parks that call: the first
 * request returns the upstream's question as `input_required` (the upstream call keeps running,
 * waiting for its answer), and the retry carrying `requestState` hands the client's answer to the
 * waiting upstream request and waits again — for the result, or for the next question.
 *
 * `requestState` is a random id of a call parked in this process. A retry that lands on another
 * replica (a balancer without stickiness) is relayed over the shared bus to the one holding the
 * call (parked-relay.ts); without a shared bus it gets "unknown requestState" and the call can be
 * made again. A parked call nobody comes back for is cancelled upstream after PARKED_CALL_TIMEOUT_MS.
 *
 * G5: while parked, the call is not a request in flight here: its upstream requests' attribution
 * claims are parked with it (they claim what their server sends only for a short window, so one
 * client that never comes back does not block every other session's questions on that server) and
 * resumed by the retry (attribution.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  inputRequired,
  type InputRequiredResult,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { UpstreamProgress } from '../../mcp/connection.js';
import { ProxyError } from '../errors.js';
import type { RequestClaim } from './attribution.js';
import type { ClientChannel, ClientMessage } from './channel.js';
import { isRecord } from '../../util/records.js';

interface Question {
  readonly key: string;
  readonly message: ClientMessage;
  resolve(answer: Record<string, unknown>): void;
  reject(error: Error): void;
}

type Settled<T> = { done: true; value: T } | { done: true; error: unknown };

interface Parked<T> {
  readonly id: string;
  /** The request being served now (the first one, then each retry): progress goes to it. */
  ctx: ServerContext;
  readonly abort: AbortController;
  outcome?: Promise<Settled<T>>;
  question?: Question;
  asked?: () => void;
  timer?: NodeJS.Timeout;
  rounds: number;
  /** G5: the attribution claims of its upstream requests running now (parked and resumed with it). */
  readonly claims: Set<RequestClaim>;
}

/** How long a parked call waits for the client's retry; matches the legacy answer timeout. */
export const PARKED_CALL_TIMEOUT_MS = 10 * 60_000;

/** Continues, in another process, a call parked there (G6: parked-relay.ts); rejects when no process holds it. */
export type ResumeElsewhere = (requestState: string, ctx: ServerContext) => Promise<unknown>;

export class ParkedCalls {
  private readonly parked = new Map<string, Parked<unknown>>();
  /** Set when replicas share a bus: a retry for a call parked on another replica goes there. */
  elsewhere: ResumeElsewhere | undefined;

  constructor(private readonly timeoutMs = PARKED_CALL_TIMEOUT_MS) {}

  get size(): number {
    return this.parked.size;
  }

  /** Whether the call `requestState` names is parked in this process. */
  has(requestState: string): boolean {
    return this.parked.has(requestState);
  }

  /**
   * Continue a parked call for a retry that reached another replica (parked-relay.ts): `ctx` is
   * the relay's stand-in for that request (its answers, capabilities and cancellation).
   */
  continueFor(requestState: string, ctx: ServerContext): Promise<unknown> {
    return this.next(this.resume(requestState, ctx));
  }

  /**
   * Serve a 2026 request whose upstream work may ask the client something: a fresh request
   * starts `start`; a retry (it carries `requestState`) continues the call it names.
   */
  async serve<T>(ctx: ServerContext, start: (channel: ClientChannel) => Promise<T>): Promise<T | InputRequiredResult> {
    const state = ctx.mcpReq.requestState<unknown>();
    if (typeof state === 'string' && !this.parked.has(state) && this.elsewhere)
      return (await this.elsewhere(state, ctx)) as T | InputRequiredResult;
    const parked = typeof state === 'string' ? this.resume<T>(state, ctx) : this.begin(ctx, start);
    return this.next(parked);
  }

  /** Stop every parked call (the gateway is closing). */
  close(): void {
    for (const parked of this.parked.values()) this.drop(parked, 'the gateway is shutting down');
  }

  private begin<T>(ctx: ServerContext, start: (channel: ClientChannel) => Promise<T>): Parked<T> {
    const parked: Parked<T> = { id: randomUUID(), ctx, abort: new AbortController(), rounds: 0, claims: new Set() };
    parked.outcome = start(this.channel(parked)).then(
      (value): Settled<T> => ({ done: true, value }),
      (error: unknown): Settled<T> => ({ done: true, error }),
    );
    return parked;
  }

  private resume<T>(id: string, ctx: ServerContext): Parked<T> {
    const parked = this.parked.get(id) as Parked<T> | undefined;
    if (!parked)
      throw new ProxyError(
        ProtocolErrorCode.InvalidParams,
        'Unknown or expired requestState: the call it continues is not waiting here (it timed out, or was started on another gateway replica). Make the request again.',
      );
    this.parked.delete(id);
    clearTimeout(parked.timer);
    for (const claim of parked.claims) claim.resume();
    parked.ctx = ctx;
    const question = parked.question;
    const answer = question && ctx.mcpReq.inputResponses?.[question.key];
    if (question && isRecord(answer)) {
      parked.question = undefined;
      question.resolve(answer);
    }
    return parked;
  }

  /** Wait for the call's result or its next question; a question parks the call and goes to the client. */
  private async next<T>(parked: Parked<T>): Promise<T | InputRequiredResult> {
    const asked = new Promise<'asked'>((resolve) => {
      parked.asked = () => resolve('asked');
      if (parked.question) resolve('asked');
    });
    // The request being served now cancels the call; once it has returned (parked), the timeout does.
    const signal = parked.ctx.mcpReq.signal;
    const onAbort = () => parked.abort.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const first = await Promise.race([parked.outcome!, asked]).finally(() =>
      signal.removeEventListener('abort', onAbort),
    );
    parked.asked = undefined;
    if (first !== 'asked') {
      if ('error' in first) throw first.error;
      return first.value;
    }
    const question = parked.question!;
    parked.rounds++;
    for (const claim of parked.claims) claim.park();
    this.parked.set(parked.id, parked as Parked<unknown>);
    parked.timer = setTimeout(
      () => this.drop(parked as Parked<unknown>, 'the client did not answer in time'),
      this.timeoutMs,
    );
    parked.timer.unref();
    return inputRequired({ inputRequests: { [question.key]: question.message } as never, requestState: parked.id });
  }

  private drop(parked: Parked<unknown>, why: string): void {
    this.parked.delete(parked.id);
    clearTimeout(parked.timer);
    parked.question?.reject(new ProxyError(ProtocolErrorCode.InternalError, `toolsearch gateway: ${why}`));
    parked.abort.abort(new Error(why));
  }

  /** How upstream requests of a parked call reach the client: as the next `input_required`. */
  private channel<T>(parked: Parked<T>): ClientChannel {
    return {
      capabilities: () => envelopeCapabilities(parked.ctx),
      ask: (message) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          if (parked.question) {
            reject(
              new ProxyError(
                ProtocolErrorCode.InternalError,
                'toolsearch gateway: one question at a time per call (the previous one is still unanswered)',
              ),
            );
            return;
          }
          parked.question = { key: `q${parked.rounds + 1}`, message, resolve, reject };
          parked.asked?.();
        }),
      signal: parked.abort.signal,
      lingers: false,
      progress: () => progressOf(parked),
      hold: (claim) => {
        parked.claims.add(claim);
        return () => parked.claims.delete(claim);
      },
    };
  }
}

/** Upstream progress, re-emitted on whichever request of the call is being served now. */
function progressOf(parked: Parked<unknown>): ((progress: UpstreamProgress) => void) | undefined {
  const token = parked.ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (progress) => {
    const current = parked.ctx.mcpReq._meta?.progressToken ?? token;
    parked.ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { ...progress, progressToken: current } })
      .catch(() => undefined);
  };
}

/** What a 2026 client declared, from the request's own envelope. */
export function envelopeCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}
