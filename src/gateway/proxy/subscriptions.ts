/**
 * G4 — resource subscriptions over shared upstream connections. Each (server, URI) is subscribed
 * upstream once, while at least one session holds it (a refcount with per-session ownership);
 * `resources/updated` reaches only the sessions holding that URI, under the URI each of them
 * subscribed to. Changes for one (server, URI) run one after another, so a subscribe racing an
 * unsubscribe never leaves the upstream state wrong; a failed upstream subscribe records nothing.
 * When a server reconnects, the subscriptions sessions hold on it are made again upstream.
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
) => Promise<void>;

export class Subscriptions {
  /** `server\nuri` → session → the URI that session subscribed to (an alias, or the same). */
  private readonly holders = new Map<string, Map<string, string>>();
  private readonly queues = new Map<string, Promise<unknown>>();

  /** G5: subscriptions held per session (`subscriptionsPerSession`). */
  private readonly perSession = new Map<string, number>();

  constructor(
    private readonly upstream: SubscribeUpstream,
    private readonly maxPerSession: number = Number.POSITIVE_INFINITY,
  ) {}

  subscribe(sessionId: string, clientUri: string, route: Route): Promise<void> {
    return this.serialize(route, async () => {
      const holders = this.holders.get(keyOf(route)) ?? new Map<string, string>();
      if (!holders.has(sessionId) && (this.perSession.get(sessionId) ?? 0) >= this.maxPerSession)
        throw new ProxyError(
          ErrorCode.InvalidRequest,
          `This session holds ${this.maxPerSession} resource subscriptions, the limit (subscriptionsPerSession); unsubscribe first.`,
        );
      if (holders.size === 0) await this.upstream(route.server, 'resources/subscribe', route.target, sessionId);
      if (!holders.has(sessionId)) this.perSession.set(sessionId, (this.perSession.get(sessionId) ?? 0) + 1);
      holders.set(sessionId, clientUri);
      this.holders.set(keyOf(route), holders);
    });
  }

  unsubscribe(sessionId: string, route: Route): Promise<void> {
    return this.serialize(route, async () => {
      const holders = this.holders.get(keyOf(route));
      if (!holders?.delete(sessionId)) return;
      this.countDown(sessionId);
      if (holders.size > 0) return;
      this.holders.delete(keyOf(route));
      await this.upstream(route.server, 'resources/unsubscribe', route.target, sessionId);
    });
  }

  /** The session closed: drop what it held (upstream unsubscribes when it was the last). */
  release(sessionId: string): void {
    for (const [key, holders] of this.holders) {
      if (!holders.has(sessionId)) continue;
      const [server, target] = splitKey(key);
      void this.unsubscribe(sessionId, { server, target }).catch(() => undefined);
    }
  }

  /** Sessions to tell that `uri` of `server` changed, each with the URI it subscribed to. */
  recipients(server: string, uri: string): Array<{ sessionId: string; uri: string }> {
    const holders = this.holders.get(keyOf({ server, target: uri }));
    return holders ? [...holders].map(([sessionId, clientUri]) => ({ sessionId, uri: clientUri })) : [];
  }

  /**
   * The server (re)connected: a new upstream session knows none of the subscriptions sessions
   * still hold, so each is made again. Resolves to the URIs that failed.
   */
  async restore(server: string): Promise<string[]> {
    const failed: string[] = [];
    const keys = [...this.holders.keys()].filter((key) => splitKey(key)[0] === server);
    await Promise.all(
      keys.map((key) => {
        const [, target] = splitKey(key);
        return this.serialize({ server, target }, async () => {
          const holders = this.holders.get(key);
          if (!holders?.size) return;
          const [only] = holders.size === 1 ? holders.keys() : [undefined];
          await this.upstream(server, 'resources/subscribe', target, only);
        }).catch(() => failed.push(target));
      }),
    );
    return failed;
  }

  private countDown(sessionId: string): void {
    const count = (this.perSession.get(sessionId) ?? 1) - 1;
    if (count > 0) this.perSession.set(sessionId, count);
    else this.perSession.delete(sessionId);
  }

  private serialize(route: Route, change: () => Promise<void>): Promise<void> {
    const key = keyOf(route);
    const next = (this.queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(change);
    this.queues.set(key, next);
    void next
      .finally(() => {
        if (this.queues.get(key) === next) this.queues.delete(key);
      })
      .catch(() => undefined);
    return next;
  }
}

function keyOf(route: Route): string {
  return `${route.server}\n${route.target}`;
}

function splitKey(key: string): [string, string] {
  const split = key.indexOf('\n');
  return [key.slice(0, split), key.slice(split + 1)];
}
