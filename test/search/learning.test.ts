import { describe, expect, it } from 'vitest';
import { LearnedChannel } from '../../src/search/learned/channel.js';
import { DEFAULT_LEARNED_LIMITS, LearnedLog } from '../../src/search/learned/log.js';

/** These tests are about how evidence ranks; corroboration (C14) is tested in learning-corroboration.test.ts. */
const ONE_SOURCE = { ...DEFAULT_LEARNED_LIMITS, corroboration: 1 } as const;
import { LearnedRanking } from '../../src/search/learned/learned-ranking.js';
import { learnedTerms, schemaFingerprint } from '../../src/search/learned/terms.js';
import { formatExplanation } from '../../src/search/explain.js';
import { ToolSearcher } from '../../src/search/searcher.js';
import { mcp, poolOf } from './helpers.js';

const tools = [
  mcp('linear', 'create_issue', 'Create an issue in a Linear team'),
  mcp('github', 'create_issue', 'Create an issue in a GitHub repository'),
  mcp('jira', 'create_ticket', 'Create a ticket in a Jira project'),
  mcp('weather', 'forecast', 'Get the weather forecast for a city'),
  mcp('files', 'read_file', 'Read a file from disk'),
  mcp('calendar', 'create_event', 'Create an event in a calendar'),
];

/** A log of varied searches (so IDF over the log means something) plus the ones under test. */
function logWith(records: [string, string][]): LearnedLog {
  const log = new LearnedLog(ONE_SOURCE);
  const background: [string, string][] = [
    ['weather in paris tomorrow', 'mcp__weather__forecast'],
    ['will it rain in berlin', 'mcp__weather__forecast'],
    ['read the config file', 'mcp__files__read_file'],
    ['open package json file', 'mcp__files__read_file'],
    ['schedule a meeting with anna', 'mcp__calendar__create_event'],
    ['book a slot friday afternoon', 'mcp__calendar__create_event'],
    ['new ticket for the backend team', 'mcp__jira__create_ticket'],
  ];
  for (const [query, tool] of [...background, ...records]) log.record({ query, tool });
  return log;
}

describe('C13: the learned channel', () => {
  it('C13: a search like an earlier one that led to a tool ranks that tool first', () => {
    const log = logWith([
      ['file a bug for the login page', 'mcp__github__create_issue'],
      ['file a bug about the login form', 'mcp__github__create_issue'],
    ]);
    const pool = poolOf(tools);
    const plain = new ToolSearcher().search(pool, 'file a bug on the login page');
    const learned = new ToolSearcher({ learned: new LearnedRanking(log) }).search(
      pool,
      'file a bug on the login page',
      {
        explain: true,
      },
    );
    expect(plain.matches[0]).not.toBe('mcp__github__create_issue');
    expect(learned.matches[0]).toBe('mcp__github__create_issue');
    const lines = formatExplanation(learned.explanations![0]!);
    expect(lines.some((l) => /\d earlier search(es)? like this led here/.test(l))).toBe(true);
  });

  it('C13: no pull on generic-word overlap: a query sharing only common words is ranked as without learning', () => {
    const log = logWith([
      ['create a bug for the login page', 'mcp__linear__create_issue'],
      ['create a bug about the signup form', 'mcp__linear__create_issue'],
      ['create new issue please', 'mcp__linear__create_issue'],
    ]);
    const pool = poolOf(tools);
    for (const query of ['create an event for the team offsite', 'get the weather forecast', 'create something']) {
      const plain = new ToolSearcher().search(pool, query);
      const learned = new ToolSearcher({ learned: new LearnedRanking(log) }).search(pool, query);
      expect(learned.matches).toEqual(plain.matches);
    }
  });

  it('C13: the channel matches by rare terms, not by the words every search uses', () => {
    const log = logWith([['please find the quarterly invoice', 'mcp__files__read_file']]);
    const channel = new LearnedChannel(log);
    expect(channel.match('find the quarterly invoice').map((m) => m.tool)).toEqual(['mcp__files__read_file']);
    expect(channel.match('please find the weather in oslo')).toEqual([]);
    expect(channel.match('')).toEqual([]);
  });

  it('C13: with an empty log the ranking is exactly the lexical one', () => {
    const pool = poolOf(tools);
    for (const q of ['create issue', 'weather', 'read file from disk']) {
      expect(
        new ToolSearcher({ learned: new LearnedRanking(new LearnedLog(ONE_SOURCE)) }).search(pool, q).matches,
      ).toEqual(new ToolSearcher().search(pool, q).matches);
    }
  });

  it('C13: a tool not in the pool is never brought in by learned evidence', () => {
    const log = logWith([['file a bug for the login page', 'mcp__gone__tool']]);
    const r = new ToolSearcher({ learned: new LearnedRanking(log) }).search(
      poolOf(tools),
      'file a bug for the login page',
    );
    expect(r.matches).not.toContain('mcp__gone__tool');
  });

  it('C13: older evidence counts less (half-life decay)', () => {
    const day = 86_400_000;
    const log = new LearnedLog(ONE_SOURCE);
    log.record({ query: 'rotate the signing keys', tool: 'a', at: 0 });
    log.record({ query: 'unrelated words here', tool: 'b', at: 0 });
    const now = 180 * day;
    const fresh = new LearnedChannel(log, { gate: 0.4, halfLifeDays: 0, maxDfShare: 1 }, now).match(
      'rotate signing keys',
    );
    const decayed = new LearnedChannel(log, { gate: 0.4, halfLifeDays: 90, maxDfShare: 1 }, now).match(
      'rotate signing keys',
    );
    expect(fresh[0]!.evidence).toBeGreaterThan(decayed[0]!.evidence * 3);
  });
});

describe('C13: the learned log', () => {
  it('C13: keeps term sets, not raw queries; counts repeats', () => {
    const log = new LearnedLog(ONE_SOURCE);
    log.record({ query: 'File a bug for the login page', tool: 't', at: 5 });
    log.record({ query: 'file bug login page!!', tool: 't', at: 9 });
    const json = JSON.stringify(log.toJSON());
    expect(json).not.toContain('File a bug');
    const entries = [...log.evidence('t')!.entries.values()];
    expect(entries).toEqual([
      {
        terms: learnedTerms('file bug login page'),
        count: 2,
        last: 9,
        sources: [expect.any(String), expect.any(String)],
      },
    ]);
  });

  it('C13: bounded per tool and in total (least recent first)', () => {
    const log = new LearnedLog({ perTool: 3, total: 10, corroboration: 1 });
    for (let i = 0; i < 5; i++) log.record({ query: `alpha${i} beta`, tool: 'one', at: i });
    expect(log.evidence('one')!.entries.size).toBe(3);
    expect([...log.evidence('one')!.entries.keys()].some((k) => k.includes('alpha0'))).toBe(false);
    for (let i = 0; i < 40; i++) log.record({ query: `gamma${i}`, tool: `t${i}`, at: 100 + i });
    expect(log.entryCount).toBeLessThanOrEqual(10);
    expect(log.evidence('t39')).toBeDefined();
    expect(log.evidence('t0')).toBeUndefined();
  });

  it('C13: a changed input schema drops the evidence; a changed description keeps it', () => {
    const a = mcp('x', 'y', 'first description');
    const b = { ...a, description: 'second description' };
    const c = { ...a, inputSchema: { type: 'object' as const, properties: { q: { type: 'string' } } } };
    expect(schemaFingerprint(a)).toBe(schemaFingerprint(b));
    expect(schemaFingerprint(a)).not.toBe(schemaFingerprint(c));
    const log = new LearnedLog(ONE_SOURCE);
    log.record({ query: 'rotate keys', tool: a.name, schema: schemaFingerprint(a) });
    log.checkSchema(a.name, schemaFingerprint(b));
    expect(log.evidence(a.name)).toBeDefined();
    log.checkSchema(a.name, schemaFingerprint(c));
    expect(log.evidence(a.name)).toBeUndefined();
  });

  it('C13: round-trips through its JSON form and rejects anything else', () => {
    const log = new LearnedLog(ONE_SOURCE);
    log.record({ query: 'rotate the keys', tool: 't', at: 3, schema: 'abc' });
    const copy = LearnedLog.fromJSON(JSON.parse(JSON.stringify(log.toJSON())));
    expect(copy.toJSON()).toEqual(log.toJSON());
    expect(() => LearnedLog.fromJSON({ version: 2, tools: {} })).toThrow(TypeError);
    expect(() => LearnedLog.fromJSON({ version: 1, tools: { t: { entries: [['a', 'x', 1]] } } })).toThrow(TypeError);
  });

  it('C13: forget one tool or everything', () => {
    const log = new LearnedLog(ONE_SOURCE);
    log.record({ query: 'one thing', tool: 'a' });
    log.record({ query: 'other thing', tool: 'b' });
    expect(log.forget('a')).toBe(true);
    expect(log.forget('a')).toBe(false);
    expect(log.toolNames()).toEqual(['b']);
    log.clear();
    expect(log.entryCount).toBe(0);
  });
});
