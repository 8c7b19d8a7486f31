/**
 * G6 — how out-of-band messages reach a session's client when several gateway processes
 * (replicas) serve it. A client's standing GET stream lives on ONE replica, but what it must hear
 * (a catalog change, a resource update, "your session ended") can happen on any replica. Every
 * replica publishes such events on the bus and acts on every event it receives: the replica
 * holding the stream delivers it; the SDK transport of a replica without the stream drops it.
 *
 * In one process the bus is a plain in-memory fan-out; `RedisNotificationBus` (redis-bus.ts)
 * relays between processes over Redis pub/sub.
 */
import type { JSONRPCNotification } from '@modelcontextprotocol/server';
import { isRecord } from '../../util/records.js';

/** A notification as the SDK `Server.notification()` takes it. */
export type BusNotification = Omit<JSONRPCNotification, 'jsonrpc'>;

export type BusEvent =
  /** Every session's client should receive this (e.g. tools/list_changed after an upstream change). */
  | { type: 'notify-all'; notification: BusNotification }
  /** One session's client should receive this notification (resource updated, list_changed, …). */
  | { type: 'notify'; sessionId: string; notification: BusNotification }
  /** The session ended (DELETE, or gone from the store): close it wherever it is open. */
  | { type: 'ended'; sessionId: string }
  /** G8: continue the parked call `requestState` with these answers; reply on `reply` (parked-relay.ts). */
  | {
      type: 'resume';
      requestState: string;
      reply: string;
      answers: Record<string, unknown>;
      capabilities?: Record<string, unknown>;
      /** The retry carries a progress token: send progress back (`resume-progress`). */
      progress?: boolean;
    }
  /** G8: the replica holding the call has it and is continuing it. */
  | { type: 'resume-ack'; reply: string }
  /** G8: the continued call's outcome: its result (or next input_required), or an MCP error. */
  | { type: 'resumed'; reply: string; result?: Record<string, unknown>; error?: { code: number; message: string } }
  /** G8: the client gave up the retry: cancel the call. */
  | { type: 'resume-cancel'; reply: string }
  /** G8: upstream progress of the continued call, for the client of the relayed retry. */
  | { type: 'resume-progress'; reply: string; params: Record<string, unknown> };

export interface NotificationBus {
  /** Deliver to this process's subscribers at once, and to every other process sharing the bus. */
  publish(event: BusEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

/** Fan-out to local subscribers; the base of the Redis bus too. */
export class InMemoryNotificationBus implements NotificationBus {
  private readonly handlers = new Set<(event: BusEvent) => void>();

  publish(event: BusEvent): void {
    this.deliver(event);
  }

  subscribe(handler: (event: BusEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }

  protected deliver(event: BusEvent): void {
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch {
        // A subscriber's failure must not stop delivery to the others (handlers log their own).
      }
    }
  }
}

/** Shape check for events arriving from another process (Redis is shared infrastructure). */
export function parseBusEvent(value: unknown): BusEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as Record<string, unknown>;
  if (event['type'] === 'notify-all') {
    const notification = parseNotification(event['notification']);
    return notification && { type: 'notify-all', notification };
  }
  const relayed = parseRelayEvent(event);
  if (relayed) return relayed;
  if (typeof event['sessionId'] !== 'string') return undefined;
  if (event['type'] === 'ended') return { type: 'ended', sessionId: event['sessionId'] };
  const notification = parseNotification(event['notification']);
  if (event['type'] === 'notify' && notification)
    return { type: 'notify', sessionId: event['sessionId'], notification };
  return undefined;
}

/** The G8 relay's events (parked-relay.ts), checked as strictly as the others. */
function parseRelayEvent(event: Record<string, unknown>): BusEvent | undefined {
  const reply = event['reply'];
  if (typeof reply !== 'string') return undefined;
  switch (event['type']) {
    case 'resume': {
      const { requestState, answers, capabilities } = event;
      if (typeof requestState !== 'string' || !isRecord(answers)) return undefined;
      return {
        type: 'resume',
        requestState,
        reply,
        answers,
        ...(isRecord(capabilities) && { capabilities }),
        ...(event['progress'] === true && { progress: true }),
      };
    }
    case 'resume-ack':
      return { type: 'resume-ack', reply };
    case 'resume-cancel':
      return { type: 'resume-cancel', reply };
    case 'resume-progress':
      return isRecord(event['params']) ? { type: 'resume-progress', reply, params: event['params'] } : undefined;
    case 'resumed': {
      const { result, error } = event;
      if (isRecord(result)) return { type: 'resumed', reply, result };
      if (isRecord(error) && typeof error['code'] === 'number' && typeof error['message'] === 'string')
        return { type: 'resumed', reply, error: { code: error['code'], message: error['message'] } };
      return undefined;
    }
    default:
      return undefined;
  }
}

function parseNotification(value: unknown): BusNotification | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { method, params } = value as Record<string, unknown>;
  if (typeof method !== 'string') return undefined;
  return {
    method,
    ...(typeof params === 'object' && params !== null && { params: params as Record<string, unknown> }),
  };
}
