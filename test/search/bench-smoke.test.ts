import { describe, expect, it } from 'vitest';
import { evaluate, rankerRankIds } from '../../bench/evaluate.js';
import { meanRows, scoreQuery } from '../../bench/metrics.js';
import { createRanker } from '../../src/search/rankers.js';
import { mcp } from './helpers.js';

describe('bench harness (smoke)', () => {
  it('scores one query as the data README defines the metrics', () => {
    // groups: {a} at rank 2, {b, b2} best at rank 4, {c} missing
    const m = scoreQuery(['x', 'a', 'y', 'b2', 'b'], [['a'], ['b', 'b2'], ['c']]);
    expect(m['R@1']).toBe(0);
    expect(m['R@5']).toBeCloseTo(2 / 3);
    expect(m['Hit@5']).toBe(1);
    expect(m['MRR@10']).toBeCloseTo(1 / 2);
    const idcg = 1 + 1 / Math.log2(3) + 1 / Math.log2(4);
    expect(m['nDCG@10']).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(5)) / idcg);
    expect(scoreQuery([], [['a']])['MRR@10']).toBe(0);
    expect(meanRows([m, scoreQuery(['a'], [['a']])])['R@1']).toBeCloseTo(0.5);
  });

  it('evaluates rankers on a tiny inline set', () => {
    const tools = [
      { ...mcp('slack', 'send_message', 'Send a message to a channel'), id: 'slack/send_message' },
      { ...mcp('github', 'create_issue', 'Open a new issue in a repository'), id: 'github/create_issue' },
      { ...mcp('weather', 'forecast', 'Weather forecast for a city'), id: 'weather/forecast' },
    ];
    const set = {
      name: 'tiny',
      tools,
      queries: [
        { qid: '1', query: 'post a slack message', gold: [['slack/send_message']] },
        {
          qid: '2',
          query: 'open an issue on github and check the weather',
          gold: [['github/create_issue'], ['weather/forecast']],
        },
      ],
    };
    for (const name of ['default', 'bm25', 'reference'] as const) {
      const result = evaluate(set, rankerRankIds(createRanker(name), tools));
      expect(result.queries).toBe(2);
      expect(result.all['R@5']).toBeGreaterThan(0.5);
    }
  });
});
