/**
 * D4 — per-session discovered sets. A cache of what the session's conversation loaded, behind an
 * async interface so a shared store (Redis, …) can implement it when one process is not enough.
 */
export interface SessionRecord {
  /** Names (model-facing) this session loaded through search, in load order. */
  readonly discovered: readonly string[];
}

export interface SessionStore {
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /** Add names; resolves to the ones that were not there before. */
  addDiscovered(sessionId: string, names: Iterable<string>): Promise<string[]>;
  delete(sessionId: string): Promise<void>;
}

export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Set<string>>();

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

  async delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  get size(): number {
    return this.sessions.size;
  }
}
