/**
 * Hostile search input, shared by the short CI property test (test/fuzz) and the full run
 * (`npm run fuzz`, bench/fuzz.ts): random and adversarial queries against the query parser and
 * every ranker, through `ToolSearcher` (all modes) and straight into each ranker's index.
 */
import fc from 'fast-check';
import { admitTool } from '../src/core/catalog.js';
import type { ToolSpec } from '../src/core/tool.js';
import { cleanQuery, parseKeywordQuery, parseSelect } from '../src/search/query.js';
import { RANKER_NAMES, createRanker } from '../src/search/rankers.js';
import { ToolSearcher, type SearchMode, type SearchPool } from '../src/search/searcher.js';

const WORDS = [
  'read',
  'write',
  'file',
  'list',
  'create',
  'issue',
  'github',
  'slack',
  'message',
  'send',
  'search',
  'query',
  'database',
  'user',
  'delete',
  'update',
  'branch',
  'commit',
  'weather',
  'calendar',
];

/** A deterministic pool of 240 MCP tools with schemas, plus one with a huge description. */
export function fuzzPool(): SearchPool {
  const tools: ToolSpec[] = [];
  for (let i = 0; i < 240; i++) {
    const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length]!;
    tools.push(
      admitTool({
        name: `${w(0)}_${w(1)}_${i}`,
        description: `${w(2)} the ${w(3)} of a ${w(4)}; returns ${w(5)} ${w(6)}.`,
        inputSchema: {
          type: 'object',
          properties: { [w(7)]: { type: 'string', description: `the ${w(8)} to ${w(9)}` } },
        },
        origin: { kind: 'mcp', server: `srv${i % 6}` },
      }),
    );
  }
  tools.push(
    admitTool({ name: 'huge', description: 'a'.repeat(20_000) + '!', origin: { kind: 'mcp', server: 'srv0' } }),
  );
  return { tools, deferred: new Set(tools.map((t) => t.name)), pendingServers: ['slow'] };
}

const CATASTROPHIC = [
  '(a+)+$',
  '(.*a){20}',
  '(a|a)*b',
  '(a*)*b',
  '([a-z]+)*$',
  '(x+x+)+y',
  '^(\\w+\\s?)*$',
  '(.*){1,32000}',
  '(?:a|aa)+$',
  '(a|b|ab)*c',
];

const controlChars = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
  maxLength: 200,
});

/** Random strings mixed with the shapes that have broken search engines before. */
export function hostileQuery(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.string({ maxLength: 300 }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 2 },
    { arbitrary: controlChars, weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '\n',
        '+',
        '++++',
        'select:',
        'select:,,,',
        'SELECT: a,b',
        'mcp__',
        'mcp____',
        'mcp__srv0',
        'select:mcp__srv0__read_write_0',
      ),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...CATASTROPHIC), weight: 2 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...CATASTROPHIC), fc.integer({ min: 1, max: 200 }))
        .map(([p, n]) => p.repeat(n)),
      weight: 1,
    },
    {
      arbitrary: fc
        .integer({ min: 1, max: 5_000 })
        .map((n) => Array.from({ length: n }, (_, i) => `+${WORDS[i % WORDS.length]}${i}`).join(' ')),
      weight: 1,
    },
    { arbitrary: fc.integer({ min: 1, max: 3_000 }).map((n) => `select:${'x,'.repeat(n)}`), weight: 1 },
    {
      arbitrary: fc
        .array(
          fc.constantFrom('(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '\\', '^', '$', '.', 'a', 'select:', ','),
          { maxLength: 300 },
        )
        .map((a) => a.join('')),
      weight: 3,
    },
    {
      arbitrary: fc
        .constantFrom(100_000, 8_193, 20_000)
        .chain((n) =>
          fc
            .constantFrom('a', '+a ', 'select:x,', '(a+)+', '\u0000', '😀 ')
            .map((u) => u.repeat(Math.ceil(n / u.length)).slice(0, n)),
        ),
      weight: 1,
    },
  );
}

/** One named thing a query is run through: the parser, a ranker's index, or a searcher mode. */
export interface FuzzTarget {
  readonly name: string;
  /** Throws if the target throws. */
  run(query: string): void;
}

const MODES: readonly SearchMode[] = ['default', 'regex', 'bm25'];

/** 1 parser + 4 ranker indexes (fed unclean text) + 4 rankers × 3 modes through ToolSearcher = 17 targets. */
export function fuzzTargets(pool: SearchPool = fuzzPool()): FuzzTarget[] {
  const deferredTools = pool.tools.filter((t) => pool.deferred.has(t.name));
  const targets: FuzzTarget[] = [
    {
      name: 'parser',
      run(query) {
        cleanQuery(query);
        parseSelect(query);
        parseKeywordQuery(query);
      },
    },
  ];
  for (const ranker of RANKER_NAMES) {
    const index = createRanker(ranker).build(deferredTools);
    // Straight into the ranker, bypassing the searcher's cleaning and length cut.
    targets.push({ name: `index:${ranker}`, run: (query) => void index.search(parseKeywordQuery(query), 5) });
  }
  for (const ranker of RANKER_NAMES) {
    const searcher = new ToolSearcher({ ranker });
    for (const mode of MODES) {
      targets.push({
        name: `search:${ranker}/${mode}`,
        run: (query) => void searcher.search(pool, query, { mode, maxResults: 5 }),
      });
    }
  }
  return targets;
}

/** A query paired with the index of the target it runs through. */
export function fuzzCase(targetCount: number): fc.Arbitrary<[number, string]> {
  return fc.tuple(fc.nat({ max: targetCount - 1 }), hostileQuery());
}
