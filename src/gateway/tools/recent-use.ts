/**
 * E5 — per session, when it last loaded or called each of its tools (so a bounded working set lets
 * go of the ones unused the longest), and which tools a search listed without loading (calling one
 * of those loads it: the model saw its signature). Kept per process and dropped when the session
 * closes: a session resumed on another replica starts with every tool equally old (load order
 * decides) and searches again for what it was only shown.
 */
export class RecentUse {
  private tick = 0;
  private readonly sessions = new Map<string, Map<string, number>>();
  private readonly listed = new Map<string, Set<string>>();

  /** Remember names a search listed (at most MAX_LISTED per session, oldest forgotten first). */
  offer(sessionId: string, names: readonly string[]): void {
    if (names.length === 0) return;
    let set = this.listed.get(sessionId);
    if (!set) this.listed.set(sessionId, (set = new Set()));
    for (const name of names) {
      set.delete(name);
      set.add(name);
    }
    for (const old of set) {
      if (set.size <= MAX_LISTED) break;
      set.delete(old);
    }
  }

  wasListed(sessionId: string, name: string): boolean {
    return this.listed.get(sessionId)?.has(name) === true;
  }

  touch(sessionId: string, names: Iterable<string>): void {
    let used = this.sessions.get(sessionId);
    for (const name of names) {
      if (!used) this.sessions.set(sessionId, (used = new Map()));
      used.set(name, ++this.tick);
    }
  }

  of(sessionId: string): ReadonlyMap<string, number> {
    return this.sessions.get(sessionId) ?? EMPTY;
  }

  forget(sessionId: string, names?: Iterable<string>): void {
    if (!names) {
      this.sessions.delete(sessionId);
      this.listed.delete(sessionId);
      return;
    }
    const used = this.sessions.get(sessionId);
    for (const name of names) used?.delete(name);
  }
}

const EMPTY: ReadonlyMap<string, number> = new Map();
/** Listed names a session remembers: a few searches' worth. */
const MAX_LISTED = 100;
