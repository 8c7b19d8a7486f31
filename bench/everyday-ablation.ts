/**
 * Issue 31 (C14): what each new part of the default ranker does, one switched off at a time, on
 * the six labelled sets (R@5; the mean is theirs), the distractor case and the everyday-request
 * set (R@5 and R@1). The request words, the leading-verb senses, parameter enum values and the
 * naming words ("called") are code, not options: main (301692b) is the row without the first two.
 *   npx tsx bench/everyday-ablation.ts
 */
import { defaultRanker, type DefaultRankerOptions } from '../src/search/rank-default/index.js';
import { GLOVE_SCALE, LazyThesaurus } from '../src/search/thesaurus.js';
import { GLOVE_TABLE } from '../src/search/tables/glove-table.js';
import { THESAURUS_TABLE } from '../src/search/tables/thesaurus-table.js';
import { distractorSet, everydaySet, loadSet, QUERY_SETS, setContext, type BenchSet } from './datasets.js';
import { evaluate, rankerRankIds } from './evaluate.js';

const withoutQueryTable = new LazyThesaurus([
  { table: THESAURUS_TABLE, scale: 1 },
  { table: GLOVE_TABLE, scale: GLOVE_SCALE },
]);
const ROWS: [string, Partial<DefaultRankerOptions>][] = [
  ['all parts (default)', {}],
  ['name-part rule off (nameWeight 0)', { nameWeight: 0 }],
  ['absent-word synonyms at the ordinary weight (0.3)', { absentSynonymWeight: 0.3 }],
  ['learned query-word table off', { thesaurus: withoutQueryTable }],
  ['synonyms name no name part (nameSynonymCover 0)', { nameSynonymCover: 0 }],
  ['implied senses off (impliedWeight 0)', { impliedWeight: 0 }],
  ['value shapes off (valueShapeWeight 0)', { valueShapeWeight: 0 }],
  ['questions lower no change tool (questionChangeFactor 1)', { questionChangeFactor: 1 }],
];
const sets: BenchSet[] = [...QUERY_SETS.map((s) => loadSet(s)), distractorSet(), everydaySet()];
const f = (x: number) => x.toFixed(3);
console.log(`| configuration | ${QUERY_SETS.join(' | ')} | mean | distractors | everyday R@5 | everyday R@1 |`);
console.log(`|---|${QUERY_SETS.map(() => '---').join('|')}|---|---|---|---|`);
for (const [label, options] of ROWS) {
  const ranker = defaultRanker(options);
  const r = sets.map((set) => evaluate(set, rankerRankIds(ranker, set.tools, setContext(set))).all);
  const six = r.slice(0, QUERY_SETS.length).map((x) => x['R@5']);
  const mean = six.reduce((a, b) => a + b, 0) / six.length;
  const every = r[r.length - 1]!;
  console.log(
    `| ${label} | ${six.map(f).join(' | ')} | ${mean.toFixed(4)} | ${f(r[QUERY_SETS.length]!['R@5'])} | ${f(every['R@5'])} | ${f(every['R@1'])} |`,
  );
}
