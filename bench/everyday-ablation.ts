/**
 * Issues 31 and 40 (C14, C15): what each part of the default ranker does, one switched off at a
 * time, on every development set: the six labelled sets (R@5 and R@1; the mean is their R@5), the
 * distractor case, and the everyday set with the first five holdouts (R@1 / R@5). The sixth and
 * seventh holdouts are the clean estimate of the final ranker and are never read here. Rules that
 * are code, not options (the request words, the stems kept apart, the noun synonyms …), are
 * measured against the commit before them instead (bench/README.md says which).
 *   npx tsx bench/everyday-ablation.ts            # markdown tables
 *   npx tsx bench/everyday-ablation.ts --only plainRequestWords,actionDisagree   # the default and the rows whose label holds one of these
 */
import { defaultRanker, type DefaultRankerOptions } from '../src/search/rank-default/index.js';
import { GLOVE_SCALE, LazyThesaurus } from '../src/search/thesaurus.js';
import { GLOVE_TABLE } from '../src/search/tables/glove-table.js';
import { THESAURUS_TABLE } from '../src/search/tables/thesaurus-table.js';
import {
  distractorSet,
  everydaySet,
  holdoutName,
  holdoutSet,
  loadSet,
  QUERY_SETS,
  setContext,
  type BenchSet,
} from './datasets.js';
import { evaluate, rankerRankIds } from './evaluate.js';

/** The holdouts read here: the ones developed on. Never 6 or 7 (the clean estimate). */
const DEVELOPED_HOLDOUTS = [1, 2, 3, 4, 5];

const withoutQueryTable = new LazyThesaurus([
  { table: THESAURUS_TABLE, scale: 1 },
  { table: GLOVE_TABLE, scale: GLOVE_SCALE },
]);
const ROWS: [string, Partial<DefaultRankerOptions>][] = [
  ['all parts (default)', {}],
  ['action agreement off (actionDisagreeFactor 1)', { actionDisagreeFactor: 1 }],
  ['destructive tools unasked not lowered (unaskedDestructiveFactor 1)', { unaskedDestructiveFactor: 1 }],
  ['both action rules off', { actionDisagreeFactor: 1, unaskedDestructiveFactor: 1 }],
  [
    'incidental verbs count as any word (incidentalVerbsNameNothing false, incidentalVerbWeight 1)',
    { incidentalVerbsNameNothing: false, incidentalVerbWeight: 1 },
  ],
  ["a server's own text reaches no tool (serverTextWeight 0)", { serverTextWeight: 0 }],
  ['questions lift no catch-all tool (questionAnswerWeight 0)', { questionAnswerWeight: 0 }],
  ['name-part rule off (nameWeight 0)', { nameWeight: 0 }],
  ['absent-word synonyms at the ordinary weight (0.3)', { absentSynonymWeight: 0.3 }],
  ['learned query-word table off', { thesaurus: withoutQueryTable }],
  ['synonyms name no name part (nameSynonymCover 0)', { nameSynonymCover: 0 }],
  ['implied senses off (impliedWeight 0)', { impliedWeight: 0 }],
  ['value shapes off (valueShapeWeight 0)', { valueShapeWeight: 0 }],
  ['questions lower no change tool (questionChangeFactor 1)', { questionChangeFactor: 1 }],
  ['plain requests of at most 12 words (plainRequestWords 12)', { plainRequestWords: 12 }],
];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]!.split(',') : undefined;
const rows = only ? ROWS.filter(([label], k) => k === 0 || only.some((o) => label.includes(o))) : ROWS;
const six = QUERY_SETS.map((s) => loadSet(s));
const everyday: BenchSet[] = [everydaySet(), ...DEVELOPED_HOLDOUTS.map((n) => holdoutSet(n))];
const sets: BenchSet[] = [...six, distractorSet(), ...everyday];
const f = (x: number) => x.toFixed(3);
const everydayNames = ['everyday', ...DEVELOPED_HOLDOUTS.map((n) => holdoutName(n).replace('everyday-holdout', 'h'))];

const lines: [string[], string[]] = [[], []];
for (const [label, options] of rows) {
  const ranker = defaultRanker(options);
  const r = sets.map((set) => evaluate(set, rankerRankIds(ranker, set.tools, setContext(set))).all);
  const sixR5 = r.slice(0, six.length).map((x) => x['R@5']);
  const mean = sixR5.reduce((a, b) => a + b, 0) / sixR5.length;
  const distractors = r[six.length]!;
  const daily = r.slice(six.length + 1);
  lines[0].push(
    `| ${label} | ${r
      .slice(0, six.length)
      .map((x) => `${f(x['R@5'])} / ${f(x['R@1'])}`)
      .join(' | ')} | ${mean.toFixed(4)} | ${f(distractors['R@5'])} / ${f(distractors['R@1'])} |`,
  );
  lines[1].push(`| ${label} | ${daily.map((x) => `${f(x['R@1'])} / ${f(x['R@5'])}`).join(' | ')} |`);
}
console.log('Six sets, R@5 / R@1:\n');
console.log(`| configuration | ${QUERY_SETS.join(' | ')} | mean R@5 | distractors |`);
console.log(`|---|${QUERY_SETS.map(() => '---').join('|')}|---|---|`);
for (const line of lines[0]) console.log(line);
console.log('\nEveryday sets, R@1 / R@5:\n');
console.log(`| configuration | ${everydayNames.join(' | ')} |`);
console.log(`|---|${everydayNames.map(() => '---').join('|')}|`);
for (const line of lines[1]) console.log(line);
