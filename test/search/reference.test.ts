import { describe, expect, it } from 'vitest';
import { parseKeywordQuery } from '../../src/search/query.js';
import { referenceRanker } from '../../src/search/rank-reference.js';
import { local, mcp } from './helpers.js';

describe('C5: reference scorer', () => {
  it('C5: scores the seed example with Claude Code weights', () => {
    const tools = [
      mcp('slack', 'send_message'),
      mcp('slack', 'list_channels'),
      mcp('github', 'create_issue'),
      mcp('email', 'send_email'),
    ];
    const ranked = referenceRanker.build(tools).search(parseKeywordQuery('slack send'), 10);
    expect(ranked).toEqual([
      { name: 'mcp__slack__send_message', score: 24 },
      { name: 'mcp__slack__list_channels', score: 12 },
      { name: 'mcp__email__send_email', score: 12 },
    ]);
  });

  it('C5: built-in weights, partial parts, full-name fallback, hint and description', () => {
    const index = referenceRanker.build([
      local('NotebookEdit', 'Edit a cell'),
      local('Grep', 'Search file contents', { searchHint: 'regex search' }),
      mcp('fs', 'readfile', 'Reads already stored data'),
    ]);
    const score = (q: string) =>
      Object.fromEntries(index.search(parseKeywordQuery(q), 10).map((r) => [r.name, r.score]));
    expect(score('notebook')).toEqual({ NotebookEdit: 10 });
    expect(score('note')).toEqual({ NotebookEdit: 5 });
    expect(score('read')).toEqual({ mcp__fs__readfile: 6 }); // "already" is not a word match
    expect(score('search')).toEqual({ Grep: 6 }); // hint 4 + description 2
    expect(score('ebooked')).toEqual({ NotebookEdit: 3 }); // only in the full (lowercased) name
  });
});
