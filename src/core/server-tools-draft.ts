/**
 * A3/G2 — a server's next tools, prepared apart from the pool and applied at once
 * (`Catalog.commitServerTools`). Preparing is the costly part of a listing (admitting each tool,
 * comparing it with the one the pool holds under its name); apart from the pool it can run in
 * slices while the pool keeps serving the previous tools. A tool listed again unchanged keeps
 * the spec the pool holds (the same object), so committing an unchanged listing changes nothing:
 * no snapshot, index or cache keyed by the pool's identity is rebuilt.
 */
import type { ToolInput, ToolOrigin, ToolSpec } from './tool.js';

export class ServerToolsDraft {
  /** Every tool of the listing, in order: new specs, or the pool's own for the unchanged. */
  readonly specs: ToolSpec[] = [];
  /** The inputs as given (a commit against a pool that changed meanwhile starts from them). */
  readonly inputs: Omit<ToolInput, 'origin'>[] = [];
  /** Names the pool held with another definition. */
  readonly changed: string[] = [];
  /** The pool's own specs the draft keeps (unchanged): all of them and nothing else means nothing to apply. */
  private readonly kept = new Set<ToolSpec>();
  /** One origin object for the server's tools (read-only): 50k tools held 50k equal copies. */
  private readonly origin: ToolOrigin;

  constructor(
    readonly server: string,
    /** The server's tools in the pool when drafted. */
    private readonly base: ReadonlyMap<string, ToolSpec>,
    /** The pool's revision of this server's tools when drafted. */
    readonly revision: number,
    private readonly pool: DraftPool,
  ) {
    this.origin = { kind: 'mcp', server };
  }

  /**
   * Admit one listed tool (throws for one the pool cannot take, as `setServerTools` does). The
   * very input the pool's spec was made from is that spec again, without admitting it anew.
   * `name`: the name admitting it gives, when the caller knows it already.
   */
  add(input: Omit<ToolInput, 'origin'>, name = this.pool.nameOf({ ...input, origin: this.origin })): void {
    this.inputs.push(input);
    const mine = this.base.get(name);
    if (mine && this.pool.madeFrom.get(mine) === input) return void this.keep(mine);
    const spec = this.pool.admit({ ...input, origin: this.origin });
    const held = this.base.get(spec.name);
    const changed = held !== undefined && definitionChanged(held, spec);
    if (changed) this.changed.push(spec.name);
    if (held && !changed) return void this.keep(held);
    this.pool.madeFrom.set(spec, input);
    this.specs.push(spec);
  }

  /** Whether the draft is the pool's tools exactly (same specs, none added or dropped). */
  get unchanged(): boolean {
    return this.kept.size === this.specs.length && this.kept.size === this.base.size;
  }

  private keep(spec: ToolSpec): void {
    this.specs.push(spec);
    this.kept.add(spec);
  }
}

/** What a draft reads of its pool. */
export interface DraftPool {
  admit(input: ToolInput): ToolSpec;
  /** The name `admit` gives an input, without admitting it. */
  nameOf(input: ToolInput): string;
  /** The input each spec of an MCP server was made from (a listing's next draft may bring it again). */
  readonly madeFrom: WeakMap<ToolSpec, object>;
}

/**
 * Whether a re-listed tool differs from what the pool held under the same name. Compared as JSON
 * of everything a client or the ranker sees (the handler is not data and is left out).
 */
function definitionChanged(a: ToolSpec, b: ToolSpec): boolean {
  const view = (t: ToolSpec) =>
    JSON.stringify([
      t.description,
      t.inputSchema,
      t.searchHint,
      t.alwaysLoad,
      t.defer,
      t.critical,
      t.originalName,
      t.meta,
      t.mcpFields,
      t.inputSchemaDialect,
    ]);
  return view(a) !== view(b);
}
