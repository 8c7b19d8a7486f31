/**
 * A3/A4 — the catalog: every tool the agent could use, keyed by its provider-safe model-facing
 * name, plus which MCP servers are still connecting. Servers come and go; each change returns the
 * delta (added/removed names) so announcements (E2) and gateways (G2) can report it.
 *
 * State only, no I/O: `mcp/hub` feeds it, everything else reads it.
 */
import { DuplicateToolError, UnknownToolError } from './errors.js';
import { admittedName, admitTool } from './admit-tool.js';
import { describeOrigin, type ServerInfo, type ToolInput, type ToolSpec } from './tool.js';
import { type DraftPool, ServerToolsDraft } from './server-tools-draft.js';
import { isModelVisible } from './visibility.js';
import type { InstallingServer } from './installing.js';

// Admitting a tool (its model-facing name) is its own file; importers of the catalog find it here too.
export { admitTool, modelFacingName } from './admit-tool.js';

export interface CatalogDelta {
  added: string[];
  removed: string[];
  /**
   * Tools that kept their name but whose definition changed (description, schema, title,
   * annotations, …): a client's `tools/list` is stale for them, so they count as a change.
   */
  changed?: string[];
}

/** C12/H3: a server whose tools are missing because it failed, and why (set by the hub). */
export interface FailedServer {
  readonly server: string;
  readonly reason: string;
}

/**
 * G7: a tool its server lists that the config hides (`tools.allow` / `tools.deny`). It is not in
 * the pool; it is remembered so a call by its name says why, and `inspect` can show what was left out.
 */
export interface HiddenTool {
  readonly server: string;
  /** The server's own name for it. */
  readonly tool: string;
  /** The model-facing name it would have had. */
  readonly name: string;
  readonly reason: string;
  /**
   * G10: `held` — waiting for an operator's approval (a changed definition, a scanner finding, a
   * new server); `policy` — a tool class this client may not use. Absent: the config's tools section.
   */
  readonly kind?: 'held' | 'policy';
  /** G10: the tool itself, when it is known (a profile's policy hides a catalog tool): a search can match it. */
  readonly spec?: ToolSpec;
  /** Its description, when only that is known: a search matches its name and this. */
  readonly description?: string;
}

/** Plain-data view of the pool that `plan()` and the search entry point read. */
export interface PoolView {
  readonly tools: readonly ToolSpec[];
  /** Servers still connecting (A4, B6, C8). */
  readonly pendingServers: readonly string[];
  /** Servers that failed, with the reason (C12): not waited for, named apart from pending ones. */
  readonly failedServers?: readonly FailedServer[];
  /** G13: the pending servers a package runner is still installing (each is in `pendingServers` too). */
  readonly installingServers?: readonly InstallingServer[];
  /** G7: tools the config hides (for reports; never searched). */
  readonly hiddenTools?: readonly HiddenTool[];
}

type Listener = (delta: CatalogDelta) => void;

export class Catalog implements PoolView {
  private readonly byName = new Map<string, ToolSpec>();
  private readonly byId = new Map<string, ToolSpec>();
  /**
   * MCP tools per server, in insertion order: a server's (re)listing reads its own tools instead of
   * copying and filtering the whole pool (at 3,775 servers × 50k tools, gigabytes of garbage that
   * grew the heap for good).
   */
  private readonly byServer = new Map<string, Map<string, ToolSpec>>();
  /** What a server's drafts read: the input each of its specs was made from (draftServerTools). */
  private readonly draftPool: DraftPool = { admit: admitTool, nameOf: admittedName, madeFrom: new WeakMap() };
  /** Per server with tools: a number no other change of the pool had, stamped at its tools' last change. */
  private readonly serverStamps = new Map<string, number>();
  private stamps = 0;
  private readonly pending = new Set<string>();
  /** G13: pending servers being installed by a package runner, with the runner and start time. */
  private readonly installing = new Map<string, Omit<InstallingServer, 'server'>>();
  private failed = new Map<string, string>();
  /** G7: per server, hidden tools by model-facing name. */
  private readonly hidden = new Map<string, ReadonlyMap<string, HiddenTool>>();
  /** Tools of a server that is initializing: deferred until it is ready (A4). */
  private readonly initializing = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private revision = 0;
  /** Replaced (never mutated) on change, so its identity is a cache key for the search index. */
  private info: ReadonlyMap<string, ServerInfo> = new Map();
  private toolsSnapshot: readonly ToolSpec[] | undefined;
  /** Tools by their server's own name (G8 upstream-name calls), built on first use after a change. */
  private upstreamIndex: Map<string, ToolSpec[]> | undefined;

  constructor(tools: Iterable<ToolInput | ToolSpec> = []) {
    for (const tool of tools) this.insert(admitTool(tool));
  }

  /** Increments on every change: a cheap cache key for anything derived from the pool. */
  get version(): number {
    return this.revision;
  }

  /**
   * The tools the model may see (G8: app-only tools are left out; `get` still finds them). The
   * same array until the next change, so caches keyed by identity (the searcher's index, the
   * gateway's announcement) hit: a fresh copy per read made every search re-sort 10k names.
   */
  get tools(): readonly ToolSpec[] {
    return (this.toolsSnapshot ??= Object.freeze([...this.byName.values()].filter(isModelVisible)));
  }

  get pendingServers(): readonly string[] {
    return [...this.pending].sort();
  }

  get installingServers(): readonly InstallingServer[] {
    return [...this.installing].sort(([a], [b]) => (a < b ? -1 : 1)).map(([server, how]) => ({ server, ...how }));
  }

  get failedServers(): readonly FailedServer[] {
    return [...this.failed].sort(([a], [b]) => (a < b ? -1 : 1)).map(([server, reason]) => ({ server, reason }));
  }

  /** G7: every hidden tool, by server then name. */
  get hiddenTools(): readonly HiddenTool[] {
    return [...this.hidden.keys()].sort().flatMap((server) => [...this.hidden.get(server)!.values()]);
  }

  /** G7: why a model-facing name is not in the pool although its server lists it, if the config hides it. */
  hiddenTool(name: string): HiddenTool | undefined {
    for (const tools of this.hidden.values()) {
      const tool = tools.get(name);
      if (tool) return tool;
    }
    return undefined;
  }

  /** G7: replace the server's hidden tools (set with its tools; no pool change, so no event). */
  setHiddenTools(server: string, tools: readonly HiddenTool[]): void {
    if (tools.length === 0) this.hidden.delete(server);
    else this.hidden.set(server, new Map(tools.map((t) => [t.name, t] as const)));
  }

  /** C12: a server failed (its tools leave the pool; it is no longer pending). */
  markFailed(server: string, reason: string): CatalogDelta {
    const removed = this.serverTools(server).map((t) => t.name);
    for (const name of removed) this.delete(name);
    this.pending.delete(server);
    this.installing.delete(server);
    const changed = this.failed.get(server) !== reason;
    if (changed) this.failed = new Map(this.failed).set(server, reason);
    return this.emit({ added: [], removed }, changed);
  }

  private clearFailed(server: string): boolean {
    if (!this.failed.has(server)) return false;
    const next = new Map(this.failed);
    next.delete(server);
    this.failed = next;
    return true;
  }

  get size(): number {
    return this.byName.size;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): ToolSpec | undefined {
    return this.byName.get(name);
  }

  /** Look up by model-facing name; throws UnknownToolError with a next step. */
  require(name: string): ToolSpec {
    const tool = this.byName.get(name);
    if (tool === undefined) throw new UnknownToolError(name);
    return tool;
  }

  /** Look up by an outside id (benchmark catalogs). */
  getById(id: string): ToolSpec | undefined {
    return this.byId.get(id);
  }

  /** Every tool of one server, those only its app may see included (G8). */
  serverTools(server: string): ToolSpec[] {
    const tools = this.byServer.get(server);
    return tools ? [...tools.values()] : [];
  }

  /**
   * G8: the tools a server lists under `name` (its own name, before qualification), every server
   * included — how a call by an upstream name (an MCP App's, a script's) finds its tool.
   */
  byUpstreamName(name: string): ToolSpec[] {
    if (this.upstreamIndex === undefined) {
      const index = new Map<string, ToolSpec[]>();
      for (const tool of this.byName.values()) {
        if (tool.origin.kind !== 'mcp') continue;
        const upstream = tool.originalName ?? tool.name;
        const tools = index.get(upstream);
        if (tools) tools.push(tool);
        else index.set(upstream, [tool]);
      }
      this.upstreamIndex = index;
    }
    return this.upstreamIndex.get(name) ?? [];
  }

  servers(): string[] {
    const names = new Set<string>();
    for (const t of this.byName.values()) if (t.origin.kind === 'mcp') names.add(t.origin.server);
    return [...names].sort();
  }

  /** What each server said about itself at initialize (title, instructions): search evidence (C12). */
  get serverInfo(): ReadonlyMap<string, ServerInfo> {
    return this.info;
  }

  /** Record a server's title/instructions; an empty info removes the entry. */
  setServerInfo(server: string, info: ServerInfo): void {
    const current = this.info.get(server);
    const empty = !info.title && !info.description;
    if (current?.title === info.title && current?.description === info.description) return;
    if (empty && !current) return;
    const next = new Map(this.info);
    if (empty) next.delete(server);
    else
      next.set(server, {
        ...(info.title && { title: info.title }),
        ...(info.description && { description: info.description }),
      });
    this.info = next;
    this.emit({ added: [], removed: [] }, true);
  }

  isServerInitializing(server: string): boolean {
    return this.initializing.has(server);
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Add local tools (or any tools). Throws DuplicateToolError before changing anything. */
  add(tools: Iterable<ToolInput | ToolSpec>): CatalogDelta {
    const specs = [...tools].map((t) => admitTool(t));
    this.checkNoDuplicates(specs, new Set());
    for (const spec of specs) this.insert(spec);
    return this.emit({ added: specs.map((s) => s.name), removed: [] });
  }

  remove(names: Iterable<string>): CatalogDelta {
    const removed: string[] = [];
    for (const name of names) if (this.delete(name)) removed.push(name);
    return this.emit({ added: [], removed });
  }

  /**
   * A server is connecting: the search tool stays available and says so (B6, C8). With `installing`
   * (G13), a package runner is installing it first; without, that install (if any) is over.
   */
  markPending(server: string, installing?: { readonly runner: string; readonly since: number }): void {
    const wasFailed = this.clearFailed(server);
    const installChanged = installing
      ? this.installing.get(server)?.since !== installing.since
      : this.installing.delete(server);
    if (installing) this.installing.set(server, { runner: installing.runner, since: installing.since });
    if (this.pending.has(server) && !wasFailed && !installChanged) return;
    this.pending.add(server);
    this.emit({ added: [], removed: [] }, true);
  }

  /** Mark a server's backend as still initializing (its tools stay deferred) or ready. */
  setInitializing(server: string, initializing: boolean): void {
    const changed = initializing ? !this.initializing.has(server) : this.initializing.delete(server);
    if (initializing) this.initializing.add(server);
    if (changed) this.emit({ added: [], removed: [] }, true);
  }

  /**
   * Replace every tool of one server (connect, reconnect, `tools/list_changed`). The server
   * stops being pending. Duplicates (also against other servers and local tools) throw before
   * anything changes.
   */
  setServerTools(server: string, tools: Iterable<Omit<ToolInput, 'origin'>>): CatalogDelta {
    const draft = this.draftServerTools(server);
    for (const tool of tools) draft.add(tool);
    return this.commitServerTools(draft);
  }

  /**
   * The same in two steps: draft the server's next tools (each `add` admits one; a caller may
   * spread them over time, the pool serving the previous tools meanwhile), then commit at once.
   */
  draftServerTools(server: string): ServerToolsDraft {
    const base = this.byServer.get(server) ?? new Map();
    return new ServerToolsDraft(server, base, this.serverRevision(server), this.draftPool);
  }

  /** The stamp of the server's tools' last change (0: it has none), to tell whether a draft's base is current. */
  private serverRevision(server: string): number {
    return this.serverStamps.get(server) ?? 0;
  }

  /**
   * Apply a draft: only what differs from the pool changes (an unchanged listing leaves every
   * spec, and so every cache keyed by the pool, in place). A draft made before the server's tools
   * changed otherwise (it failed, it was removed) is drafted again from its inputs.
   */
  commitServerTools(draft: ServerToolsDraft): CatalogDelta {
    const { server } = draft;
    if (draft.revision !== this.serverRevision(server)) return this.setServerTools(server, draft.inputs);
    if (draft.unchanged) return this.emit({ added: [], removed: [] }, this.clearPendingOrFailed(server));
    const before = this.byServer.get(server) ?? new Map<string, ToolSpec>();
    const previous = new Set(before.keys());
    this.checkNoDuplicates(draft.specs, previous);
    const now = new Set(draft.specs.map((s) => s.name));
    const removed = [...previous].filter((n) => !now.has(n));
    const added = [...now].filter((n) => !previous.has(n));
    for (const name of removed) this.delete(name);
    for (const spec of draft.specs) {
      const held = before.get(spec.name);
      if (held !== spec) this.insert(spec, held);
    }
    const wasPendingOrFailed = this.clearPendingOrFailed(server);
    const changed = draft.changed;
    return this.emit(
      { added, removed, ...(changed.length > 0 && { changed }) },
      wasPendingOrFailed || changed.length > 0,
    );
  }

  /** The server's tools are in (again): it is no longer pending (nor installing) or failed; whether it was. */
  private clearPendingOrFailed(server: string): boolean {
    const wasPending = this.pending.delete(server);
    this.installing.delete(server);
    return this.clearFailed(server) || wasPending;
  }

  /**
   * A server went away: its tools leave the pool. With `pending`, it is reconnecting; without,
   * it is gone from the config too (G7 reload), and so is what it hid.
   */
  removeServer(server: string, options: { pending?: boolean } = {}): CatalogDelta {
    const removed = this.serverTools(server).map((t) => t.name);
    if (!options.pending) this.hidden.delete(server);
    this.installing.delete(server);
    for (const name of removed) this.delete(name);
    let pendingChanged = this.clearFailed(server);
    if (options.pending) {
      pendingChanged = !this.pending.has(server) || pendingChanged;
      this.pending.add(server);
    } else {
      pendingChanged = this.pending.delete(server) || pendingChanged;
    }
    return this.emit({ added: [], removed }, pendingChanged);
  }

  private checkNoDuplicates(specs: ToolSpec[], replacing: Set<string>): void {
    const seen = new Map<string, ToolSpec>();
    for (const spec of specs) {
      const inBatch = seen.get(spec.name);
      if (inBatch) throw new DuplicateToolError(spec.name, describeOrigin(inBatch.origin), describeOrigin(spec.origin));
      const existing = this.byName.get(spec.name);
      if (existing && !replacing.has(spec.name)) {
        throw new DuplicateToolError(spec.name, describeOrigin(existing.origin), describeOrigin(spec.origin));
      }
      seen.set(spec.name, spec);
    }
  }

  /**
   * Store an admitted spec (callers admit first: admitting twice would qualify twice). `replaces`:
   * the spec of that name it takes the place of, in its position (a changed tool stays where it was).
   */
  private insert(spec: ToolSpec, replaces?: ToolSpec): ToolSpec {
    const existing = this.byName.get(spec.name);
    if (existing && existing !== replaces)
      throw new DuplicateToolError(spec.name, describeOrigin(existing.origin), describeOrigin(spec.origin));
    if (replaces?.id !== undefined) this.byId.delete(replaces.id);
    this.byName.set(spec.name, spec);
    if (spec.origin.kind === 'mcp') {
      let tools = this.byServer.get(spec.origin.server);
      if (!tools) this.byServer.set(spec.origin.server, (tools = new Map()));
      tools.set(spec.name, spec);
      this.serverStamps.set(spec.origin.server, ++this.stamps);
    }
    this.toolsSnapshot = undefined;
    this.upstreamIndex = undefined;
    if (spec.id !== undefined) this.byId.set(spec.id, spec);
    return spec;
  }

  private delete(name: string): boolean {
    const tool = this.byName.get(name);
    if (!tool) return false;
    this.byName.delete(name);
    if (tool.origin.kind === 'mcp') {
      const { server } = tool.origin;
      const tools = this.byServer.get(server);
      tools?.delete(name);
      if (tools?.size === 0) {
        this.byServer.delete(server);
        this.serverStamps.delete(server);
      } else this.serverStamps.set(server, ++this.stamps);
    }
    this.toolsSnapshot = undefined;
    this.upstreamIndex = undefined;
    if (tool.id !== undefined) this.byId.delete(tool.id);
    return true;
  }

  private emit(delta: CatalogDelta, force = false): CatalogDelta {
    if (delta.added.length === 0 && delta.removed.length === 0 && !force) return delta;
    this.revision++;
    for (const listener of this.listeners) listener(delta);
    return delta;
  }
}
