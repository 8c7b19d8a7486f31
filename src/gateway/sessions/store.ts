/**
 * D4 — per-session discovered sets. A cache of what the session's conversation loaded, behind an
 * async interface so a shared store (Redis, …) can implement it when one process is not enough.
 */
export interface SessionRecord {
  /** Names (model-facing) this session loaded through search, in load order. */
  readonly discovered: readonly string[];
}

export interface SessionStore {
  /**
   * True when other gateway processes use the same store. A shared session is removed only when
   * its client ends it (HTTP DELETE) or by the store's own expiry, never because one process
   * closed its local connection (it may live on in another process).
   */
  readonly shared?: boolean;
  /**
   * Record that a session exists (before it discovers anything), so another gateway process
   * sharing the store can resume it. Optional: a store without it knows sessions from their
   * first discovery on.
   */
  open?(sessionId: string): Promise<void>;
  /** The session's record; undefined for a session the store does not know. */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /**
   * Add names; resolves to the ones that were not there before. A shared store rejects with
   * `SessionGoneError` for a session it does not know (deleted, expired, lost): writing it back
   * would resurrect a session its client ended.
   */
  addDiscovered(sessionId: string, names: Iterable<string>): Promise<string[]>;
  /** E5: drop names a bounded working set unloaded; the others keep their load order. Optional: without it nothing unloads. */
  removeDiscovered?(sessionId: string, names: Iterable<string>): Promise<void>;
  /**
   * The client ended the session. A shared store keeps a tombstone (with its TTL) so no process
   * sharing it can open, resume or extend the session again.
   */
  delete(sessionId: string): Promise<void>;
  /** True when `delete` ended this session (its tombstone is still there); for log messages. */
  wasDeleted?(sessionId: string): Promise<boolean>;
}

export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Set<string>>();

  async open(sessionId: string): Promise<void> {
    if (!this.sessions.has(sessionId)) this.sessions.set(sessionId, new Set());
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const set = this.sessions.get(sessionId);
    return set ? { discovered: [...set] } : undefined;
  }

  async addDiscovered(sessionId: string, names: Iterable<string>): Promise<string[]> {
    let set = this.sessions.get(sessionId);
    if (!set) this.sessions.set(sessionId, (set = new Set()));
    const added: string[] = [];
    for (const name of names) {
      if (!set.has(name)) {
        set.add(name);
        added.push(name);
      }
    }
    return added;
  }

  async removeDiscovered(sessionId: string, names: Iterable<string>): Promise<void> {
    const set = this.sessions.get(sessionId);
    for (const name of names) set?.delete(name);
  }

  async delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  get size(): number {
    return this.sessions.size;
  }
}
