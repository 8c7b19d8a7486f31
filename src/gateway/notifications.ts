/**
 * G4 — out-of-band notifications to client sessions (not answers to one of their requests):
 * resources/prompts list_changed, resources/updated, logging messages.
 *
 * Every such send goes through `toSession`, which hands it to the gateway's notification bus, so
 * it reaches the session's stream on whichever gateway process holds it (G6).
 */
import type { McpMessage } from '../mcp/connection.js';

/**
 * Methods the SDK coalesces per session (`debouncedNotificationMethods`): a burst of upstream
 * list changes (several servers connecting together) reaches a client as one notification.
 */
export const COALESCED_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
] as const;

export class SessionNotifications {
  constructor(
    /** The gateway's send (through the bus). */
    private readonly send: (sessionId: string, notification: McpMessage) => void,
    /** Sessions open in this process. */
    private readonly liveSessions: () => Iterable<string>,
  ) {}

  /** The one path by which an out-of-band notification reaches a session. */
  toSession(sessionId: string, notification: McpMessage): void {
    this.send(sessionId, notification);
  }

  /** To every session open here (each process's hub sees its own upstream changes). */
  toAll(notification: McpMessage): void {
    for (const sessionId of this.liveSessions()) this.toSession(sessionId, notification);
  }
}
