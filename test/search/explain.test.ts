import { describe, expect, it } from 'vitest';
import { ToolSearcher, formatSearchResult } from '../../src/search/searcher.js';
import { formatExplanation } from '../../src/search/explain.js';
import { SEARCH_TOOL_DESCRIPTION } from '../../src/core/search-tool.js';
import { mcp, poolOf } from './helpers.js';

const tools = [
  mcp('weather', 'get_forecast', 'Weather forecast for a city: temperature and precipitation.', {
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  }),
  mcp('files', 'create_directory', 'Create a new directory.'),
  mcp('files', 'read_file', 'Read a file from disk.'),
  mcp('fx', 'convert_currency', 'Convert an amount between currencies at the current exchange rate.'),
  mcp('memory', 'create_entities', 'Create entities in the knowledge graph.'),
  mcp('memory', 'search_nodes', 'Search the knowledge graph for nodes.'),
];

describe('C11: explain', () => {
  it('C11: each hit says which fields and terms scored, with server and clause evidence', () => {
    const result = new ToolSearcher().search(
      poolOf(tools),
      'get the weather forecast for the city, then create a directory',
      { explain: true },
    );
    expect(result.explanations).toHaveLength(result.matches.length);
    const forecast = result.explanations!.find((e) => e.name === 'mcp__weather__get_forecast')!;
    expect(forecast.how).toBe('keyword ranking');
    const weather = forecast.terms!.find((t) => t.term === 'weather')!;
    expect(weather.origin).toBe('query');
    expect(weather.fields).toEqual(expect.arrayContaining(['server', 'description']));
    expect(forecast.terms!.find((t) => t.term === 'citi')?.fields).toEqual(
      expect.arrayContaining(['paramDescriptions']),
    );
    expect(forecast.clause?.text).toMatch(/weather forecast/);
    const dir = result.explanations!.find((e) => e.name === 'mcp__files__create_directory')!;
    expect(dir.server?.name).toBe('files');
    expect(dir.server!.score).toBeGreaterThan(0);
    const text = formatExplanation(forecast).join('\n');
    expect(text).toMatch(/weather in server\+description/);
    expect(text).toMatch(/clause evidence/);
  });

  it('C11: expansions are named as such', () => {
    const result = new ToolSearcher().search(poolOf(tools), 'will it rain tomorrow', { explain: true });
    expect(result.matches[0]).toBe('mcp__weather__get_forecast');
    const term = result.explanations![0]!.terms!.find((t) => t.term === 'weather')!;
    expect(term.origin).toMatch(/^expansion of rain/);
  });

  it('C11: select, exact and prefix hits say which rule found them; no explain, no explanations', () => {
    const searcher = new ToolSearcher();
    const pool = poolOf(tools);
    expect(searcher.search(pool, 'select:mcp__fx__convert_currency', { explain: true }).explanations?.[0]?.how).toMatch(
      /select/,
    );
    expect(searcher.search(pool, 'mcp__memory', { explain: true }).explanations?.map((e) => e.how)).toEqual([
      'server prefix mcp__memory__',
      'server prefix mcp__memory__',
    ]);
    expect(searcher.search(pool, 'weather forecast').explanations).toBeUndefined();
  });
});

describe('C12: never empty-handed', () => {
  it('C12: a search with no match names the likely servers and how to list one', () => {
    const result = new ToolSearcher().search(poolOf(tools), 'knowledge about my cousin Ana');
    expect(result.lowConfidence).toBe(true);
    const servers = result.suggestedServers!.map((s) => s.server);
    expect(servers[0]).toBe('memory');
    const text = formatSearchResult(result);
    expect(text).toMatch(/mcp__memory — 2 tools: create_entities, search_nodes/);
    expect(text).toMatch(/Search "mcp__<server>" to list/);
  });

  it('C12: an empty result that still has servers to offer says so, and a strong result adds nothing', () => {
    const searcher = new ToolSearcher();
    const none = searcher.search(poolOf(tools), 'zzqx unknownword');
    expect(none.matches).toEqual([]);
    expect(none.lowConfidence).toBe(true);
    expect(formatSearchResult(none)).toMatch(/No matching deferred tools/);
    const strong = searcher.search(poolOf(tools), 'create entities knowledge graph');
    expect(strong.lowConfidence).toBeUndefined();
    expect(strong.suggestedServers).toBeUndefined();
    expect(formatSearchResult(strong)).not.toMatch(/servers most likely/);
  });

  it('C12: server instructions count as server-level evidence and give the summary line', () => {
    const servers = new Map([
      [
        'memory',
        {
          title: 'Knowledge Graph Memory',
          description: 'Remember facts about the user across chats. Use it to store preferences.',
        },
      ],
    ]);
    const pool = { ...poolOf(tools), servers };
    const result = new ToolSearcher().search(pool, 'user preferences', { explain: true });
    expect(result.suggestedServers?.[0]?.server).toBe('memory');
    expect(result.suggestedServers?.[0]?.summary).toBe(
      'Knowledge Graph Memory: Remember facts about the user across chats.',
    );
    expect(formatSearchResult(result)).toMatch(/mcp__memory — Knowledge Graph Memory/);
  });

  it('C12: the search tool tells the model to use capability words and to browse a server', () => {
    expect(SEARCH_TOOL_DESCRIPTION).toMatch(/capability words/);
    expect(SEARCH_TOOL_DESCRIPTION).toMatch(/mcp__<server>/);
  });
});
