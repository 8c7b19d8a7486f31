/**
 * G6 — the notification bus over Redis pub/sub: one channel per deployment, JSON events tagged
 * with the publishing replica's id. Local subscribers get an event at once (so a replica keeps
 * notifying its own clients while Redis is down); the copy that comes back from Redis is skipped.
 * Pub/sub is fire-and-forget: events published while Redis is unreachable reach only the
 * publishing replica's clients (documented in the README's scale-out section).
 *
 * Needs two ioredis connections (a subscribed connection can do nothing else); nothing here
 * imports ioredis — see redis-backend.ts.
 */
import { randomUUID } from 'node:crypto';
import { errorMessage } from '../../util/errors.js';
import { silentLogger, type Logger } from '../../util/log.js';
import { InMemoryNotificationBus, parseBusEvent, type BusEvent } from '../sessions/bus.js';

/** The ioredis methods used; `new Redis(url)` and its `duplicate()` fit. */
export interface RedisPublisher {
  publish(channel: string, message: string): Promise<unknown>;
}
export interface RedisSubscriber {
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
}

export interface RedisNotificationBusOptions {
  publisher: RedisPublisher;
  subscriber: RedisSubscriber;
  /** Default `toolsearch:events`. */
  channel?: string;
  logger?: Logger;
}

export const DEFAULT_REDIS_CHANNEL = 'toolsearch:events';

export class RedisNotificationBus extends InMemoryNotificationBus {
  /** This replica's id, to skip its own events when Redis echoes them back. */
  readonly origin = randomUUID();
  private readonly publisher: RedisPublisher;
  private readonly subscriber: RedisSubscriber;
  private readonly channel: string;
  private readonly logger: Logger;

  constructor(options: RedisNotificationBusOptions) {
    super();
    this.publisher = options.publisher;
    this.subscriber = options.subscriber;
    this.channel = options.channel ?? DEFAULT_REDIS_CHANNEL;
    this.logger = options.logger ?? silentLogger;
    options.subscriber.on('message', (channel, message) => {
      if (channel === this.channel) this.receive(message);
    });
  }

  /** Resolves once subscribed (ioredis re-subscribes by itself after a reconnect). */
  async start(): Promise<void> {
    await this.subscriber.subscribe(this.channel);
  }

  override publish(event: BusEvent): void {
    this.deliver(event);
    this.publisher.publish(this.channel, JSON.stringify({ ...event, origin: this.origin })).catch((error: unknown) => {
      this.logger.debug(`notification bus: ${event.type} not relayed to other replicas: ${errorMessage(error)}`);
    });
  }

  private receive(message: string): void {
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch {
      this.logger.debug('notification bus: ignored a message that is not JSON');
      return;
    }
    if ((value as { origin?: unknown } | null)?.origin === this.origin) return;
    const event = parseBusEvent(value);
    if (event) this.deliver(event);
    else this.logger.debug('notification bus: ignored a message of unknown shape');
  }
}
