/**
 * G10 — the hub's trust gate: holds the pins document in memory, so a server's listing is judged
 * at once (no I/O on the listing's path), writes what changed to the pin store in the background,
 * and hears approvals made elsewhere (`toolsearch tools approve`, another replica), after which the
 * hub applies every server's last listing again: an approved tool enters the catalog, and every
 * session hears it as list_changed.
 *
 * Decisions are the pure rules of trust/pins.ts; this file only keeps state and order.
 */
import { canonicalJson, definitionHash } from '../trust/definition.js';
import type { ListedTool } from '../trust/definition.js';
import {
  emptyPins,
  type HeldVersion,
  heldOf,
  type NewServerRule,
  type PinsDocument,
  reviewServer,
  withBaseline,
} from '../trust/pins.js';
import type { ToolOwners } from '../trust/scanner.js';
import { errorMessage } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
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

export class TrustGate {
  private doc: PinsDocument = emptyPins();
  private writes: Promise<void> = Promise.resolve();
  private readonly pending: ((doc: PinsDocument) => PinsDocument)[] = [];
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

  /** Judge a server's listing; returns its held tools by their own name. */
  review(server: string, config: ServerConfig, tools: readonly ListedTool[], owners: ToolOwners) {
    const input = {
      server,
      config: configFingerprint(config),
      tools,
      owners,
      newServers: this.newServers,
      now: this.now(),
    };
    const before = heldOf(this.doc, server);
    const review = reviewServer(this.doc, input);
    const newlyHeld = [...review.held].filter(([tool, held]) => before.get(tool)?.hash !== held.hash);
    for (const [tool, held] of newlyHeld)
      this.emit({ action: 'held', server, tool, reason: held.reason, ...detailOf(held) });
    // One line per tool, but a server of thousands waiting for approval is one line, not thousands.
    const names = newlyHeld.map(([tool, held]) => `"${tool}" (${held.reason})`);
    if (names.length > 0)
      this.logger.warn(
        `"${server}": ${names.length > 3 ? `${names.length} tools are` : `tool ${names.join(', ')}`} held; see "toolsearch tools diff ${server}"`,
      );
    if (review.doc !== this.doc) {
      this.doc = review.doc;
      // The same rules applied to the newest stored document: an approval made meanwhile stays.
      this.persist((doc) => reviewServer(doc, input).doc);
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
    let fresh: PinsDocument;
    try {
      fresh = await this.backend.read();
    } catch (error) {
      this.logger.warn(`reading the tool pins (${this.backend.display}) failed: ${errorMessage(error)}`);
      return;
    }
    if (JSON.stringify(fresh) === JSON.stringify(this.doc)) return;
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
    if (this.pending.length > 1) return;
    this.writes = this.writes
      .then(() => {
        const changes = this.pending.splice(0);
        return this.backend.update((doc) => changes.reduce((next, apply) => apply(next), doc));
      })
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.warn(`writing the tool pins (${this.backend.display}) failed: ${errorMessage(error)}`),
      );
  }

  private emit(event: TrustEvent): void {
    for (const listener of this.eventListeners) listener(event);
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
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
