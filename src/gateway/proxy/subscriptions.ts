/**
 * G4 — resource subscriptions over shared upstream connections. Each (server, URI) is subscribed
 * upstream once, while at least one session holds it (a refcount with per-session ownership);
 * `resources/updated` reaches only the sessions holding that URI, under the URI each of them
 * subscribed to. Changes for one (server, URI) run one after another, so a subscribe racing an
 * unsubscribe never leaves the upstream state wrong; a failed upstream subscribe records nothing.
 * When a server reconnects, the subscriptions sessions hold on it are made again upstream.
 * G5: on an `"isolation": "session"` server a session subscribes on its own connection, alone:
 * the key then names that session, and updates from that connection reach only it.
 */
import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { Route } from '../../mcp/aggregate.js';
import { ProxyError } from '../errors.js';

/** What subscribing needs from upstream: `resources/subscribe` and `resources/unsubscribe`. */
export type SubscribeUpstream = (
  server: string,
  method: 'resources/subscribe' | 'resources/unsubscribe',
  uri: string,
  /** The session whose request (or close) causes it: what the server logs meanwhile is its own. */
  sessionId: string | undefined,
  /** G5: the session whose own upstream connection holds it (an `"isolation": "session"` server). */
  own?: string,
) => Promise<void>;

/**
 * G5: the session whose subscriptions on `server` live on its own upstream connection (an
 * `"isolation": "session"` server), if any: those are that session's alone, never shared.
 */
export type SubscriptionScope = (server: string, sessionId: string) => string | undefined;

/** A subscription's key: the session owning the connection ('' for the shared one), server and URI. */
interface Key {
  readonly own: string | undefined;
  readonly route: Route;
  readonly text: string;
}

export class Subscriptions {
  /** key text → session → the URI that session subscribed to (an alias, or the same). */
  private readonly holders = new Map<string, Map<string, string>>();
  private readonly keys = new Map<string, Key>();
  private readonly queues = new Map<string, Promise<unknown>>();

  /** G5: subscriptions held per session (`subscriptionsPerSession`). */
  private readonly perSession = new Map<string, number>();

  constructor(
    private readonly upstream: SubscribeUpstream,
    private readonly maxPerSession: number = Number.POSITIVE_INFINITY,
    private readonly scope: SubscriptionScope = () => undefined,
  ) {}

  subscribe(sessionId: string, clientUri: string, route: Route): Promise<void> {
    const key = keyOf(route, this.scope(route.server, sessionId));
    // G5: the slot is taken now, before any upstream subscribe is awaited: many subscriptions
    // started at once (one listen naming 20,000 URIs) count against the cap as they start, and
    // one refused here sends nothing upstream.
    const reserved = !this.holders.get(key.text)?.has(sessionId);
    if (reserved) {
      if ((this.perSession.get(sessionId) ?? 0) >= this.maxPerSession)
        return Promise.reject(
          new ProxyError(
            ErrorCode.InvalidRequest,
            `This session holds ${this.maxPerSession} resource subscriptions, the limit (subscriptionsPerSession); unsubscribe first.`,
          ),
        );
      this.perSession.set(sessionId, (this.perSession.get(sessionId) ?? 0) + 1);
    }
    return this.serialize(key, async () => {
      const holders = this.holders.get(key.text) ?? new Map<string, string>();
      // A twin of this subscription got in first: the slot taken for this one goes back.
      if (reserved && holders.has(sessionId)) this.countDown(sessionId);
      try {
        if (holders.size === 0) await this.send(key, 'resources/subscribe', sessionId);
      } catch (error) {
        if (reserved && !holders.has(sessionId)) this.countDown(sessionId);
        throw error;
      }
      holders.set(sessionId, clientUri);
      this.holders.set(key.text, holders);
      this.keys.set(key.text, key);
    });
  }

  unsubscribe(sessionId: string, route: Route): Promise<void> {
    return this.unsubscribeKey(sessionId, keyOf(route, this.scope(route.server, sessionId)));
  }

  /**
   * The session closed: drop what it held (upstream unsubscribes when it was the last). What it
   * held on its own connections goes without a word upstream: those close with the session.
   */
  release(sessionId: string): void {
    for (const [text, holders] of this.holders) {
      if (!holders.has(sessionId)) continue;
      const key = this.keys.get(text)!;
      void this.unsubscribeKey(sessionId, key, key.own !== sessionId).catch(() => undefined);
    }
  }

  /**
   * Sessions to tell that `uri` of `server` changed, each with the URI it subscribed to.
   * `own`: the update came on that session's own connection (G5), so only its subscription counts.
   */
  recipients(server: string, uri: string, own?: string): Array<{ sessionId: string; uri: string }> {
    const holders = this.holders.get(keyOf({ server, target: uri }, own).text);
    return holders ? [...holders].map(([sessionId, clientUri]) => ({ sessionId, uri: clientUri })) : [];
  }

  /**
   * The server's shared connection (re)connected: a new upstream session knows none of the
   * subscriptions sessions still hold there, so each is made again. Resolves to the URIs that
   * failed. (A session's own connection is the hub's to restore: src/mcp/session-connections.ts.)
   */
  async restore(server: string): Promise<string[]> {
    const failed: string[] = [];
    const keys = [...this.keys.values()].filter((key) => key.route.server === server && key.own === undefined);
    await Promise.all(
      keys.map((key) =>
        this.serialize(key, async () => {
          const holders = this.holders.get(key.text);
          if (!holders?.size) return;
          const [only] = holders.size === 1 ? holders.keys() : [undefined];
          await this.send(key, 'resources/subscribe', only);
        }).catch(() => failed.push(key.route.target)),
      ),
    );
    return failed;
  }

  private unsubscribeKey(sessionId: string, key: Key, upstream = true): Promise<void> {
    return this.serialize(key, async () => {
      const holders = this.holders.get(key.text);
      if (!holders?.delete(sessionId)) return;
      this.countDown(sessionId);
      if (holders.size > 0) return;
      this.holders.delete(key.text);
      this.keys.delete(key.text);
      if (upstream) await this.send(key, 'resources/unsubscribe', sessionId);
    });
  }

  private send(
    key: Key,
    method: 'resources/subscribe' | 'resources/unsubscribe',
    sessionId: string | undefined,
  ): Promise<void> {
    return this.upstream(key.route.server, method, key.route.target, sessionId, key.own);
  }

  private countDown(sessionId: string): void {
    const count = (this.perSession.get(sessionId) ?? 1) - 1;
    if (count > 0) this.perSession.set(sessionId, count);
    else this.perSession.delete(sessionId);
  }

  private serialize(key: Key, change: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(key.text) ?? Promise.resolve()).catch(() => undefined).then(change);
    this.queues.set(key.text, next);
    void next
      .finally(() => {
        if (this.queues.get(key.text) === next) this.queues.delete(key.text);
      })
      .catch(() => undefined);
    return next;
  }
}

function keyOf(route: Route, own: string | undefined): Key {
  return {
    own,
    route: { server: route.server, target: route.target },
    text: JSON.stringify([own ?? '', route.server, route.target]),
  };
}
