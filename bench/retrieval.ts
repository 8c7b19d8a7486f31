/**
 * `npm run bench:retrieval` — every ranker on every labelled set, metrics as the data README §5
 * defines them, plus the distractor case (livemcpbench + smithery), the everyday set and its
 * holdouts (reported apart; C14). Prints Markdown and writes
 * bench/results/retrieval.md. Options: --sets a,b  --rankers a,b  --no-write
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRanker } from '../src/search/rankers.js';
import type { Ranker } from '../src/search/ranker.js';
import {
  distractorSet,
  EVERYDAY,
  EVERYDAY_HOLDOUT,
  EVERYDAY_SETS,
  holdoutName,
  loadSet,
  QUERY_SETS,
  setContext,
  type BenchSet,
} from './datasets.js';
import { evaluate, rankerRankIds, type SetResult } from './evaluate.js';
import { METRICS } from './metrics.js';
import { miniSearchRanker } from './minisearch-peer.js';
import { f3, header } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const RANKERS: Record<string, () => Ranker> = {
  bm25: () => createRanker('bm25'),
  reference: () => createRanker('reference'),
  minisearch: () => miniSearchRanker,
  default: () => createRanker('default'),
};

const setNames = arg('sets')?.split(',') ?? [...QUERY_SETS, 'distractors', ...EVERYDAY_SETS.keys()];
const rankerNames = arg('rankers')?.split(',') ?? Object.keys(RANKERS);

function row(
  set: string,
  subset: string,
  ranker: string,
  r: { tools: number; queries: number } & Record<string, number>,
): string {
  return `| ${set} | ${subset} | ${ranker} | ${r.tools} | ${r.queries} | ${METRICS.map((m) => f3(r[m]!)).join(' | ')} |`;
}

const lines: string[] = [];
const summary = new Map<string, Map<string, number>>();
/** The everyday set's and the holdout's R@1 / R@5 / MRR per phrasing and ranker (C14). */
const byPhrasing = new Map<string, string[]>([...EVERYDAY_SETS.keys()].map((name) => [name, []]));
const log = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
log(`| set | subset | ranker | tools | queries | ${METRICS.join(' | ')} |`);
log(`|---|---|---|---|---|${METRICS.map(() => '---').join('|')}|`);
for (const setName of setNames) {
  const started = Date.now();
  let set: BenchSet;
  if (setName === 'distractors') {
    const d = distractorSet();
    process.stderr.write(
      `distractors: ${d.added} smithery tools added, ${d.skipped} identical (name, description) left out\n`,
    );
    set = d;
  } else set = EVERYDAY_SETS.get(setName)?.() ?? loadSet(setName);
  for (const rankerName of rankerNames) {
    const factory = RANKERS[rankerName];
    if (!factory) throw new Error(`unknown ranker ${rankerName}`);
    const result: SetResult = evaluate(set, rankerRankIds(factory(), set.tools, setContext(set)));
    log(row(set.name, 'all', rankerName, { tools: result.tools, queries: result.queries, ...result.all }));
    for (const [subset, r] of Object.entries(result.subsets))
      log(row(set.name, subset, rankerName, { tools: result.tools, ...r }));
    const phrasingRows = byPhrasing.get(set.name);
    if (phrasingRows)
      for (const [phrasing, r] of [['all', result.all] as const, ...Object.entries(result.subsets)])
        phrasingRows.push(`| ${phrasing} | ${rankerName} | ${f3(r['R@1'])} | ${f3(r['R@5'])} | ${f3(r['MRR@10'])} |`);
    let bySet = summary.get(set.name);
    if (!bySet) summary.set(set.name, (bySet = new Map()));
    bySet.set(rankerName, result.all['R@5']);
  }
  process.stderr.write(`${set.name}: ${Date.now() - started} ms\n`);
}

const summaryLines = [
  '## R@5 summary',
  '',
  `| set | ${rankerNames.join(' | ')} |`,
  `|---|${rankerNames.map(() => '---').join('|')}|`,
  ...[...summary].map(([set, m]) => `| ${set} | ${rankerNames.map((r) => f3(m.get(r) ?? NaN)).join(' | ')} |`),
];
/** The per-phrasing section of one set, under its title and what it is; nothing if it was not run. */
const PHRASING_SECTIONS: [set: string, title: string, about: string[]][] = [
  [
    EVERYDAY,
    'Everyday requests by phrasing',
    [
      'Hand-written requests over the live tool lists of real npm MCP servers (`test/fixtures/real-servers/`),',
      "each intent written as a user's sentence, a model's keyword query and a terse command.",
    ],
  ],
  [
    EVERYDAY_HOLDOUT,
    'Everyday holdout by phrasing',
    [
      'New intents over the same catalog (`holdout.jsonl`), written and committed before any ranking of them',
      'was seen. Read once per candidate rule in one session, then developed on in the next: a second',
      'development set now, no longer an estimate.',
    ],
  ],
  [
    holdoutName(2),
    'Everyday holdout 2 by phrasing',
    [
      'A second set of new intents over the same catalog (`holdout-2.jsonl`), written from the catalog alone',
      'after the first holdout was used up and committed before any ranking of it was seen. Read once, then',
      'developed on (one more rule): a development set now.',
    ],
  ],
  [
    holdoutName(3),
    'Everyday holdout 3 by phrasing',
    [
      'A third set of new intents over the same catalog (`holdout-3.jsonl`), written from the catalog alone',
      'after the second holdout was used up and committed before any ranking of it was seen. Read once, then',
      "developed on (product words, values, the assistant's memory): a development set now.",
    ],
  ],
  [
    holdoutName(4),
    'Everyday holdout 4 by phrasing',
    [
      'A fourth set of new intents over the same catalog (`holdout-4.jsonl`), written from the catalog alone',
      'after the third holdout was used up and committed before any ranking of it was seen. Read once, then',
      'developed on in the same session: a development set now.',
    ],
  ],
  [
    holdoutName(5),
    'Everyday holdout 5 by phrasing',
    [
      'A fifth set of new intents over the same catalog (`holdout-5.jsonl`), written from the catalog alone',
      'while the fourth was being developed on and committed before any ranking of it was seen. Read once, then',
      'developed on (five more rules): a development set now.',
    ],
  ],
  [
    holdoutName(6),
    'Everyday holdout 6 by phrasing',
    [
      'A sixth set of new intents over the same catalog (`holdout-6.jsonl`), written from the catalog alone',
      'while the fifth was being developed on and committed before any ranking of it was seen. Read once at the',
      'end of the last round, never tuned on.',
    ],
  ],
  [
    holdoutName(7),
    'Everyday holdout 7 by phrasing',
    [
      'A seventh set (`holdout-7.jsonl`), written by a second helper at the same time as the sixth, from the',
      'catalog alone, and committed before any ranking of it was seen. Read once at the end of the last round,',
      'never tuned on.',
    ],
  ],
  [
    holdoutName(8),
    'Everyday holdout 8 by phrasing',
    [
      'An eighth set of new intents over the same catalog (`holdout-8.jsonl`), written this round from the catalog',
      'alone, checked against every older set, and committed before any ranking of it was seen: the clean estimate.',
    ],
  ],
  [
    holdoutName(9),
    'Everyday holdout 9 by phrasing',
    [
      'A ninth set (`holdout-9.jsonl`), written this round after the eighth in a different voice and domain, from',
      'the catalog alone, checked against every older set and the eighth, and committed before any ranking of it',
      'was seen: the second clean estimate.',
    ],
  ],
];
for (const [set, title, about] of PHRASING_SECTIONS) {
  const rows = byPhrasing.get(set)!;
  if (rows.length > 0)
    summaryLines.push(
      '',
      `## ${title}`,
      '',
      ...about,
      '',
      '| phrasing | ranker | R@1 | R@5 | MRR@10 |',
      '|---|---|---|---|---|',
      ...rows,
    );
}
process.stdout.write(`\n${summaryLines.join('\n')}\n`);

if (!process.argv.includes('--no-write')) {
  const text = [
    header('Retrieval quality', `npm run bench:retrieval ${process.argv.slice(2).join(' ')}`.trim()),
    'Metrics exactly as `data/tool-retrieval/README.md` §5 (top 10 scored; label groups; macro-averaged).',
    'The `bm25` row reproduces `baseline_bm25.py` (README §6). `distractors` = livemcpbench + smithery minus',
    'smithery tools identical in (name, description) to a livemcpbench tool, as `baseline_bm25.py --distractors`.',
    '',
    ...summaryLines,
    '',
    '## All metrics',
    '',
    ...lines,
    '',
  ].join('\n');
  writeFileSync(join(HERE, 'results', 'retrieval.md'), text);
  process.stderr.write('wrote bench/results/retrieval.md\n');
}
