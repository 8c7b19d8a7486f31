/**
 * C1–C9 under hostile input, the short CI budget of `npm run fuzz` (bench/fuzz.ts runs 1,000,000):
 * random, huge, control-character, unbalanced `select:`, thousands of `+` terms and catastrophic
 * regexes, through the query parser, every ranker's index and ToolSearcher in every mode.
 * Nothing may throw. Times are not asserted here (the bench script reports them).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzCase, fuzzTargets } from '../../bench/fuzz-queries.js';

const targets = fuzzTargets();

describe('C1–C9 fuzzing: parser and rankers never throw', () => {
  it('C1/C4/C7/C9: 3,000 hostile queries across the parser, four ranker indexes and 12 searcher ranker/mode pairs', () => {
    fc.assert(
      fc.property(fuzzCase(targets.length), ([which, query]) => {
        targets[which]!.run(query);
      }),
      { numRuns: 3_000, seed: 42 },
    );
  });

  it('C7: catastrophic regexes and 100 KB queries through every target', () => {
    const worst = [
      '(a+)+$',
      '(.*a){20}',
      '(a|a)*b',
      '^(\\w+\\s?)*$',
      'select:',
      'select:,,a,',
      '+'.repeat(5_000),
      'a'.repeat(100_000),
      '\u0000\u0007\u001b[31m',
      '(((((',
      ')))))',
      '[',
      '\\',
    ];
    for (const target of targets) {
      for (const query of worst)
        expect(() => target.run(query), `${target.name} on ${JSON.stringify(query.slice(0, 20))}`).not.toThrow();
    }
  });
});
