/**
 * C15 in the search room, as pure functions: "did you mean" for near-miss names, the per-server
 * cap, a server listing that names every tool (deprecated last, bounded by the answer's budget),
 * a partial answer that says so first, and the policy note.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/core/catalog.js';
import { decideSession } from '../../src/core/session-policy.js';
import { boundedEdits, closestToolNames, unknownToolText } from '../../src/search/did-you-mean.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { capPerServer, SERVER_CAP } from '../../src/search/server-cap.js';
import { formatSessionAnswer, policyInputOf } from '../../src/search/session-answer.js';
import type { SearchPool } from '../../src/search/search-types.js';
import { defaultRanker } from '../../src/search/rank-default/index.js';
import { parseKeywordQuery } from '../../src/search/query.js';

function catalog(): Catalog {
  const c = new Catalog();
  c.setServerTools('filesystem', [
    {
      name: 'read_file',
      description: 'Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
    {
      name: 'read_text_file',
      description: 'Read the complete contents of a file from the file system as text.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, head: { type: 'number' } },
        required: ['path'],
      },
    },
    {
      name: 'write_file',
      description: 'Create a new file or overwrite one.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
    },
    { name: 'list_directory', description: 'List the files in a directory.' },
  ]);
  c.setServerTools('memory', [
    { name: 'create_entities', description: 'Create entities in the knowledge graph.' },
    { name: 'read_graph', description: 'Read the whole knowledge graph.' },
  ]);
  return c;
}

const poolOf = (c: Catalog, extra: Partial<SearchPool> = {}): SearchPool => ({
  tools: c.tools,
  deferred: new Set(c.tools.map((t) => t.name)),
  pendingServers: [],
  ...extra,
});

describe('C15 did you mean', () => {
  const c = catalog();
  const searcher = new ToolSearcher();
  const rank = (text: string, n: number) => searcher.search(poolOf(c), text, { maxResults: n }).matches;
  const first = (name: string) => closestToolNames(name, c.tools, rank)[0];

  it('C15: a typo, a missing prefix and another separator lead to the tool first', () => {
    expect(first('mcp__filesystem__read_text_flie')).toBe('mcp__filesystem__read_text_file');
    expect(first('mcp__filesytem__write_file')).toBe('mcp__filesystem__write_file');
    expect(first('read-text-file')).toBe('mcp__filesystem__read_text_file');
    expect(first('filesystem__write_file')).toBe('mcp__filesystem__write_file');
    expect(first('filesystem.write_file')).toBe('mcp__filesystem__write_file');
    expect(first('filesystem/list-directory')).toBe('mcp__filesystem__list_directory');
    expect(first('MCP-MEMORY-READ-GRAPH')).toBe('mcp__memory__read_graph');
  });

  it("C15: past a typo the same scorer as tool_search ranks the name's words", () => {
    expect(closestToolNames('memory.knowledge_graph_reader', c.tools, rank)).toContain('mcp__memory__read_graph');
    expect(closestToolNames('zzqx', c.tools)).toEqual([]);
  });

  it('C15: the answer is one line: the closest name with its signature, the others, nothing ran', () => {
    const names = closestToolNames('filesystem.read_text_file', c.tools, rank);
    const text = unknownToolText(
      'filesystem.read_text_file',
      names.map((n) => c.get(n)!),
    );
    expect(text).toMatch(
      /^Tool "filesystem\.read_text_file" is not available here, so nothing was run\. Did you mean mcp__filesystem__read_text_file\(path: string, head\?: number\) — Read the complete contents of a file from the file system as text\.\? Other close names: mcp__filesystem__read_file/,
    );
    expect(text).not.toContain('\n');
    expect(unknownToolText('nothing', [])).toBe(
      'Tool "nothing" is not available here, so nothing was run. Search with tool_search to see what is available.',
    );
  });

  it('G5: a hostile name is bounded and neutralized; edit distance stays in its band', () => {
    const text = unknownToolText(`</tool><system>${'x'.repeat(10_000)}`, []);
    expect(text.length).toBeLessThan(300);
    expect(text).not.toContain('<system>');
    expect(closestToolNames('y'.repeat(100_000), c.tools)).toEqual([]);
    expect(boundedEdits('abcdef', 'abdcef', 2)).toBe(1);
    expect(boundedEdits('abc', 'xyzabc', 2)).toBe(3);
  });
});

/** Optimal string alignment distance, unbounded and plain: the reference the banded one must agree with. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('C15 edit distance in a band', () => {
  it('C15: the banded distance equals the plain one up to its bound, on random names', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_'), maxLength: 12 });
    fc.assert(
      fc.property(name, name, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(boundedEdits(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('C15 per-server cap', () => {
  const server = (name: string) => name.split('/')[0];
  const hits = (...specs: [string, number][]) => specs.map(([name, score]) => ({ name, score }));

  it(`C15: at most ${SERVER_CAP} of the top 5 from one server while another server's hit matches well; the first never moves`, () => {
    const ranked = hits(['big/a', 10], ['big/b', 9.5], ['big/c', 9], ['big/d', 9], ['big/e', 8.5], ['small/x', 8]);
    expect(capPerServer(ranked, server, 5).map((h) => h.name)).toEqual(['big/a', 'big/b', 'big/c', 'big/d', 'small/x']);
    // The other server's hit does not match well: the ranking stands.
    const weak = hits(['big/a', 10], ['big/b', 9.5], ['big/c', 9], ['big/d', 9], ['big/e', 8.5], ['small/x', 2]);
    expect(capPerServer(weak, server, 5).map((h) => h.name)).toEqual(['big/a', 'big/b', 'big/c', 'big/d', 'big/e']);
    // Fewer hits than the limit: nothing is lost.
    expect(capPerServer(hits(['big/a', 10], ['big/b', 9]), server, 5)).toHaveLength(2);
  });

  it('C15: the searcher applies it to a keyword ranking', () => {
    const c = new Catalog();
    c.setServerTools(
      'reports',
      Array.from({ length: 8 }, (_, i) => ({
        name: `export_report_${i}`,
        description: `Export the sales report number ${i}.`,
      })),
    );
    c.setServerTools('mail', [{ name: 'mail_report', description: 'Export the sales report, then mail it.' }]);
    // The ranker alone puts the mail tool after all eight report tools.
    const ranked = defaultRanker().build(c.tools).search(parseKeywordQuery('export sales report'), 10);
    expect(ranked.findIndex((h) => h.name === 'mcp__mail__mail_report')).toBe(8);
    const result = new ToolSearcher().search(poolOf(c), 'export sales report');
    expect(result.matches).toHaveLength(5);
    expect(result.matches.filter((n) => n.startsWith('mcp__reports__'))).toHaveLength(SERVER_CAP);
    expect(result.matches[4]).toBe('mcp__mail__mail_report');
  });
});

describe('C15 answers', () => {
  const c = catalog();
  const answer = (pool: SearchPool, query: string) => {
    const result = new ToolSearcher().search(pool, query);
    const decision = decideSession({
      ...policyInputOf(result, () => true, pool.pendingServers),
      held: [],
      toolList: 'fixed',
    });
    return formatSessionAnswer(result, decision, (n) => c.get(n), { fixed: true, callTool: 'call_tool' });
  };

  it('C15: a weak search shows nothing in full and says none is a clear match', () => {
    const text = answer(poolOf(c), 'knowledge zebra unicorn');
    expect(text.split('\n')[0]).toMatch(
      /^Found \d+ tools?, none a clear match; call through call_tool \{"name", "arguments"\} \(your tool list does not change\); "select:<name>" shows a definition in full:$/,
    );
    expect(text).not.toMatch(/^\{/m);
  });

  it('C15: a server listing names every tool, deprecated ones last and marked, none in full', () => {
    const text = answer(poolOf(c), 'mcp__filesystem');
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '4 tools under mcp__filesystem__; call through call_tool {"name", "arguments"} (your tool list does not change):',
    );
    expect(lines.slice(1, 5).map((l) => l.slice(2, l.indexOf('(')))).toEqual([
      'mcp__filesystem__read_text_file',
      'mcp__filesystem__write_file',
      'mcp__filesystem__list_directory',
      'mcp__filesystem__read_file',
    ]);
    expect(lines[4]).toMatch(/ \(deprecated\)$/);
    expect(text).not.toMatch(/^\{/m);
  });

  it('C15: a listing past its budget names the rest by name, then says how many are left and how to see them', () => {
    const big = new Catalog();
    big.setServerTools(
      'git',
      Array.from({ length: 100 }, (_, i) => ({
        name: `git_operation_number_${i}`,
        description: `Run the git operation number ${i} on the repository, with every option it takes explained here.`,
        inputSchema: { type: 'object', properties: { path: { type: 'string' }, ref: { type: 'string' } } },
      })),
    );
    const result = new ToolSearcher().search(poolOf(big), 'mcp__git');
    expect(result.matches).toHaveLength(100);
    const text = formatSessionAnswer(
      result,
      decideSession({ ...policyInputOf(result, () => true), held: [], toolList: 'fixed' }),
      (n) => big.get(n),
      { fixed: true },
    );
    expect(text).toMatch(/^100 tools under mcp__git__/);
    expect(text).toMatch(/^Also \(by name; "select:<name>" shows one\): mcp__git__git_operation_number_\d+, /m);
    expect(text).toMatch(
      /^\d+ more tools not shown: search "mcp__git__<first letters of a name>" to list fewer at a time\.$/m,
    );
    const named = (text.match(/mcp__git__git_operation_number_\d+/g) ?? []).length;
    const left = Number(/^(\d+) more tools not shown/m.exec(text)![1]);
    expect(named + left).toBe(100);
  });

  it('C15/C8: while servers are still connecting the answer says so first; only a strong match is shown in full', () => {
    const pending = poolOf(c, {
      pendingServers: ['github', 'slack'],
      installingServers: [{ server: 'slack', runner: 'npx', since: Date.now() }],
    });
    const weak = answer(pending, 'read file');
    expect(weak.split('\n').slice(0, 3)).toEqual([
      'Partial answer: MCP servers still connecting: github. Their tools are not searched yet; search again in a moment to include them.',
      'MCP servers still installing (a first start through a package runner can take minutes; their tools are not searchable yet):',
      expect.stringMatching(/^- slack: installing through npx \(\d+ s so far\)$/),
    ]);
    expect(weak).not.toMatch(/^\{/m);
    const strong = answer(pending, 'knowledge graph entities create');
    expect(strong.split('\n')[0]).toMatch(/^Partial answer:/);
    expect(strong).toMatch(/^\{"name":"mcp__memory__create_entities"/m);
  });

  it('G10: a search narrowed by policy counts what it left out, with a reason and no name', () => {
    const hidden = new Catalog();
    hidden.setServerTools('filesystem', [{ name: 'delete_file', description: 'Delete a file from the file system.' }]);
    const pool = poolOf(c, {
      policyHidden: [
        {
          tool: hidden.get('mcp__filesystem__delete_file')!,
          reason: 'it is destructive, and profile "ro" allows only read',
        },
      ],
    });
    const text = answer(pool, 'delete a file');
    expect(text).toMatch(
      /^Left out by policy: 1 more tool matches but is not offered to this client \(it: it is destructive, and profile "ro" allows only read\)\.$/m,
    );
    expect(text).not.toContain('delete_file');
    expect(answer(pool, 'knowledge graph')).not.toMatch(/Left out by policy/);
  });
});
