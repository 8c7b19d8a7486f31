/**
 * C14: in a plain request, the words no tool of the catalog is named by ("need", "called",
 * "workspace") do not shrink a name's share of the request: a user's sentence keeps the name match
 * a terse command gets. Small catalogs; behaviour, not numbers.
 */
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/search/explain.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { namingWords } from '../../src/search/rank-default/name-match.js';
import { defaultRanker } from '../../src/search/rank-default/index.js';
import { mcp } from './helpers.js';

type Tool = ReturnType<typeof mcp>;

function ranked(tools: Tool[], query: string, options = {}): string[] {
  return defaultRanker(options)
    .build(tools)
    .search(parseKeywordQuery(query), 10)
    .map((r) => r.name);
}

// The sentence's situation words ("need", "reports", "workspace") are all in one description; the
// tool named by the request's two naming words ("create", "directory") says none of them.
const tools = [
  mcp('fs', 'create_directory', 'Create a new directory.'),
  mcp('fs', 'write_file', 'Save the reports you need to a directory of your workspace; workspace reports stay.'),
  mcp('fs', 'list_directory', 'List the entries of a directory.'),
];
const sentence = 'I need to create a directory for the reports in my workspace';

describe('C14: words no tool is named by leave the name share alone', () => {
  it('C14: a sentence about a situation still reaches the tool its naming words name', () => {
    expect(ranked(tools, sentence)[0]).toBe('mcp__fs__create_directory');
    // Counted as any word, the situation words sink the name match and the description wins.
    expect(ranked(tools, sentence, { unnamedWordShare: 1 })[0]).toBe('mcp__fs__write_file');
  });

  it('C14: the terse command ranks the same either way', () => {
    expect(ranked(tools, 'create directory')[0]).toBe('mcp__fs__create_directory');
    expect(ranked(tools, 'create directory', { unnamedWordShare: 1 })[0]).toBe('mcp__fs__create_directory');
  });

  it('C14: a word counts whole when itself or a stand-in of it names a part, else at the share', () => {
    const terms = new Map([
      ['need', 1],
      ['creat', 1],
      ['directori', 1],
      ['workspac', 1],
      ['make', 0.3],
    ]);
    const naming = new Set(['creat', 'directori']);
    expect(namingWords(terms, naming, 0)).toBe(2);
    expect(namingWords(terms, naming, 0.5)).toBe(3);
    expect(namingWords(terms, naming, 1)).toBe(4);
  });

  it('C14: explain reports the name match the rule gave', () => {
    const index = defaultRanker().build(tools);
    const [e] = index.explain!(parseKeywordQuery(sentence), ['mcp__fs__create_directory']);
    expect(e!.nameMatch!.score).toBeGreaterThan(0);
    expect(formatExplanation(e!).join('\n')).toMatch(
      /name match: \+[\d.]+, the query names 2 of 2 of the name's words/,
    );
  });
});
