import { describe, expect, it } from 'vitest';
import { SafeRegex, UnsupportedPatternError } from '../../src/search/safe-regex.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { mcp, poolOf } from './helpers.js';

const tools = [
  mcp('github', 'create_issue', 'Create an issue', {
    inputSchema: { type: 'object', properties: { repo: { type: 'string', description: 'Repository owner/name' } } },
  }),
  mcp('github', 'get_weather_like', 'Nothing to do with weather'),
  mcp('slack', 'send_message', 'Send a message', {
    inputSchema: { type: 'object', properties: { channel_id: { type: 'string' } } },
  }),
];

describe('C7: regex and BM25 modes', () => {
  const searcher = new ToolSearcher();
  it('C7: regex mode is case-insensitive over names, descriptions and arguments', () => {
    expect(searcher.search(poolOf(tools), 'CREATE_.*', { mode: 'regex' }).matches).toEqual([
      'mcp__github__create_issue',
    ]);
    expect(searcher.search(poolOf(tools), 'owner/name', { mode: 'regex' }).matches).toEqual([
      'mcp__github__create_issue',
    ]);
    expect(searcher.search(poolOf(tools), 'channel_id', { mode: 'regex' }).matches).toEqual([
      'mcp__slack__send_message',
    ]);
    expect(
      searcher.search(poolOf(tools), '^mcp__(github|slack)__(send|create)', { mode: 'regex' }).matches,
    ).toHaveLength(2);
    expect(searcher.search(poolOf(tools), 'weather', { mode: 'regex' }).kind).toBe('regex');
  });

  it('C7: patterns over 200 characters and unsupported syntax are refused with a reason', () => {
    const long = searcher.search(poolOf(tools), 'a'.repeat(201), { mode: 'regex' });
    expect(long.matches).toEqual([]);
    expect(long.error).toMatch(/200/);
    expect(searcher.search(poolOf(tools), '(a)\\1', { mode: 'regex' }).error).toMatch(/backreference/);
    expect(searcher.search(poolOf(tools), '(', { mode: 'regex' }).error).toBeDefined();
  });

  it('C7: a catastrophic pattern against long input finishes (linear-time matcher)', () => {
    const hostile = [mcp('q', 'long_tool', 'a'.repeat(9_000) + '!')];
    for (const pattern of ['(a+)+$', '(a|aa)+$', '(\\w*)*\\d', '\\w*\\w*\\w*\\w*\\w*x', '(.*a){20}$']) {
      const r = searcher.search(poolOf(hostile), pattern, { mode: 'regex' });
      expect(r.matches).toEqual([]);
    }
    expect(new SafeRegex('(a+)+$').test('a'.repeat(50_000))).toBe(true);
  });

  it('C7: SafeRegex agrees with RegExp on ordinary patterns', () => {
    const cases: [string, string][] = [
      ['ab+c', 'xxabbbc'],
      ['^abc$', 'abc'],
      ['^abc$', 'abcd'],
      ['a{2,3}', 'caab'],
      ['a{2,3}', 'cab'],
      ['[a-f]+\\d', 'ZZbeef7'],
      ['[^a-z]', 'abc'],
      ['\\bcat\\b', 'a cat sat'],
      ['\\bcat\\b', 'concat'],
      ['colou?r', 'COLOR'],
      ['(?:get|list)_\\w+', 'list_items'],
      ['x.y', 'x\ny'],
      ['a|b|c$', 'zzc'],
      ['\\s+', 'ab'],
    ];
    for (const [pattern, subject] of cases)
      expect(new SafeRegex(pattern).test(subject), pattern).toBe(new RegExp(pattern, 'i').test(subject));
    expect(() => new SafeRegex('(?=a)')).toThrow(UnsupportedPatternError);
  });

  it('C7: BM25 mode ranks by plain BM25', () => {
    const r = searcher.search(poolOf(tools), 'send message', { mode: 'bm25' });
    expect(r.kind).toBe('bm25');
    expect(r.matches[0]).toBe('mcp__slack__send_message');
  });
});
