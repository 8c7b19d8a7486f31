/**
 * G8 — change notifications for 2026-07-28 clients. They open `subscriptions/listen` (the SDK's
 * serving entry answers it and keeps the stream) instead of receiving unsolicited notifications on
 * a session. Everything the gateway tells every 2025 session (tools / resources / prompts
 * list_changed) is published here too, on every process sharing the notification bus; a
 * `resources/updated` goes to the listen streams of this process that asked for that URI.
 *
 * A listen stream asking for resource updates holds upstream subscriptions under a holder id of
 * its own (like a session would) until the stream closes.
 */
import { InMemoryServerEventBus, type ServerEvent } from '@modelcontextprotocol/server';
import { statelessRequestId } from '../tools/stateless.js';
import type { BusNotification } from './bus.js';

const LIST_CHANGED: Record<string, ServerEvent['kind']> = {
  'notifications/tools/list_changed': 'tools_list_changed',
  'notifications/resources/list_changed': 'resources_list_changed',
  'notifications/prompts/list_changed': 'prompts_list_changed',
};

export class ListenStreams {
  /** What `createMcpHandler({ bus })` and the stdio entry read from. */
  readonly bus = new InMemoryServerEventBus();
  private readonly holders = new Set<string>();

  /** A notification for every session: the same change for every listen stream. */
  deliverAll(notification: BusNotification): void {
    const kind = LIST_CHANGED[notification.method];
    if (kind !== undefined && kind !== 'resource_updated') this.bus.publish({ kind });
  }

  /** A notification for one session id: true when it was a listen stream's of this process. */
  deliver(holder: string, notification: BusNotification): boolean {
    if (!this.holders.has(holder)) return false;
    const uri = notification.params?.['uri'];
    if (notification.method === 'notifications/resources/updated' && typeof uri === 'string')
      this.bus.publish({ kind: 'resource_updated', uri });
    return true;
  }

  /** A listen stream that asked for resource updates: its holder id for upstream subscriptions. */
  hold(): string {
    const holder = statelessRequestId();
    this.holders.add(holder);
    return holder;
  }

  release(holder: string): void {
    this.holders.delete(holder);
  }
}
