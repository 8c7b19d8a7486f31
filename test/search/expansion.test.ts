import { describe, expect, it } from 'vitest';
import { defaultRanker, weightedQueryTerms, type RareWordExpander } from '../../src/search/rank-default.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { parseThesaurus, shippedThesaurus } from '../../src/search/thesaurus.js';
import { mcp } from './helpers.js';

const tools = [
  mcp('weather', 'get_forecast', 'Weather forecast for a city: temperature and precipitation.'),
  mcp('files', 'read_file', 'Read a file from disk.'),
  mcp('files', 'write_file', 'Write a file to disk.'),
];

describe('C6: rare-word expansion (issue 12)', () => {
  it('C6: the shipped tool-text thesaurus knows tool neighbours', () => {
    const neighbours = shippedThesaurus().get('currenc')?.map((n) => n.term) ?? [];
    expect(neighbours.length).toBeGreaterThan(0);
    expect(neighbours.some((t) => ['usd', 'eur', 'fiat', 'exchang'].includes(t))).toBe(true);
  });

  it('C6: a word absent from the catalog is expanded with its catalog-present neighbours; a common word is not', () => {
    const thesaurus = parseThesaurus('drizzl umbrella 70 weather 60 forecast 50 rain 40\nfile disk 90');
    // umbrella is in no tool: skipped, the next neighbours are taken instead (2 by default).
    const df = (t: string) => ({ file: 5, weather: 1, forecast: 1, rain: 1, disk: 1 })[t] ?? 0;
    const expander: RareWordExpander = { options: { weight: 1, neighbours: 2, maxDf: 2 }, thesaurus, df };
    const sources = new Map<string, string>();
    const terms = weightedQueryTerms('drizzle file', 0, expander, sources);
    expect([...terms.keys()].sort()).toEqual(['drizzl', 'file', 'forecast', 'weather']);
    expect(terms.get('weather')).toBeCloseTo(0.6);
    expect(terms.get('forecast')).toBeCloseTo(0.5);
    expect(sources.get('weather')).toMatch(/expansion of drizzl/);
  });

  it('C6: expansion finds a tool that shares no word with the query', () => {
    const thesaurus = parseThesaurus('drizzl weather 60 forecast 50');
    const query = parseKeywordQuery('will it drizzle');
    expect(defaultRanker({ expansion: { weight: 0, neighbours: 3, maxDf: 2 }, thesaurus }).build(tools).search(query, 5)).toEqual([]);
    const hits = defaultRanker({ thesaurus }).build(tools).search(query, 5);
    expect(hits[0]?.name).toBe('mcp__weather__get_forecast');
  });
});
