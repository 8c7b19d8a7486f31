/**
 * G9/H3 — what the status page shows of the gateway's traffic: the recent searches (what they
 * found, whether a call followed; misses first — the searches whose tool descriptions need fixing)
 * and per-server call counts with p50/p99 latency. Bounded: the last `searches` searches and the
 * last `samples` latencies per server.
 */
import type { OperationsEvents } from './events.js';

export interface RecentSearch {
  readonly time: number;
  readonly query: string;
  readonly profile?: string;
  /** The top matches, best first. */
  readonly matches: readonly string[];
  readonly resultCount: number;
  readonly lowConfidence: boolean;
  /** A call of one of its matches followed in the same session. */
  followed: boolean;
  calledTool?: string;
}

export interface ServerCalls {
  readonly server: string;
  readonly calls: number;
  /** Calls that ended in an error (the tool's or the gateway's). */
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const MATCHES_KEPT = 5;

export class GatewayActivity {
  private readonly searches: (RecentSearch & { id: number })[] = [];
  private readonly calls = new Map<string, { calls: number; errors: number; samples: number[]; next: number }>();
  private readonly unsubscribe: () => void;

  constructor(
    events: OperationsEvents,
    private readonly limits: { searches?: number; samples?: number } = {},
  ) {
    this.unsubscribe = events.subscribe((event) => {
      if (event.type === 'search') {
        this.searches.push({
          id: event.id,
          time: event.time,
          query: event.query,
          ...(event.profile !== undefined && { profile: event.profile }),
          matches: event.matches.slice(0, MATCHES_KEPT),
          resultCount: event.matches.length,
          lowConfidence: event.lowConfidence,
          followed: false,
        });
        if (this.searches.length > (this.limits.searches ?? 50)) this.searches.shift();
      } else if (event.type === 'search-followed') {
        const search = this.searches.find((s) => s.id === event.id);
        if (search) {
          search.followed = true;
          search.calledTool = event.tool;
        }
      } else if (event.type === 'tool-call' && event.server !== undefined) {
        this.recordCall(event.server, event.durationMs, event.outcome !== 'ok');
      }
    });
  }

  /** Misses first (nothing found, then found but not called), newest first within each. */
  recentSearches(): RecentSearch[] {
    const rank = (s: RecentSearch) => (s.resultCount === 0 ? 0 : s.followed ? 2 : 1);
    return [...this.searches]
      .sort((a, b) => rank(a) - rank(b) || b.time - a.time)
      .map(({ id: _id, ...search }) => ({ ...search }));
  }

  serverCalls(): ServerCalls[] {
    return [...this.calls.entries()]
      .map(([server, c]) => {
        const sorted = [...c.samples].sort((a, b) => a - b);
        const at = (p: number) =>
          Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 10) / 10;
        return { server, calls: c.calls, errors: c.errors, p50Ms: at(0.5), p99Ms: at(0.99) };
      })
      .sort((a, b) => a.server.localeCompare(b.server));
  }

  close(): void {
    this.unsubscribe();
  }

  private recordCall(server: string, durationMs: number, failed: boolean): void {
    let entry = this.calls.get(server);
    if (!entry) {
      entry = { calls: 0, errors: 0, samples: [], next: 0 };
      this.calls.set(server, entry);
    }
    entry.calls++;
    if (failed) entry.errors++;
    const cap = this.limits.samples ?? 500;
    if (entry.samples.length < cap) entry.samples.push(durationMs);
    else entry.samples[entry.next] = durationMs;
    entry.next = (entry.next + 1) % cap;
  }
}
