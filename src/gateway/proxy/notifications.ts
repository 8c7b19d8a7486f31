/**
 * G4 — out-of-band notifications to client sessions (not answers to one of their requests):
 * resources/prompts list_changed, resources/updated, logging messages.
 *
 * Every such send goes through `toSession` (or `toAll`), which hands it to the gateway's
 * notification bus, so it reaches the session's stream on whichever gateway process holds it (G6).
 */
import type { McpMessage } from '../../mcp/connection.js';

/**
 * Methods the SDK coalesces per session (`debouncedNotificationMethods`) — within one tick only;
 * `listChanged` below also coalesces over a short window.
 */
export const COALESCED_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
] as const;

/** Upstream list changes closer together than this reach clients as one list_changed. */
export const LIST_CHANGED_COALESCE_MS = 50;

export class SessionNotifications {
  private readonly queued = new Set<string>();

  constructor(
    /** The gateway's send to one session (through the bus). */
    private readonly send: (sessionId: string, notification: McpMessage) => void,
    /** The gateway's send to every session, on every process sharing the bus. */
    private readonly sendAll: (notification: McpMessage) => void,
  ) {}

  /** The one path by which an out-of-band notification reaches a session. */
  toSession(sessionId: string, notification: McpMessage): void {
    this.send(sessionId, notification);
  }

  /**
   * To every session, including those whose streams are on other processes: an upstream change
   * seen by this process's hub (the others may run their own copy of that server and see it too;
   * the SDK coalesces the repeats per session).
   */
  toAll(notification: McpMessage): void {
    this.sendAll(notification);
  }

  /**
   * `notifications/<kind>/list_changed` to every session, once per burst: several servers
   * connecting or refreshing together make one notification, not one per server.
   */
  listChanged(kind: 'resources' | 'prompts'): void {
    const method = `notifications/${kind}/list_changed`;
    if (this.queued.has(method)) return;
    this.queued.add(method);
    setTimeout(() => {
      this.queued.delete(method);
      this.toAll({ method });
    }, LIST_CHANGED_COALESCE_MS).unref();
  }
}
