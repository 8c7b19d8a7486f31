/**
 * G10 — the hub's trust gate: holds the pins document in memory, so a server's listing is judged
 * at once (no I/O on the listing's path), writes what changed to the pin store in the background,
 * and hears approvals made elsewhere (`toolsearch tools approve`, another replica), after which the
 * hub applies every server's last listing again: an approved tool enters the catalog, and every
 * session hears it as list_changed.
 *
 * Decisions are the pure rules of trust/pins.ts; this file only keeps state and order.
 */
import { DEFAULT_LIMITS } from '../core/limits.js';
import { canonicalJson, definitionHash } from '../trust/definition.js';
import type { ListedTool } from '../trust/definition.js';
import {
  emptyPins,
  type HashedTool,
  type HeldVersion,
  type NewServerRule,
  type PinsDocument,
  type Review,
  reviewMemo,
  reviewServer,
  reviewSteps,
  type ServerRecord,
  withBaseline,
} from '../trust/pins.js';
import type { ToolOwners } from '../trust/scanner.js';
import { errorMessage } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { sameJson } from '../util/same-json.js';
import { eachStep, runInSlices } from '../util/slices.js';
import type { ServerConfig } from './config.js';
import type { PinBackend } from './pin-store.js';

/** A hold or an approval, for the audit log and the metrics. */
export interface TrustEvent {
  readonly action: 'held' | 'approved';
  readonly server: string;
  readonly tool: string;
  readonly reason?: HeldVersion['reason'];
  /** The first finding's line, when the scanner found something. */
  readonly detail?: string;
}

export interface TrustGateOptions {
  /** `toolSearch.trust.newServers`: a server added after the first run is trusted (default) or waits. */
  readonly newServers?: NewServerRule;
  readonly logger?: Logger;
  readonly now?: () => Date;
}

/**
 * Reviews of one listing run again while the pins change under them (approvals read meanwhile);
 * past this many the last one stands (the stored document still gets the rules applied anew).
 */
const MAX_REVIEW_TRIES = 5;

/** Config keys that do not change which server answers (timeouts, deferral, the tools section). */
const NOT_IDENTITY = new Set([
  'tools',
  'trust',
  'timeoutMs',
  'callTimeoutMs',
  'defer',
  'alwaysLoad',
  'disabled',
  'roots',
  'isolation',
]);

/** What identifies a server's entry: an operator who edits it (another command, URL, env) starts its pins afresh. */
export function configFingerprint(config: ServerConfig): string {
  const identity = Object.fromEntries(Object.entries(config).filter(([key]) => !NOT_IDENTITY.has(key)));
  return definitionHash({ name: canonicalJson(identity) });
}

export interface ReviewOptions {
  /** Run in slices of this long (ms; `listingSliceMs`). */
  readonly sliceMs?: number;
  /** The tool of the server's previous listing a listed tool is exactly equal to, if any. */
  readonly sameAs?: (tool: ListedTool) => ListedTool | undefined;
}

export class TrustGate {
  private doc: PinsDocument = emptyPins();
  /** Per server, the hashes of its last listing's tools (by the listed tool object). */
  private readonly hashes = new Map<string, WeakMap<ListedTool, HashedTool>>();
  private writes: Promise<void> = Promise.resolve();
  private readonly pending: ((doc: PinsDocument) => PinsDocument)[] = [];
  /** Changes queued or being written; a refresh meanwhile waits for them (`refreshWanted`). */
  private unwritten = 0;
  private refreshWanted = false;
  private readonly changeListeners = new Set<() => void>();
  private readonly eventListeners = new Set<(event: TrustEvent) => void>();
  private readonly logger: Logger;
  private readonly newServers: NewServerRule;
  private unwatch: (() => void) | undefined;
  /** Whether the pins were read: until then no listing may be judged. */
  private loadedNow = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private markLoaded: () => void = () => undefined;
  private deferred: Promise<void> | undefined;
  /** Resolves once the pins were read; the hub starts its servers only then (hub.ts). */
  readonly ready: Promise<void> = new Promise((resolve) => (this.markLoaded = resolve));

  constructor(
    readonly backend: PinBackend,
    private readonly options: TrustGateOptions = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.newServers = options.newServers ?? 'trust';
  }

  /** Read the pins, take the configured servers as the first run's when there are none, and start listening. */
  async load(servers: readonly { name: string; config: ServerConfig }[]): Promise<void> {
    const configured = servers.map((s) => ({ name: s.name, config: configFingerprint(s.config) }));
    this.doc = await this.backend.update((doc) => withBaseline(doc, configured, this.now()));
    this.unwatch ??= this.backend.watch(() => void this.refresh());
    this.loadedNow = true;
    this.markLoaded();
  }

  /**
   * G10/G6: until the pins are read, `work` waits for them (once, however often this is asked) and
   * this answers true; once they are read it answers false and the caller goes on at once.
   */
  deferUntilLoaded(work: () => void): boolean {
    if (this.loadedNow) return false;
    this.deferred ??= this.ready.then(work);
    return true;
  }

  /**
   * G6: `load()`, and when the store cannot be read (the replicas' Redis is down at start), keep
   * trying every `retryMs` instead of failing: the gateway starts as it does without trust (its
   * requests get 503 until Redis is back), and its servers start once the pins are read (`ready`).
   */
  async loadOrRetry(servers: readonly { name: string; config: ServerConfig }[], retryMs = 1_000): Promise<void> {
    try {
      await this.load(servers);
      return;
    } catch (error) {
      this.logger.warn(
        `the tool pins (${this.backend.display}) cannot be read: ${errorMessage(error)}; no server starts until they can`,
      );
    }
    const again = () => {
      this.retryTimer = undefined;
      if (this.closed) return;
      this.load(servers).then(
        () => this.logger.info(`the tool pins (${this.backend.display}) were read; servers start`),
        () => {
          if (!this.closed) this.retryTimer = setTimeout(again, retryMs).unref();
        },
      );
    };
    this.retryTimer = setTimeout(again, retryMs).unref();
  }

  /**
   * Judge a server's listing; returns its held tools by their own name. G5: in slices of
   * `sliceMs` (a listing of 20,000 tools is hashed and scanned with the event loop free between
   * slices), against the newest pins: when they changed meanwhile (an approval was read, another
   * listing of this server was judged) the review runs again, with what it computed kept.
   */
  async review(
    server: string,
    config: ServerConfig,
    tools: readonly ListedTool[],
    owners: ToolOwners,
    { sliceMs = DEFAULT_LIMITS.listingSliceMs, sameAs }: ReviewOptions = {},
  ): Promise<ReadonlyMap<string, HeldVersion>> {
    const last = this.hashes.get(server);
    const earlier =
      last && sameAs
        ? (tool: ListedTool) => {
            const before = sameAs(tool);
            return before && last.get(before);
          }
        : undefined;
    const memo = reviewMemo(earlier);
    const input = {
      server,
      config: configFingerprint(config),
      tools,
      owners,
      newServers: this.newServers,
      now: this.now(),
      memo,
    };
    let review: Review;
    let base: ServerRecord | undefined;
    let tries = 0;
    do {
      base = this.doc.servers[server];
      review = await runInSlices(reviewSteps(this.doc, input), sliceMs);
    } while (this.doc.servers[server] !== base && ++tries < MAX_REVIEW_TRIES);
    const report = (tool: string) => {
      const held = review.held.get(tool)!;
      this.emit({ action: 'held', server, tool, reason: held.reason, ...detailOf(held) });
    };
    await runInSlices(eachStep(review.newlyHeld, report), sliceMs);
    // One line per tool, but a server of thousands waiting for approval is one line, not thousands.
    const names = review.newlyHeld.map((tool) => `"${tool}" (${review.held.get(tool)!.reason})`);
    if (names.length > 0)
      this.logger.warn(
        `"${server}": ${names.length > 3 ? `${names.length} tools are` : `tool ${names.join(', ')}`} held; see "toolsearch tools diff ${server}"`,
      );
    // The next listing's tools listed exactly so again are not hashed again (a re-list of 20,000).
    this.hashes.set(server, memo.hashes);
    const record = review.doc.servers[server];
    if (record !== base && record !== undefined) {
      // Only this server's record: other servers' listings may have been judged meanwhile.
      this.doc = withRecord(this.doc, server, record);
      // Stored over the record it was judged against; over another (an approval made meanwhile),
      // the same rules are applied to the newest stored document, so the approval stays.
      this.persist((doc) =>
        sameJson(doc.servers[server], base) ? withRecord(doc, server, record) : reviewServer(doc, input).doc,
      );
    }
    return review.held;
  }

  isHeld(server: string, tool: string): boolean {
    return this.doc.servers[server]?.tools[tool]?.held !== undefined;
  }

  /** The pins as this gateway holds them now. */
  get document(): PinsDocument {
    return this.doc;
  }

  /** Runs after an approval (or any change) made elsewhere was read. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onEvent(listener: (event: TrustEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Waits for the writes queued so far (tests, shutdown). */
  async flush(): Promise<void> {
    await this.writes;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.unwatch?.();
    this.unwatch = undefined;
    await this.flush();
  }

  /** Read the store again; approvals found there are reported and the hub re-applies its listings. */
  async refresh(): Promise<void> {
    // While changes of ours are still on their way, the store may hold an older state than this
    // gateway's (the watcher fired for an earlier write): read it once they have landed.
    if (this.deferRefresh()) return;
    let fresh: PinsDocument;
    try {
      fresh = await this.backend.read();
    } catch (error) {
      this.logger.warn(`reading the tool pins (${this.backend.display}) failed: ${errorMessage(error)}`);
      return;
    }
    // Compared in place, not as two JSON texts: a document of 20,000 pins is tens of megabytes.
    if (this.deferRefresh() || sameJson(fresh, this.doc)) return;
    for (const event of approvals(this.doc, fresh)) {
      this.logger.info(`"${event.server}": tool "${event.tool}" approved`);
      this.emit(event);
    }
    this.doc = fresh;
    for (const listener of this.changeListeners) listener();
  }

  /**
   * Changes wait for the write in progress and then go out together: at start-up, thousands of
   * servers listing at once make a few writes of the document, not one per server.
   */
  private persist(change: (doc: PinsDocument) => PinsDocument): void {
    this.pending.push(change);
    this.unwritten++;
    if (this.pending.length > 1) return;
    this.writes = this.writes.then(async () => {
      const changes = this.pending.splice(0);
      try {
        await this.backend.update((doc) => changes.reduce((next, apply) => apply(next), doc));
      } catch (error) {
        this.logger.warn(`writing the tool pins (${this.backend.display}) failed: ${errorMessage(error)}`);
      } finally {
        this.unwritten -= changes.length;
        if (this.unwritten === 0 && this.refreshWanted && !this.closed) {
          this.refreshWanted = false;
          void this.refresh();
        }
      }
    });
  }

  /** Whether a refresh must wait for this gateway's own writes (it is then run after them). */
  private deferRefresh(): boolean {
    if (this.unwritten === 0) return false;
    this.refreshWanted = true;
    return true;
  }

  private emit(event: TrustEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

/** The document with one server's record replaced. */
function withRecord(doc: PinsDocument, server: string, record: ServerRecord): PinsDocument {
  return { ...doc, servers: { ...doc.servers, [server]: record } };
}

function detailOf(held: HeldVersion): { detail?: string } {
  const first = held.findings.find((f) => f.severity === 'high') ?? held.findings[0];
  return first ? { detail: first.message } : {};
}

/** Tools held in `before` whose held hash is pinned in `after`: approved elsewhere. */
function approvals(before: PinsDocument, after: PinsDocument): TrustEvent[] {
  const events: TrustEvent[] = [];
  for (const [server, record] of Object.entries(before.servers)) {
    for (const [tool, entry] of Object.entries(record.tools)) {
      if (!entry.held) continue;
      const now = after.servers[server]?.tools[tool];
      if (now?.pinned?.hash === entry.held.hash && !now.held) events.push({ action: 'approved', server, tool });
    }
  }
  return events;
}
