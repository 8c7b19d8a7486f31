/** G5: the ranker's per-word memos are bounded by key characters, not only by entries. */
import { describe, expect, it } from 'vitest';
import { defaultRanker, parseKeywordQuery } from '../../src/search/index.js';
import type { DefaultIndex } from '../../src/search/rank-default/scoring.js';
import { PairMemo, WordMemo } from '../../src/search/word-memo.js';
import type { ToolSpec } from '../../src/core/tool.js';

const tools: ToolSpec[] = Array.from({ length: 50 }, (_, i) => ({
  name: `tool_${i}`,
  description: `reads file ${i} from disk and writes database rows`,
  inputSchema: { type: 'object' },
  origin: { kind: 'mcp', server: `s${i % 5}` },
}));

describe('G5: word memos', () => {
  it('never keep a word longer than the word bound, and clear past the character budget', () => {
    const memo = new WordMemo<number>({ maxEntries: 1_000, maxKeyChars: 100, maxWordChars: 10 });
    expect(memo.get('x'.repeat(11), () => 1)).toBe(1);
    expect(memo.size()).toEqual({ entries: 0, keyChars: 0 });
    for (let i = 0; i < 30; i++) memo.get(`word${i}`.padEnd(10, 'z'), () => i);
    expect(memo.size().keyChars).toBeLessThanOrEqual(100);
  });

  it('pairs count both levels toward one budget', () => {
    const memo = new PairMemo<string | null>({ maxEntries: 20, maxKeyChars: 1_000, maxWordChars: 64 });
    for (let i = 0; i < 100; i++) memo.get(`first${i}`, `second${i}`, () => null);
    expect(memo.size().entries).toBeLessThanOrEqual(20);
  });

  it("a default index's memos stay within their budgets after 2,000 queries of new long words", () => {
    const index = defaultRanker().build(tools, {}) as DefaultIndex;
    for (let i = 0; i < 2_000; i++) {
      const word = `w${i}${'q'.repeat(60)}`;
      index.search(parseKeywordQuery(`read ${word} then ${word}x write ${'z'.repeat(4_000)}${i}`), 5);
    }
    const size = index.memoSize();
    // Three memos of 256 Ki characters at most; each long word above is kept once at most.
    expect(size.keyChars).toBeLessThanOrEqual(3 * 256 * 1024);
    expect(size.entries).toBeLessThanOrEqual(3 * 10_000);
  });
});
