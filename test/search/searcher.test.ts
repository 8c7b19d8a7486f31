import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceRanker } from '../../src/search/rank-reference.js';
import type { Embedder } from '../../src/search/ranker.js';
import { formatSearchResult, ToolSearcher } from '../../src/search/searcher.js';
import { local, mcp, poolOf } from './helpers.js';

const slack = [
  mcp('slack', 'send_message', 'Send a message to a Slack channel'),
  mcp('slack', 'list_channels', 'List the channels of a workspace'),
  mcp('github', 'create_issue', 'Create an issue in a repository'),
  mcp('email', 'send_email', 'Send an email'),
  mcp('github', 'list_pull_requests', 'List pull requests of a repository'),
  local('NotebookEdit', 'Edit a notebook cell'),
];

describe('C1: select', () => {
  it('C1: selects deferred tools by exact name, comma separated and trimmed', () => {
    const r = new ToolSearcher().search(poolOf(slack), 'select: mcp__slack__send_message , mcp__github__create_issue');
    expect(r.kind).toBe('select');
    expect(r.matches).toEqual(['mcp__slack__send_message', 'mcp__github__create_issue']);
    expect(r.notFound).toEqual([]);
  });

  it('C1: select falls back to loaded tools (a success, not "not found")', () => {
    const pool = poolOf(slack, ['mcp__slack__send_message']);
    const r = new ToolSearcher().search(pool, 'select:mcp__slack__send_message');
    expect(r.matches).toEqual(['mcp__slack__send_message']);
    expect(r.notFound).toEqual([]);
  });

  it('C1: names absent from the whole pool are reported as not found', () => {
    const r = new ToolSearcher().search(poolOf(slack), 'select:mcp__slack__send_message,mcp__nope__x');
    expect(r.matches).toEqual(['mcp__slack__send_message']);
    expect(r.notFound).toEqual(['mcp__nope__x']);
    expect(formatSearchResult(r)).toContain('Not found: mcp__nope__x');
  });

  it('C1: unbalanced or empty select never throws', () => {
    for (const q of ['select:', 'select:,,,', 'select:a,,b,', 'SELECT:NotebookEdit']) {
      expect(() => new ToolSearcher().search(poolOf(slack), q)).not.toThrow();
    }
    expect(new ToolSearcher().search(poolOf(slack), 'SELECT:NotebookEdit').matches).toEqual(['NotebookEdit']);
  });
});

describe('C2: exact name', () => {
  it('C2: a query that is exactly a tool name returns that tool', () => {
    const r = new ToolSearcher().search(poolOf(slack), 'mcp__email__send_email');
    expect(r.kind).toBe('exact');
    expect(r.matches).toEqual(['mcp__email__send_email']);
    expect(new ToolSearcher().search(poolOf(slack), 'NotebookEdit').matches).toEqual(['NotebookEdit']);
  });
});

describe('C3: mcp__ prefix', () => {
  it('C3/C15: returns every tool of the server without scoring, whatever max results (the answer bounds the text)', () => {
    const r = new ToolSearcher().search(poolOf(slack), 'mcp__github');
    expect(r.kind).toBe('prefix');
    expect(r.matches).toEqual(['mcp__github__create_issue', 'mcp__github__list_pull_requests']);
    expect(r.listingTotal).toBe(2);
    expect(new ToolSearcher().search(poolOf(slack), 'mcp__github', { maxResults: 1 }).matches).toHaveLength(2);
  });

  it('C3: falls through to keyword search when no name has the prefix', () => {
    const r = new ToolSearcher({ ranker: 'reference' }).search(poolOf(slack), 'mcp__zzz slack');
    expect(r.kind).toBe('keyword');
  });
});

describe('C4: keywords', () => {
  it('C4: ranks only deferred tools and respects max results (default 5)', () => {
    const many = Array.from({ length: 12 }, (_, i) => mcp('files', `read_file_${i}`, 'Read a file'));
    const searcher = new ToolSearcher();
    expect(searcher.search(poolOf(many), 'read file').matches).toHaveLength(5);
    expect(searcher.search(poolOf(many), 'read file', { maxResults: 3 }).matches).toHaveLength(3);
    const loaded = poolOf(many, ['mcp__files__read_file_0']);
    expect(searcher.search(loaded, 'read file', { maxResults: 20 }).matches).not.toContain('mcp__files__read_file_0');
  });

  it('C4: +term is required in name, description or search hint', () => {
    for (const ranker of ['reference', 'default', 'bm25'] as const) {
      const r = new ToolSearcher({ ranker }).search(poolOf(slack), '+slack send');
      expect(r.matches.length).toBeGreaterThan(0);
      for (const name of r.matches) expect(name).toContain('slack');
      expect(r.matches[0]).toBe('mcp__slack__send_message');
    }
    const hinted = [mcp('x', 'do_thing', 'Does it', { searchHint: 'kanban board' }), mcp('y', 'do_other', 'Does it')];
    expect(new ToolSearcher().search(poolOf(hinted), '+kanban does').matches).toEqual(['mcp__x__do_thing']);
  });

  it('C4: reuses the index for the same pool key', () => {
    let builds = 0;
    const counting = {
      name: 'counting',
      build: (tools: Parameters<typeof referenceRanker.build>[0]) => {
        builds++;
        return referenceRanker.build(tools);
      },
    };
    const searcher = new ToolSearcher({ ranker: counting });
    searcher.search(poolOf(slack), 'slack');
    searcher.search(poolOf([...slack]), 'send'); // new arrays, same deferred names
    expect(builds).toBe(1);
    searcher.search(poolOf(slack, ['mcp__slack__send_message']), 'send');
    expect(builds).toBe(2);
  });
});

describe('C8: nothing found', () => {
  it('C8: says how many deferred tools exist and which servers are still connecting', () => {
    const r = new ToolSearcher().search(poolOf(slack, [], ['jira', 'linear']), 'quantum teleportation');
    expect(r.matches).toEqual([]);
    const text = formatSearchResult(r);
    expect(text).toContain('6 deferred tools');
    expect(text).toContain('jira, linear');
    expect(text).toMatch(/retry/i);
  });
});

describe('C9: pluggable embedder', () => {
  // A toy embedder: one dimension per concept word, so "xyzzy" is close to Slack tools only.
  const concepts = ['slack', 'message', 'xyzzy', 'issue', 'email', 'notebook'];
  const embedder: Embedder = {
    embed: (texts) =>
      texts.map((t) => {
        const lower = t.toLowerCase();
        return concepts.map((c) => (lower.includes(c) || (c === 'xyzzy' && /slack|message/.test(lower)) ? 1 : 0));
      }),
  };

  it('C9: a custom embedder changes the ranking', () => {
    const pool = poolOf(slack);
    const lexical = new ToolSearcher().search(pool, 'xyzzy').matches;
    const fused = new ToolSearcher({ embedder }).search(pool, 'xyzzy').matches;
    expect(lexical).toEqual([]);
    expect(fused.slice(0, 2).sort()).toEqual(['mcp__slack__list_channels', 'mcp__slack__send_message']);
  });

  it('C9: an async embedder is used by searchAsync after prepare', async () => {
    const asyncEmbedder: Embedder = { embed: async (texts) => embedder.embed(texts) as number[][] };
    const searcher = new ToolSearcher({ embedder: asyncEmbedder });
    const pool = poolOf(slack);
    await searcher.prepare(pool);
    expect((await searcher.searchAsync(pool, 'xyzzy')).matches[0]).toMatch(/^mcp__slack__/);
    expect(() => searcher.search(pool, 'xyzzy')).not.toThrow();
  });
});

describe('hostile input', () => {
  const searcher = new ToolSearcher();
  it('never throws on arbitrary strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (q) => {
        const r = searcher.search(poolOf(slack), q);
        expect(Array.isArray(r.matches)).toBe(true);
        formatSearchResult(r);
      }),
      { numRuns: 300 },
    );
    for (const mode of ['regex', 'bm25'] as const) {
      fc.assert(
        fc.property(fc.string({ maxLength: 250 }), (q) => void searcher.search(poolOf(slack), q, { mode })),
        { numRuns: 200 },
      );
    }
  });

  it('select: of a loaded tool is never reported not found (property)', () => {
    fc.assert(
      fc.property(
        fc.subarray(
          slack.map((t) => t.name),
          { minLength: 1 },
        ),
        fc.subarray(slack.map((t) => t.name)),
        (picked, loaded) => {
          const r = searcher.search(poolOf(slack, loaded), `select:${picked.join(' , ')}`);
          expect(r.notFound).toEqual([]);
          expect(new Set(r.matches)).toEqual(new Set(picked));
        },
      ),
    );
  });

  it('handles empty, huge, control-character and plus-flooded queries', () => {
    const pool = poolOf(slack);
    for (const q of [
      '',
      '   ',
      'x'.repeat(100_000),
      'slack \u0000\u0007 send',
      '+'.repeat(5000),
      '+a '.repeat(5000),
      'select:' + ','.repeat(50_000),
    ]) {
      expect(() => searcher.search(pool, q)).not.toThrow();
    }
    expect(searcher.search(pool, '', { maxResults: Number.NaN }).matches).toEqual([]);
  });
});
