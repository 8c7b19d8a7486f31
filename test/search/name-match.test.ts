/**
 * C14: literal name parts outrank words that only match arguments or description boilerplate; a
 * verb + object request prefers the tool named by that verb and object; explain (C11) says why a
 * name match won or lost. Small catalogs, then the everyday-request set over the live tool lists
 * of real npm MCP servers (test/fixtures/real-servers/) with a floor that catches a regression.
 */
import { describe, expect, it } from 'vitest';
import { formatExplanation, nameMatchLine } from '../../src/search/explain.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { type RareWordExpander, synonymWeightOf } from '../../src/search/rank-default/expansion.js';
import { defaultRanker } from '../../src/search/rank-default/index.js';
import { nameShare, ownNameParts } from '../../src/search/rank-default/name-match.js';
import { leadingVerbSense } from '../../src/search/rank-default/verb-senses.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { shippedThesaurus, UnionThesaurus } from '../../src/search/thesaurus.js';
import { everydayRequests, intents, PHRASINGS, realTools } from '../fixtures/real-servers/index.js';
import { mcp, poolOf, ranked } from './helpers.js';

// Descriptions as real servers write them: the file-info tool's text says "file" more often.
const files = [
  mcp(
    'fs',
    'get_file_info',
    'Retrieve detailed metadata about a file or directory: size, creation time, last modified time, permissions and type of the file.',
    {
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Path of the file to read' } },
      },
    },
  ),
  mcp('fs', 'read_text_file', 'Read the complete contents of a file from the file system as text.'),
  mcp('fs', 'write_file', 'Create a new file or completely overwrite an existing file with new content.'),
  mcp('fs', 'create_directory', 'Create a new directory or ensure a directory exists.'),
  mcp('fs', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.'),
];

describe('C14: the literal name-part rule', () => {
  it('C14: a verb + object request ranks the tool named by that verb and object first', () => {
    expect(ranked(files, 'create a new directory')[0]).toBe('mcp__fs__create_directory');
    expect(ranked(files, 'read a file')[0]).toBe('mcp__fs__read_text_file');
    const read = ranked(files, 'read a file');
    expect(read.indexOf('mcp__fs__read_text_file')).toBeLessThan(read.indexOf('mcp__fs__get_file_info'));
  });

  it('C14: on the real servers the rule is what puts the named tool first (off: nameWeight 0)', () => {
    const tools = realTools();
    const idOf = new Map(tools.map((t) => [t.name, t.id]));
    const first = (query: string, nameWeight?: number) => {
      const options = nameWeight === undefined ? {} : { nameWeight };
      return idOf.get(ranked(tools, query, options)[0]!);
    };
    // Without the rule, description words win: get_file_info says "file" more than the readers do.
    expect(first('read a file', 0)).toBe('filesystem/get_file_info');
    expect(first('create a new directory', 0)).toBe('filesystem/write_file');
    expect(first('read a file')).toMatch(/\/read_(text_)?file$/);
    expect(first('create a new directory')).toMatch(/\/create_directory$/);
    // "works" is the whole name of one tool and only part of a longer name of the other.
    const words = [
      mcp('git', 'git_set_working_dir', 'Set the session working directory for all git operations.'),
      mcp('notes', 'works', 'Store a note.'),
    ];
    expect(ranked(words, 'works')[0]).toBe('mcp__notes__works');
  });

  it('C14: a word only in arguments and boilerplate does not beat the same word in a name', () => {
    const tools = [
      mcp('a', 'send_email', 'Send an email.', {
        inputSchema: {
          type: 'object',
          properties: { directory: { type: 'string', description: 'directory to create the draft in' } },
        },
      }),
      mcp('b', 'make_directory', 'Make a directory on disk.'),
    ];
    expect(ranked(tools, 'make directory')[0]).toBe('mcp__b__make_directory');
  });

  it('C14: a server prefix (the first word most of its tools share) is not part of what a tool does', () => {
    const slack = ['post_message', 'list_channels', 'add_reaction', 'get_users'].map((n) => mcp('slack', `slack_${n}`));
    const index = defaultRanker().build(slack);
    expect(index.search(parseKeywordQuery('post message'), 1)[0]!.name).toBe('mcp__slack__slack_post_message');
    // A word most names share that is not first ("file") is their object, and stays.
    const fs = ['read_file', 'write_file', 'move_file', 'get_file_info'].map((n) => mcp('fs', n));
    expect(ranked(fs, 'move file')[0]).toBe('mcp__fs__move_file');
  });

  it('C14: nameShare is 1 for a name the request spells out whole, small for one word of a long task', () => {
    expect(nameShare(1, 2, 2)).toBe(1);
    expect(nameShare(0.5, 2, 2)).toBe(0.25);
    expect(nameShare(1, 1, 20)).toBeCloseTo(0.05);
  });

  it('C14: ownNameParts drops a leading prefix shared by most of a server, never every part', () => {
    const docs = [
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
    ].map((name) => ({ name, server: [], product: [], hint: [], description: [], params: [], paramDescriptions: [] }));
    expect(ownNameParts(docs, Int32Array.from([0, 0, 0, 0]))).toEqual([[1], [2], [3], [4]]);
    const one = [{ name: [0], server: [], product: [], hint: [], description: [], params: [], paramDescriptions: [] }];
    expect(ownNameParts([...docs, ...one], Int32Array.from([0, 0, 0, 0, 0]))[4]).toEqual([0]);
  });

  it('C14: a leading verb that tools use as a noun ("file a ticket") counts as the verb', () => {
    expect(leadingVerbSense(['file', 'a', 'ticket'])?.senses).toContain('creat');
    expect(leadingVerbSense(['file', 'contents'])).toBeUndefined();
    const tools = [
      mcp('fs', 'write_file', 'Create a new file.'),
      mcp('gh', 'create_issue', 'Create a new issue in a repository.'),
    ];
    expect(ranked(tools, 'file a ticket for the broken login')[0]).toBe('mcp__gh__create_issue');
  });
});

describe('C14 + C11: explain says why a literal name match won or lost', () => {
  it('C14: the winner shows the bonus and the words it names; a loser shows what its name lacked', () => {
    const result = new ToolSearcher().search(poolOf(files), 'create a new directory', { explain: true });
    const win = result.explanations!.find((e) => e.name === 'mcp__fs__create_directory')!;
    expect(win.nameMatch!.score).toBeGreaterThan(0);
    expect(win.nameMatch!.matched).toEqual(['creat', 'directori']);
    expect(formatExplanation(win).join('\n')).toMatch(/name match: \+\d+\.\d\d, the query names 2 of 2/);
    const lost = result.explanations!.find((e) => e.name === 'mcp__fs__list_directory')!;
    expect(formatExplanation(lost).join('\n')).toMatch(/name match: .*1 of 2/);
  });

  it('C14: a name none of whose words is in the query says so', () => {
    expect(nameMatchLine({ parts: ['get', 'info'], matched: [], score: 0 })).toMatch(/none of the name's words/);
    expect(nameMatchLine({ parts: ['get', 'info'], matched: ['get'], score: 0 })).toMatch(/too few for a bonus/);
  });
});

describe('C14: the everyday-request set (live tool lists of real npm MCP servers)', () => {
  const tools = realTools();
  const index = defaultRanker().build(tools);
  const idOf = new Map(tools.map((t) => [t.name, t.id]));
  const top = (query: string, k: number) => index.search(parseKeywordQuery(query), k).map((r) => idOf.get(r.name)!);

  it('C14: the fixture is what the bench reads: ≥ 12 servers, ≥ 50 intents written three ways', () => {
    expect(new Set(tools.map((t) => (t.origin.kind === 'mcp' ? t.origin.server : ''))).size).toBeGreaterThanOrEqual(12);
    expect(intents().length).toBeGreaterThanOrEqual(50);
    const requests = everydayRequests();
    expect(requests.length).toBe(intents().length * PHRASINGS.length);
    const ids = new Set(tools.map((t) => t.id));
    for (const r of requests) for (const group of r.gold) for (const id of group) expect(ids).toContain(id);
  });

  it('C14: R@5 and R@1 over all phrasings stay above a floor (measured 0.859 / 0.653)', () => {
    let r1 = 0;
    let r5 = 0;
    const requests = everydayRequests();
    for (const r of requests) {
      const ranked = top(r.query, 5);
      const found = (k: number) => r.gold.filter((g) => g.some((id) => ranked.slice(0, k).includes(id))).length;
      r1 += found(1) / r.gold.length;
      r5 += found(5) / r.gold.length;
    }
    expect(r5 / requests.length).toBeGreaterThanOrEqual(0.85);
    expect(r1 / requests.length).toBeGreaterThanOrEqual(0.6);
  });

  it("C14: the issue's examples", () => {
    const read = top('read a file', 10);
    const firstRead = Math.min(
      ...['filesystem/read_text_file', 'filesystem/read_file'].map((id) => read.indexOf(id)).filter((i) => i >= 0),
    );
    expect(firstRead).toBeLessThan(read.indexOf('filesystem/get_file_info') >>> 0);
    expect(top('create a new directory', 1)[0]).toMatch(/\/create_directory$/);
    expect(top('remember that Alice works at Acme', 3).every((id) => id.startsWith('memory/'))).toBe(true);
    // A ticket is filed with a tool that creates issues: Linear's (a ticket tracker) or GitHub's.
    const ticket = top('file a ticket for the broken login', 5);
    expect(ticket[0]).toMatch(/create_issues?$/);
    expect(ticket).toContain('github/create_issue');
    const prs = top('show me the open pull requests', 10);
    expect(prs.indexOf('github/list_pull_requests')).toBeGreaterThanOrEqual(0);
    expect(prs.indexOf('github/list_pull_requests')).toBeLessThan(prs.indexOf('github/merge_pull_request') >>> 0);
  });
});

describe('C14: vocabulary for words the catalog lacks', () => {
  it('C14: a word no tool contains lets its synonyms stand in at the higher weight', () => {
    const expander = {
      df: (term: string) => (term === 'issu' ? 3 : 0),
      absentSynonymWeight: 0.6,
    } as unknown as RareWordExpander;
    expect(synonymWeightOf('ticket', 0.3, expander)).toBe(0.6);
    expect(synonymWeightOf('issu', 0.3, expander)).toBe(0.3);
    expect(synonymWeightOf('ticket', 0.3)).toBe(0.3);
    const tools = [
      mcp('gh', 'create_issue', 'Create a new issue in a repository.'),
      mcp('fs', 'write_file', 'Create a new file.'),
    ];
    expect(ranked(tools, 'new ticket')[0]).toBe('mcp__gh__create_issue');
  });

  it('C14: the learned query-word table and the tool-text thesaurus are read as one, a shared neighbour at its higher similarity', () => {
    const a = new Map([['rememb', [{ term: 'memori', similarity: 0.2 }]]]);
    const b = new Map([
      [
        'rememb',
        [
          { term: 'memori', similarity: 0.4 },
          { term: 'note', similarity: 0.3 },
        ],
      ],
      ['ticket', [{ term: 'issu', similarity: 0.5 }]],
    ]);
    const union = new UnionThesaurus(a, b);
    expect(union.get('rememb')).toEqual([
      { term: 'memori', similarity: 0.4 },
      { term: 'note', similarity: 0.3 },
    ]);
    expect(union.get('ticket')).toEqual([{ term: 'issu', similarity: 0.5 }]);
    expect(union.get('absent')).toBeUndefined();
    expect([...union.keys()].sort()).toEqual(['rememb', 'ticket']);
    expect(union.size).toBe(2);
    // The shipped thesaurus carries the learned table: a request word tool texts never use has neighbours.
    expect(shippedThesaurus().get('rememb')?.length ?? 0).toBeGreaterThan(0);
  });
});
