/**
 * G10 — pins: per server, the hash and text of every tool definition an operator trusts (on first
 * use, or by approving it), and the definitions held back until one does. Pure functions over one
 * plain document (`PinsDocument`); where it is stored (a state file, a shared Redis) is the
 * caller's business.
 *
 * The rules, in order, for each listed tool of a server:
 * 1. pinned and the hash is the same → used (a tool removed and listed again unchanged included);
 *    a pin of scheme 1 (made before `_meta`, `icons` and `execution` were pinned) whose hash is the
 *    listing's scheme-1 hash is the same tool: re-pinned under scheme 2 and used (definition.ts);
 * 2. pinned and the hash differs → held as `changed` (its old and new text kept for a diff);
 * 3. not pinned, on a server waiting for approval (`newServers: "quarantine"`) → held `new-server`;
 * 4. not pinned, a high-severity scanner finding → held `findings`, even on first sight;
 * 5. otherwise pinned now: trust on first use.
 */
import { drain, type Steps } from '../util/slices.js';
import {
  definitionHash,
  definitionOf,
  HASH_SCHEME,
  legacyHash,
  type ListedTool,
  parseHash,
  type ToolDefinition,
} from './definition.js';
import { diffCommand } from './commands.js';
import { type Finding, holdsOnSight, type OtherTool, scanDefinition, type ToolOwners, toolOwners } from './scanner.js';

export interface PinnedVersion {
  readonly hash: string;
  readonly definition: ToolDefinition;
  /** ISO time it was pinned (first use or approval). */
  readonly at: string;
  /** Which fields `hash` covers (definition.ts `HASH_SCHEME`); absent: scheme 1. */
  readonly scheme?: number;
}

export type HoldReason = 'changed' | 'new-server' | 'findings';

export interface HeldVersion {
  readonly hash: string;
  readonly definition: ToolDefinition;
  readonly reason: HoldReason;
  readonly findings: readonly Finding[];
  /** ISO time it was first held in this form. */
  readonly since: string;
  /** Which fields `hash` covers; absent: scheme 1. */
  readonly scheme?: number;
}

/** How many distinct held versions are remembered: two already mean "approve by hash". */
const HELD_HASHES_KEPT = 4;

export interface ToolRecord {
  pinned?: PinnedVersion;
  held?: HeldVersion;
  /**
   * The distinct texts held since the last approval (their hashes, the newest last), kept when the
   * server reverts or stops listing the tool: an approval without a hash is allowed only while
   * this holds one, so a text swapped in after the operator's review is never pinned unseen.
   */
  heldHashes?: string[];
}

export interface ServerRecord {
  /** Fingerprint of the server's entry in the config: an operator's edit starts its pins afresh. */
  config: string;
  /** `newServers: "quarantine"`: the server was added after the first run and waits for approval. */
  waiting?: boolean;
  /** By the server's own tool name. */
  tools: Record<string, ToolRecord>;
}

export interface PinsDocument {
  version: 1;
  /** When the servers of the first run were taken as trusted; servers added later are "new". */
  baseline?: string;
  servers: Record<string, ServerRecord>;
}

export type NewServerRule = 'trust' | 'quarantine';

export function emptyPins(): PinsDocument {
  return { version: 1, servers: {} };
}

/** A document read from storage, or an empty one when it is not one (never trusted blindly). */
export function parsePins(value: unknown): PinsDocument {
  if (value === null || typeof value !== 'object') return emptyPins();
  const doc = value as Partial<PinsDocument>;
  if (doc.version !== 1 || doc.servers === null || typeof doc.servers !== 'object') return emptyPins();
  return { version: 1, ...(typeof doc.baseline === 'string' && { baseline: doc.baseline }), servers: doc.servers };
}

/**
 * The first run's servers are trusted as configured (their tools still pass the scanner); after
 * that, a server the document does not know was added later. A document with a baseline is returned as is.
 */
export function withBaseline(
  doc: PinsDocument,
  servers: readonly { name: string; config: string }[],
  now: string,
): PinsDocument {
  if (doc.baseline !== undefined) return doc;
  const next = structuredClone(doc);
  next.baseline = now;
  for (const { name, config } of servers) next.servers[name] ??= { config, tools: {} };
  return next;
}

export interface ReviewInput {
  readonly server: string;
  /** The server's config fingerprint (configFingerprint in the hub). */
  readonly config: string;
  readonly tools: readonly ListedTool[];
  /** Other servers' tools, for the shadowing rule (scanner.ts `toolOwners`). */
  readonly owners: ToolOwners;
  readonly newServers: NewServerRule;
  readonly now: string;
  /** Hashes and findings already computed for this listing (a review run again on a newer document). */
  readonly memo?: ReviewMemo;
}

export interface HashedTool {
  readonly definition: ToolDefinition;
  readonly hash: string;
}

/** What a review computes per listed tool, kept for the same listing's next review. */
export interface ReviewMemo {
  readonly hashes: WeakMap<ListedTool, HashedTool>;
  /** Scanner findings by definition hash. */
  readonly findings: Map<string, Finding[]>;
  /** The hash of a tool its server listed before exactly so (a server listing the same tools again). */
  readonly earlier?: (tool: ListedTool) => HashedTool | undefined;
}

export function reviewMemo(earlier?: (tool: ListedTool) => HashedTool | undefined): ReviewMemo {
  return { hashes: new WeakMap(), findings: new Map(), ...(earlier && { earlier }) };
}

export interface Review {
  /** The document with this listing applied (the same object when nothing changed). */
  readonly doc: PinsDocument;
  /** Held tools by their own name. */
  readonly held: ReadonlyMap<string, HeldVersion>;
  /** Tools held in a form they were not held in before this listing (a hold to report). */
  readonly newlyHeld: readonly string[];
}

/**
 * Apply one server's listing to the pins: what is used, what is held, what gets pinned. Only the
 * server's own record is compared, and only the tools whose record changes are copied (a gateway
 * of thousands of servers, or a server of 20,000 tools listing again unchanged, reviews in time
 * proportional to that listing and allocates for what changed).
 */
export function reviewServer(doc: PinsDocument, input: ReviewInput): Review {
  return drain(reviewSteps(doc, input));
}

/** `reviewServer` as steps, one per listed tool, so a gateway can run it in slices (util/slices.ts). */
export function* reviewSteps(doc: PinsDocument, input: ReviewInput): Steps<Review> {
  const known = doc.servers[input.server];
  const fresh = known === undefined || known.config !== input.config;
  const base = fresh ? freshRecord(doc, known, input) : known;
  const memo = input.memo ?? reviewMemo();
  /** Tool records that differ from `base` (undefined: removed). */
  const changed = new Map<string, ToolRecord | undefined>();
  const current = (name: string) => (changed.has(name) ? changed.get(name) : base.tools[name]);
  const held = new Map<string, HeldVersion>();
  const newlyHeld: string[] = [];
  const listed = new Set<string>();
  for (const tool of input.tools) {
    listed.add(tool.name);
    const entry = current(tool.name);
    const next = reviewTool(entry, base, tool, input, memo);
    if (next !== entry) changed.set(tool.name, next);
    if (next.held) {
      held.set(tool.name, next.held);
      if (entry?.held?.hash !== next.held.hash) newlyHeld.push(tool.name);
    }
    yield;
  }
  // A held version of a tool the server no longer lists is nothing to approve; its pin stays, and
  // so does the count of versions held (a tool that vanishes and comes back with other text is
  // still approved by hash only).
  for (const name of Object.keys(base.tools)) {
    const entry = current(name);
    if (listed.has(name) || !entry?.held) continue;
    const heldHashes = heldHashesAfter(entry, entry.held.hash, true);
    changed.set(name, { ...(entry.pinned && { pinned: entry.pinned }), heldHashes });
  }
  if (!fresh && changed.size === 0) return { doc, held, newlyHeld };
  const tools = { ...base.tools };
  for (const [name, entry] of changed) {
    if (entry) tools[name] = entry;
    else delete tools[name];
  }
  const record: ServerRecord = { ...base, tools };
  return { doc: { ...doc, servers: { ...doc.servers, [input.server]: record } }, held, newlyHeld };
}

/** One listed tool's record after this listing: `entry` itself when nothing about it changes. */
function reviewTool(
  entry: ToolRecord | undefined,
  record: ServerRecord,
  tool: ListedTool,
  input: ReviewInput,
  memo: ReviewMemo,
): ToolRecord {
  const { definition, hash } = hashed(tool, memo);
  // The common case first (a pinned tool listed again unchanged), with nothing allocated for it.
  if (entry?.pinned?.hash === hash && !entry.held) return entry;
  const start = upgradedScheme1Pin(entry, hash, definition);
  const scan = () => {
    let findings = memo.findings.get(hash);
    if (!findings) memo.findings.set(hash, (findings = scanDefinition(definition, input)));
    return findings;
  };
  const hold = holdReason(start ?? {}, record, hash, scan);
  if (hold === undefined) {
    if (start?.pinned && !start.held) return start;
    const pinned = start?.pinned ?? { hash, definition, at: input.now, scheme: HASH_SCHEME };
    return { pinned, ...(start?.heldHashes && { heldHashes: start.heldHashes }) };
  }
  const was = start?.held;
  const same = was !== undefined && sameHeldVersion(was, hash, definition);
  const heldHashes = heldHashesAfter(start ?? {}, hash, same);
  const since = same ? was.since : input.now;
  const unchanged =
    was?.hash === hash &&
    was.scheme === HASH_SCHEME &&
    was.reason === hold.reason &&
    sameFindings(was, hold) &&
    start?.heldHashes?.join() === heldHashes.join();
  if (unchanged) return start!;
  const held = { hash, definition, reason: hold.reason, findings: hold.findings, since, scheme: HASH_SCHEME };
  return { ...start, heldHashes, held };
}

function hashed(tool: ListedTool, memo: ReviewMemo): HashedTool {
  let known = memo.hashes.get(tool);
  if (!known) {
    known = memo.earlier?.(tool);
    if (!known) {
      const definition = definitionOf(tool);
      known = { definition, hash: definitionHash(definition) };
    }
    memo.hashes.set(tool, known);
  }
  return known;
}

function sameFindings(a: { findings: readonly Finding[] }, b: { findings: readonly Finding[] }): boolean {
  return a.findings.length === b.findings.length && JSON.stringify(a.findings) === JSON.stringify(b.findings);
}

/** A server the pins do not know, or whose config an operator changed, starts afresh. */
function freshRecord(doc: PinsDocument, known: ServerRecord | undefined, input: ReviewInput): ServerRecord {
  const addedLater = doc.baseline !== undefined || known !== undefined;
  return {
    config: input.config,
    ...(addedLater && input.newServers === 'quarantine' && { waiting: true }),
    tools: {},
  };
}

/**
 * A scheme-1 pin (before `_meta`, `icons` and `execution` were pinned) whose hash is this listing's
 * scheme-1 hash is the same tool: pinned again under scheme 2 with the listing's whole definition,
 * keeping when it was pinned. What those three fields held at the upgrade is trusted (first use).
 */
function upgradedScheme1Pin(
  entry: ToolRecord | undefined,
  hash: string,
  definition: ToolDefinition,
): ToolRecord | undefined {
  const pinned = entry?.pinned;
  if (!pinned || pinned.scheme !== undefined || pinned.hash === hash) return entry;
  if (pinned.hash !== legacyHash(definition)) return entry;
  return { ...entry, pinned: { ...pinned, hash, definition, scheme: HASH_SCHEME } };
}

/** The held text is this one (a scheme-1 held hash compared as scheme 1). */
function sameHeldVersion(held: HeldVersion, hash: string, definition: ToolDefinition): boolean {
  return held.hash === hash || (held.scheme === undefined && held.hash === legacyHash(definition));
}

/** The held hashes with `hash` counted (a scheme-1 held hash, the same text, is replaced by it). */
function heldHashesAfter(entry: ToolRecord, hash: string, sameAsHeld: boolean): string[] {
  const known = entry.heldHashes ?? (entry.held ? [entry.held.hash] : []);
  const hashes = sameAsHeld && entry.held ? known.map((h) => (h === entry.held!.hash ? hash : h)) : known;
  return hashes.includes(hash) ? hashes : [...hashes, hash].slice(-HELD_HASHES_KEPT);
}

function holdReason(
  entry: ToolRecord,
  record: ServerRecord,
  hash: string,
  scan: () => Finding[],
): { reason: HoldReason; findings: Finding[] } | undefined {
  if (entry.pinned) return entry.pinned.hash === hash ? undefined : { reason: 'changed', findings: scan() };
  const findings = scan();
  if (record.waiting) return { reason: 'new-server', findings };
  if (holdsOnSight(findings)) return { reason: 'findings', findings };
  return undefined;
}

export interface Approval {
  readonly doc: PinsDocument;
  /** Tools pinned by this approval (their own names) and the hash each was pinned with. */
  readonly approved: readonly { readonly tool: string; readonly hash: string }[];
  /** Why nothing was approved, one line per tool (empty when the approval went through). */
  readonly refused: readonly string[];
}

export interface ApprovalRequest {
  readonly server: string;
  /** One tool (its own name), or every held tool of the server. */
  readonly tool?: string;
  /** The held hash the operator reviewed (`tools diff` prints it); only with `tool`. */
  readonly hash?: string;
  readonly now: string;
}

/**
 * Pin what is held for a server (one tool, or all of them, which also ends the server's wait for
 * approval), exactly the text held: a later change is held again. All or nothing: when one tool
 * may not be approved, nothing is, and `refused` says why:
 * - with a hash: the held text must be that one (it changed since the review otherwise);
 * - without one: the tool must have been held in one version only since its last approval (a
 *   second version may be a swap after the review: the operator names the one they read).
 */
export function approve(doc: PinsDocument, request: ApprovalRequest): Approval {
  const next = structuredClone(doc);
  const record = next.servers[request.server];
  if (!record) return { doc, approved: [], refused: [] };
  const approved: { tool: string; hash: string }[] = [];
  const refused: string[] = [];
  const wanted = request.hash === undefined ? undefined : parseHash(request.hash);
  if (request.hash !== undefined && wanted === undefined)
    refused.push(
      `"${request.hash}" is not a tool hash (sha256: and 64 hex digits, as "toolsearch tools diff" prints it)`,
    );
  else if (request.hash !== undefined && request.tool === undefined)
    refused.push('a hash approves one tool: name it with --tool');
  for (const [name, entry] of Object.entries(record.tools)) {
    if ((request.tool !== undefined && name !== request.tool) || !entry.held || refused.length > 0) continue;
    const why = approvalRefusal(request.server, name, entry, wanted);
    if (why !== undefined) refused.push(why);
    else approved.push({ tool: name, hash: entry.held.hash });
  }
  if (refused.length > 0) return { doc, approved: [], refused };
  for (const { tool } of approved) {
    const entry = record.tools[tool]!;
    entry.pinned = {
      hash: entry.held!.hash,
      definition: entry.held!.definition,
      at: request.now,
      ...(entry.held!.scheme !== undefined && { scheme: entry.held!.scheme }),
    };
    delete entry.held;
    delete entry.heldHashes;
  }
  if (request.tool === undefined) delete record.waiting;
  return { doc: approved.length > 0 || request.tool === undefined ? next : doc, approved, refused };
}

/** Why this held tool may not be approved as asked, or undefined when it may. */
function approvalRefusal(server: string, tool: string, entry: ToolRecord, wanted: string | undefined) {
  const held = entry.held!;
  if (wanted !== undefined && wanted !== held.hash)
    return `"${tool}" of "${server}" is held as ${held.hash} now, not the ${wanted} you reviewed: its definition changed since. Review it again with "${diffCommand(server, tool)}"`;
  const versions = entry.heldHashes?.length ?? 1;
  if (wanted === undefined && versions > 1)
    return `"${tool}" of "${server}" was held in ${versions} different versions since it was last approved, so approving it needs the hash of the one you reviewed: "${diffCommand(server, tool)}" prints it and the command to run`;
  return undefined;
}

/** One row of `toolsearch tools`. */
export interface PinRow {
  readonly server: string;
  readonly tool: string;
  readonly state: 'pinned' | 'held';
  readonly reason?: HoldReason;
  readonly hash: string;
  readonly findings: readonly Finding[];
  readonly since: string;
}

/** Every pinned and held tool, by server then name; `findings` of a pinned tool are recomputed. */
export function pinRows(doc: PinsDocument): PinRow[] {
  const rows: PinRow[] = [];
  const owners = toolOwners(otherToolsOf(doc));
  for (const server of Object.keys(doc.servers).sort()) {
    const record = doc.servers[server]!;
    for (const tool of Object.keys(record.tools).sort()) {
      const entry = record.tools[tool]!;
      if (entry.held) {
        const { reason, hash, findings, since } = entry.held;
        rows.push({ server, tool, state: 'held', reason, hash, findings, since });
      } else if (entry.pinned) {
        const findings = scanDefinition(entry.pinned.definition, { server, owners });
        rows.push({ server, tool, state: 'pinned', hash: entry.pinned.hash, findings, since: entry.pinned.at });
      }
    }
  }
  return rows;
}

/** Every pinned or held tool of every server (the shadowing rule's view when no catalog is at hand). */
export function otherToolsOf(doc: PinsDocument): OtherTool[] {
  return Object.entries(doc.servers).flatMap(([server, record]) =>
    Object.keys(record.tools).map((tool) => ({ server, tool })),
  );
}

/** Held tools of a server, by their own name. */
export function heldOf(doc: PinsDocument, server: string): Map<string, HeldVersion> {
  const held = new Map<string, HeldVersion>();
  for (const [name, entry] of Object.entries(doc.servers[server]?.tools ?? {}))
    if (entry.held) held.set(name, entry.held);
  return held;
}
