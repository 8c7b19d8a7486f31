import { describe, expect, it } from 'vitest';
import {
  defaultRanker,
  splitCompound,
  weightedQueryTerms,
  type RareWordExpander,
} from '../../src/search/rank-default/index.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { LazyThesaurus, parseThesaurus, shippedThesaurus } from '../../src/search/thesaurus.js';
import { mcp } from './helpers.js';

const tools = [
  mcp('weather', 'get_forecast', 'Weather forecast for a city: temperature and precipitation.'),
  mcp('files', 'read_file', 'Read a file from disk.'),
  mcp('files', 'write_file', 'Write a file to disk.'),
];

describe('C6: rare-word expansion (issue 12)', () => {
  it('C6: the shipped tool-text thesaurus knows tool neighbours', () => {
    const neighbours =
      shippedThesaurus()
        .get('currenc')
        ?.map((n) => n.term) ?? [];
    expect(neighbours.length).toBeGreaterThan(0);
    expect(neighbours.some((t) => ['usd', 'eur', 'fiat', 'exchang'].includes(t))).toBe(true);
  });

  it('C6: the shipped thesaurus read on demand equals the tables parsed whole (first table wins, scale applied)', () => {
    const first = 'drizzl umbrella 70 weather 60\nfile disk 90\nbroken\n';
    const second = 'drizzl rain 80\nsun light 50 day 40';
    const lazy = new LazyThesaurus([
      { table: first, scale: 1 },
      { table: second, scale: 0.5 },
    ]);
    const whole = parseThesaurus(second, 0.5, parseThesaurus(first));
    expect([...lazy]).toEqual([...whole]);
    expect(lazy.get('sun')).toEqual([
      { term: 'light', similarity: 0.25 },
      { term: 'day', similarity: 0.2 },
    ]);
    expect(lazy.get('broken')).toBeUndefined();
    expect(lazy.size).toBe(whole.size);
  });

  it('C6: a word absent from the catalog is expanded with its catalog-present neighbours; a common word is not', () => {
    const thesaurus = parseThesaurus('drizzl umbrella 70 weather 60 forecast 50 rain 40\nfile disk 90');
    // umbrella is in no tool: skipped, the next neighbours are taken instead (2 by default).
    const df = (t: string) => ({ file: 5, weather: 1, forecast: 1, rain: 1, disk: 1 })[t] ?? 0;
    const expander: RareWordExpander = {
      options: { weight: 1, neighbours: 2, maxDf: 2, minStemLength: 3 },
      thesaurus,
      df,
    };
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
    expect(
      defaultRanker({ expansion: { weight: 0, neighbours: 3, maxDf: 2, minStemLength: 3 }, thesaurus })
        .build(tools)
        .search(query, 5),
    ).toEqual([]);
    const hits = defaultRanker({ thesaurus }).build(tools).search(query, 5);
    expect(hits[0]?.name).toBe('mcp__weather__get_forecast');
  });
});

describe('C6: compound words (issue 12)', () => {
  const known = (w: string) => ['movies', 'movie', 'data', 'base', 'database', 'seven', 'trader', 'api'].includes(w);

  it('C6: a solid word splits into the fewest known words, or not at all', () => {
    expect(splitCompound('moviesdatabase', known)).toEqual(['movies', 'database']);
    expect(splitCompound('seventraderapi', known)).toEqual(['seven', 'trader', 'api']);
    expect(splitCompound('database', known)).toEqual(['data', 'base']);
    expect(splitCompound('moviesxdatabase', known)).toBeUndefined();
  });

  it('C6: a request naming an API solid finds the tool whose words it is made of', () => {
    const catalog = [
      mcp('market', 'list_countries', 'List the countries of the Seven Trader API.'),
      mcp('geo', 'country_info', 'Facts about a country.'),
      mcp('geo', 'capital', 'The capital city of a country.'),
    ];
    const ranker = defaultRanker({ expansion: { weight: 0, neighbours: 0, maxDf: 0, minStemLength: 3 } });
    const index = ranker.build(catalog);
    const query = parseKeywordQuery('which countries does SevenTraderAPI cover');
    expect(index.search(query, 1)[0]?.name).toBe('mcp__market__list_countries');
    const sources = new Map<string, string>();
    const terms = weightedQueryTerms(
      'SevenTraderAPI',
      0,
      {
        options: { weight: 0, neighbours: 0, maxDf: 0, minStemLength: 3 },
        thesaurus: new Map(),
        df: () => 0,
        compoundParts: (w) => (w === 'seventraderapi' ? ['seven', 'trader', 'api'] : undefined),
        compounds: { split: 0.7, join: 0 },
      },
      sources,
    );
    expect(terms.get('trader')).toBeCloseTo(0.7);
    expect(sources.get('trader')).toBe('part of seventraderapi');
    // Without compounds, the query shares no word with any tool but "countries".
    const plain = defaultRanker({
      expansion: { weight: 0, neighbours: 0, maxDf: 0, minStemLength: 3 },
      compounds: { split: 0, join: 0 },
    });
    expect(plain.build(catalog).search(parseKeywordQuery('SevenTraderAPI'), 5)).toEqual([]);
  });

  it('C6: two query words whose solid form a tool uses add it ("zip code" → zipcode)', () => {
    const catalog = [
      mcp('post', 'lookup', 'Look up a place.', {
        inputSchema: { type: 'object', properties: { zipcode: { type: 'string' } } },
      }),
      mcp('post', 'track', 'Track a parcel by its code.'),
    ];
    const noThesaurus = { weight: 0, neighbours: 0, maxDf: 0, minStemLength: 3 };
    const query = parseKeywordQuery('zip code');
    const names = (compounds?: { split: number; join: number }) =>
      defaultRanker({ expansion: noThesaurus, ...(compounds && { compounds }) })
        .build(catalog)
        .search(query, 5)
        .map((h) => h.name);
    expect(names({ split: 0, join: 0 })).toEqual(['mcp__post__track']);
    expect(names()).toContain('mcp__post__lookup');
    const terms = weightedQueryTerms('zip code', 0, {
      options: { weight: 0, neighbours: 0, maxDf: 0, minStemLength: 3 },
      thesaurus: new Map(),
      df: (t) => (t === 'zipcod' ? 1 : 0),
      compounds: { split: 0, join: 0.5 },
    });
    expect(terms.get('zipcod')).toBeCloseTo(0.5);
  });
});
