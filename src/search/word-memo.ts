/**
 * G5 — a per-index memo keyed by query words, bounded by entries and by key characters.
 *
 * A count bound alone is not a memory bound: a client sending a new long word each search fills
 * 10,000 entries of up to the query's length. Worse, a word cut out of a longer string can keep
 * that whole string alive (engines share the characters of a substring with its parent), so each
 * entry could hold a multi-megabyte request. This memo therefore
 * - never keeps a word longer than `maxKeyChars` (no real tool word is that long; such a word is
 *   computed each time, which for the lookups memoized here is cheap),
 * - keeps its own copy of each key (the parent string can be collected),
 * - is cleared when full by entries or by key characters (a bound, not an LRU: the memo only saves
 *   repeated work, and clearing is what keeps its cost predictable).
 */
import { ownCopy } from './text.js';

export interface WordMemoBounds {
  /** Entries kept before the memo is cleared. */
  readonly maxEntries: number;
  /** Sum of key characters kept before the memo is cleared. */
  readonly maxKeyChars: number;
  /** Longest key memoized; longer ones are computed each time. */
  readonly maxWordChars: number;
}

/** Words longer than this are ids, base64 or attacks, not words a memo needs to remember. */
export const MAX_MEMO_WORD_CHARS = 64;

export const DEFAULT_WORD_MEMO_BOUNDS: WordMemoBounds = Object.freeze({
  maxEntries: 10_000,
  // 10,000 entries of 64 characters at most is 640,000; a typical word is under 12.
  maxKeyChars: 256 * 1024,
  maxWordChars: MAX_MEMO_WORD_CHARS,
});

export class WordMemo<V> {
  private readonly entries = new Map<string, V>();
  private keyChars = 0;

  constructor(private readonly bounds: WordMemoBounds = DEFAULT_WORD_MEMO_BOUNDS) {}

  /** The memoized value of `key`, computing (and, within the bounds, keeping) it when absent. */
  get(key: string, compute: (key: string) => V): V {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    if (key.length > this.bounds.maxWordChars) return compute(key);
    // Computed from the copy: a value cut from the key (a stem) must not hold the parent either.
    const own = ownCopy(key);
    const value = compute(own);
    if (this.entries.size >= this.bounds.maxEntries || this.keyChars + key.length > this.bounds.maxKeyChars)
      this.clear();
    this.entries.set(own, value);
    this.keyChars += key.length;
    return value;
  }

  /** Entries and key characters held now (what the bounds are checked against). */
  size(): { entries: number; keyChars: number } {
    return { entries: this.entries.size, keyChars: this.keyChars };
  }

  clear(): void {
    this.entries.clear();
    this.keyChars = 0;
  }
}

/**
 * The same bounds over pairs of words, as two levels of maps: a pair seen before is found by the
 * words themselves, with no joined string built. Entries and key characters count both levels
 * together, so many first words each with a few second words cannot multiply the bound.
 */
export class PairMemo<V> {
  private readonly entries = new Map<string, Map<string, V>>();
  private count = 0;
  private keyChars = 0;

  constructor(private readonly bounds: WordMemoBounds = DEFAULT_WORD_MEMO_BOUNDS) {}

  get(first: string, second: string, compute: (first: string, second: string) => V): V {
    const known = this.entries.get(first)?.get(second);
    if (known !== undefined) return known;
    const { maxWordChars, maxEntries, maxKeyChars } = this.bounds;
    if (first.length > maxWordChars || second.length > maxWordChars) return compute(first, second);
    const ownFirst = ownCopy(first);
    const ownSecond = ownCopy(second);
    const value = compute(ownFirst, ownSecond);
    if (this.count + 2 > maxEntries || this.keyChars + first.length + second.length > maxKeyChars) this.clear();
    let after = this.entries.get(first);
    if (after === undefined) {
      this.entries.set(ownFirst, (after = new Map()));
      this.count++;
      this.keyChars += first.length;
    }
    after.set(ownSecond, value);
    this.count++;
    this.keyChars += second.length;
    return value;
  }

  size(): { entries: number; keyChars: number } {
    return { entries: this.count, keyChars: this.keyChars };
  }

  clear(): void {
    this.entries.clear();
    this.count = 0;
    this.keyChars = 0;
  }
}
