/**
 * G2/G5/G7 — what the hub writes into the catalog and the feature aggregate for one server: its
 * tools through the admission rules, its self-description as search evidence, and refreshes after
 * `list_changed` — serialized per server (an older list never overwrites a newer one) and gated
 * (one waiting refresh of each kind, no closer than refreshMinGapMs).
 */
import type { Catalog } from '../core/catalog.js';
import type { Limits } from '../core/limits.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { sameJson } from '../util/same-json.js';
import { eachStep, runInSlices, type Steps } from '../util/slices.js';
import { type AdmittedTool, admissionSteps, untrustedText } from './admission.js';
import { fetchServerFeatures, type FeatureKind, type McpAggregate } from './aggregate.js';
import type { HubConfig } from './config.js';
import type { McpConnection, UpstreamTool } from './connection.js';
import { withTimeout } from './deadlines.js';
import { RefreshGate } from './refresh-gate.js';
import { type ListKind, ListTtlTimers } from './list-ttl.js';
import type { ServerEntry } from './server-entry.js';
import type { ReviewOptions, TrustGate } from './trust-gate.js';
import { UpstreamError } from './errors.js';
import { heldCallRefusal } from '../trust/messages.js';
import { ToolOwnersIndex } from '../trust/scanner.js';
import { plural } from '../core/plural.js';

export interface CatalogFeedDeps {
  readonly catalog: Catalog;
  readonly features: McpAggregate;
  readonly limits: Limits;
  readonly logger: Logger;
  /** The config in force (reload replaces it). */
  config(): HubConfig;
  /** G10: pins and the scanner's holds (absent: trust is off). */
  readonly trust?: TrustGate;
}

export class CatalogFeed {
  private readonly refreshGates = new Map<string, RefreshGate>();
  /** G10: each server's last listing, applied again when an approval arrives. */
  private readonly listings = new Map<string, UpstreamTool[]>();
  /** G10: every server's listed tool names, for the scanner's shadowing rule. */
  private readonly owners = new ToolOwnersIndex();
  /** G5: each server's last applied listing, by tool name: the tool as listed and what admission made of it. */
  private readonly previous = new Map<string, { entry: ServerEntry; tools: ReadonlyMap<string, Earlier> }>();
  /** G12: each server's lists re-listed when the TTL it gave them runs out (list-ttl.ts). */
  private readonly ttl: ListTtlTimers;

  constructor(private readonly deps: CatalogFeedDeps) {
    this.ttl = new ListTtlTimers(deps.limits);
  }

  /**
   * G12: re-list `kind` when the `ttlMs` the server gave its last list of it runs out, through the
   * refresh a `list_changed` starts (the same gate; tools through the same trust review).
   */
  armRelist(entry: ServerEntry, connection: McpConnection, kind: ListKind): void {
    this.ttl.arm(entry.name, kind, connection.listTtlMs?.(kind), () => {
      if (entry.connection !== connection || entry.state !== 'connected') return;
      this.deps.logger.debug(`"${entry.name}": its ${kind} list is past the ttlMs it gave; listing again`);
      if (kind === 'tools') this.scheduleRefresh(entry, connection);
      else this.scheduleFeatureRefresh(entry, connection, kind);
    });
  }

  /** G12: the shortest re-list interval an upstream's TTL put in force for `kind` (undefined: none). */
  shortestTtlMs(kind: ListKind, servers?: ReadonlySet<string>): number | undefined {
    return this.ttl.shortestMs(kind, servers);
  }

  close(): void {
    this.ttl.clear();
  }

  /** C12: the server's title/instructions go to the catalog as search evidence (third-party text). */
  recordServerInfo(server: string, connection: McpConnection): void {
    const info = connection.serverInfo?.();
    const title = typeof info?.title === 'string' ? this.untrusted(info.title) : undefined;
    const description = typeof info?.instructions === 'string' ? this.untrusted(info.instructions) : undefined;
    this.deps.catalog.setServerInfo(server, {
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
    });
  }

  /**
   * G5/G7: the tools the admission rules let in replace the server's; what they hide is remembered.
   * G5: a listing is judged (pins, scanner), admitted and drafted in slices of `listingSliceMs`,
   * the catalog serving the previous tools meanwhile, and committed at once; a listing that is
   * stale by then (`current()` false: its connection dropped or was replaced) is not committed.
   * Queued behind the server's refreshes, so an older listing never overwrites a newer one.
   */
  applyTools(entry: ServerEntry, tools: UpstreamTool[], current: () => boolean = () => true): Promise<void> {
    const applied = entry.refresh.then(() => this.apply(entry, tools, current));
    entry.refresh = applied.catch(() => undefined);
    return applied;
  }

  private async apply(entry: ServerEntry, tools: UpstreamTool[], current: () => boolean): Promise<void> {
    const slice = this.deps.limits.listingSliceMs;
    // G5: what the server lists exactly as before (under the same entry) is not hashed or admitted anew.
    const previous = this.previous.get(entry.name);
    const same = previous
      ? await runInSlices(sameTools(previous.tools, tools), slice)
      : new Map<UpstreamTool, Earlier>();
    const held = await this.trustReview(entry, tools, {
      sliceMs: slice,
      sameAs: (tool) => same.get(tool as UpstreamTool)?.tool,
    });
    if (!current()) return;
    const allow = this.deps.config().toolSearch.allow;
    const admitted = (tool: UpstreamTool) => (previous?.entry === entry ? same.get(tool)?.admitted : undefined);
    const admission = admissionSteps(
      {
        ...(held && { held }),
        ...(allow && { allow }),
        server: entry.name,
        config: entry.config,
        rules: entry.rules,
        globalAlwaysLoad: this.deps.config().toolSearch.alwaysLoad ?? [],
        limits: this.deps.limits,
        catalog: this.deps.catalog,
        logger: this.deps.logger,
        earlier: admitted,
      },
      tools,
    );
    const { hidden, byListedName } = await runInSlices(admission, slice);
    if (!current()) return;
    const draft = this.deps.catalog.draftServerTools(entry.name);
    await runInSlices(
      eachStep(byListedName.values(), ({ name, input }) => draft.add(input, name)),
      slice,
    );
    if (!current()) return;
    this.deps.catalog.setHiddenTools(entry.name, hidden);
    this.deps.catalog.commitServerTools(draft);
    this.listings.set(entry.name, tools);
    const listed = new Map(tools.map((tool) => [tool.name, { tool, admitted: byListedName.get(tool.name) }] as const));
    this.previous.set(entry.name, { entry, tools: listed });
    if (hidden.length > 0)
      this.deps.logger.debug(`"${entry.name}": ${plural(hidden.length, 'tool')} hidden by its tools section`);
  }

  /** G10: the trust gate's verdict on a listing (undefined: trust is off, for all or for this server). */
  private async trustReview(entry: ServerEntry, tools: UpstreamTool[], options: ReviewOptions) {
    const trust = this.deps.trust;
    if (!trust || entry.config.trust === 'off') return undefined;
    // The entry as written (`${TOKEN}`, not the token): no secret goes into its fingerprint.
    const written = this.deps.config().unexpanded?.[entry.name] ?? entry.config;
    const held = await trust.review(entry.name, written, tools, this.owners.owners, options);
    this.owners.set(
      entry.name,
      tools.map((t) => t.name),
    );
    return held;
  }

  /**
   * G10: a held tool runs for nobody, whichever path asked (the catalog leaves it out already):
   * throws UpstreamError when the trust gate holds it (never for a server with `"trust": "off"`).
   */
  refuseHeld(server: string, tool: string): void {
    const trust = this.deps.trust;
    if (trust && this.deps.config().servers[server]?.trust !== 'off' && trust.isHeld(server, tool))
      throw new UpstreamError(server, heldCallRefusal(tool));
  }

  /**
   * G10: an approval (or any change to the pins) arrived — an approval made elsewhere (CLI,
   * another replica): every connected server's last listing
   * is applied again, after any refresh already queued, so what was approved enters the catalog.
   */
  reapply(entries: Iterable<ServerEntry>): void {
    for (const entry of entries) {
      const connection = entry.connection;
      const current = () => entry.connection === connection && entry.state === 'connected';
      entry.refresh = entry.refresh
        .then(async () => {
          // The last listing when its turn comes (a refresh queued before may have brought a newer one).
          const tools = this.listings.get(entry.name);
          if (tools && current()) await this.apply(entry, tools, current);
        })
        .catch((error: unknown) =>
          this.deps.logger.warn(`"${entry.name}": applying the pins again failed: ${errorMessage(error)}`),
        );
    }
  }

  /** Third-party text as the catalog keeps it: at most `descriptionChars`, no structural tags. */
  private untrusted(text: string): string {
    return untrustedText(text, this.deps.limits);
  }

  /**
   * A server removed for good (reload) leaves no gate behind: names come and go with configs, and
   * a server added again under the same name starts with fresh gates. A refresh already queued
   * keeps its own gate and finds its server closed.
   */
  forgetServer(name: string): void {
    this.listings.delete(name);
    this.previous.delete(name);
    this.ttl.forget(name);
    this.owners.delete(name);
    for (const key of this.refreshGates.keys()) if (key.startsWith(`${name}\n`)) this.refreshGates.delete(key);
  }

  /** How many servers × list kinds have refresh gates (bounded by the servers configured now). */
  get refreshGateCount(): number {
    return this.refreshGates.size;
  }

  /** G5: one refresh of each kind waiting at most, started no closer than refreshMinGapMs (refresh-gate.ts). */
  private gate(entry: ServerEntry, kind: string): RefreshGate {
    const key = `${entry.name}\n${kind}`;
    let gate = this.refreshGates.get(key);
    if (!gate) this.refreshGates.set(key, (gate = new RefreshGate(this.deps.limits.refreshMinGapMs)));
    return gate;
  }

  scheduleRefresh(entry: ServerEntry, connection: McpConnection): void {
    const gate = this.gate(entry, 'tools');
    if (!gate.request()) return;
    entry.refresh = entry.refresh.then(async () => {
      await gate.enter();
      if (entry.connection !== connection || entry.state !== 'connected') return;
      try {
        // G5: a server whose list never ends cannot hold the refresh queue (the list walk has the
        // same deadline; this also bounds connections that do not walk pages themselves).
        const tools = await withTimeout(
          connection.listTools(),
          this.deps.limits.refreshTimeoutMs,
          `refresh timed out after ${this.deps.limits.refreshTimeoutMs} ms (limit refreshTimeoutMs); keeping the previous tools`,
        );
        const current = () => entry.connection === connection && entry.state === 'connected';
        if (current()) await this.apply(entry, tools, current);
        this.deps.logger.debug(`"${entry.name}" tools changed (${plural(tools.length, 'tool')})`);
      } catch (error) {
        this.deps.logger.warn(`"${entry.name}": refreshing tools failed: ${errorMessage(error)}`);
      }
      // G12: after a failed refresh too: the last TTL the server gave still says when to try again.
      if (entry.connection === connection && entry.state === 'connected') this.armRelist(entry, connection, 'tools');
    });
  }

  /** Same serialization as tool refreshes: an older list never overwrites a newer one. */
  scheduleFeatureRefresh(entry: ServerEntry, connection: McpConnection, kind: FeatureKind): void {
    const gate = this.gate(entry, kind);
    if (!gate.request()) return;
    entry.refresh = entry.refresh.then(async () => {
      await gate.enter();
      if (entry.connection !== connection || entry.state !== 'connected') return;
      const features = await fetchServerFeatures(connection, this.deps.logger, [kind]);
      if (entry.connection !== connection || entry.state !== 'connected') return;
      this.deps.features.setServer(entry.name, features);
      this.armRelist(entry, connection, kind);
    });
  }
}

/** A tool of a server's previous listing: as listed, and what admission made of it (absent: hidden or skipped). */
interface Earlier {
  readonly tool: UpstreamTool;
  readonly admitted: AdmittedTool | undefined;
}

/** The listed tools exactly equal to the previous listing's tool of their name (one step per tool). */
function* sameTools(
  previous: ReadonlyMap<string, Earlier>,
  tools: readonly UpstreamTool[],
): Steps<Map<UpstreamTool, Earlier>> {
  const same = new Map<UpstreamTool, Earlier>();
  for (const tool of tools) {
    const before = previous.get(tool.name);
    if (before && sameJson(before.tool, tool)) same.set(tool, before);
    yield;
  }
  return same;
}
