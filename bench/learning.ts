/**
 * `npm run bench:learning` — C13, issue 23's protocol: per set, the queries shuffled with seed 7,
 * the first fraction F taken as the usage log (query → each gold tool, as if the agent had called
 * it), the rest evaluated; R@5 without (static) and with learning, side by side, for
 * F ∈ {0.1, 0.25, 0.5}, the six sets and the distractor case. Writes bench/results/learning.md.
 * C15: two identity models of who wrote the log — one user (a gateway one identity reaches: its
 * word lifts at once; the headline) and a shared gateway where every logged query is another
 * identity (a word lifts once two of them used it for the tool).
 * Options: --sets a,b  --no-write  --naive (also the naive variant: past queries appended to descriptions)
 *   --split train --max-queries N: the protocol on a set's training split (data README §10:
 *   metatool, toollens; N of its queries drawn with seed 11) instead of its evaluation queries —
 *   where the learned field's constants may be checked without looking at the evaluation sets.
 *   --dump FILE (every evaluated query's learned top 10, one line each: to diff two versions)
 *          --no-speed (skip the p50 overhead at 10k tools with a 50k-entry log)
 * Env: LEARN='{"gate":0.5,"weight":1,"depth":30}' overrides the channel/fusion options (iteration only).
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRanker } from '../src/search/rankers.js';
import type { ScoreBoost } from '../src/search/ranker.js';
import { parseKeywordQuery } from '../src/search/query.js';
import type { ToolSpec } from '../src/core/tool.js';
import { LearnedLog } from '../src/search/learned/log.js';
import { LearnedRanking } from '../src/search/learned/learned-ranking.js';
import { MIN_CHANNEL_REPLAYS } from '../src/search/learned/calibrate.js';
import { distractorSet, loadSet, QUERY_SETS, type BenchSet, type LabelledQuery } from './datasets.js';
import { evaluate, type RankIds } from './evaluate.js';
import { f3, header } from './report.js';
import { shuffled } from './learning-split.js';
import { measureLearningSpeed } from './learning-speed.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const FRACTIONS = [0.1, 0.25, 0.5] as const;
const SEED = 7;
/**
 * The clock the usage log and the ranking read: fixed, so a run ranks exactly as the last one did
 * (with the wall clock, the decay of each entry changed with the time of the run and near-equal
 * tools' order with it: two runs differed in 2 of 15,826 rankings, below rank 5).
 */
const CLOCK = Date.UTC(2026, 10, 1);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const override = JSON.parse(process.env.LEARN ?? '{}') as Record<string, number>;
const channelOptions = pick(override, ['gate', 'halfLifeDays', 'maxDfShare']);
const fusionOptions = pick(override, ['weight', 'depth', 'cap', 'entry']);
const naive = process.argv.includes('--naive');

function pick(o: Record<string, number>, keys: string[]): Record<string, number> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));
}

interface Row {
  set: string;
  fraction: number;
  logged: number;
  evaluated: number;
  static: number;
  /** C15: one user wrote the log (stdio, or an HTTP gateway with one token). */
  learned: number;
  /** C15: a shared gateway, every logged query another identity: words lift once two agree. */
  shared: number;
  naive?: number;
  /** The learned field's weight the log's replay chose (0 = off). */
  weight?: number;
  /** The kNN channel's replay verdict (helped/hurt) and whether it is used (over the field's list when the field is on). */
  channel?: string;
}

/** C15: who wrote the log, as the gateway would record it. */
type IdentityModel = 'one user' | 'shared';
const ONE_USER = 'the-user';

function usageLog(set: BenchSet, past: readonly LabelledQuery[], model: IdentityModel): LearnedLog {
  const nameOf = new Map(set.tools.map((t) => [t.id ?? t.name, t.name]));
  const log = new LearnedLog({ perTool: 10_000, total: 1_000_000 });
  // One user: every query is the gateway's only identity, trusted (its word lifts at once). Shared:
  // each query another identity; a word lifts a tool once two of them used it for that tool.
  let at = CLOCK - past.length;
  for (const q of past)
    for (const group of q.gold) {
      const tool = nameOf.get(group[0]!);
      const source = model === 'one user' ? ONE_USER : q.qid;
      if (tool !== undefined) log.record({ query: q.query, tool, at: at++, source });
    }
  if (model === 'one user') log.trust([ONE_USER]);
  return log;
}

function idRanking(tools: readonly ToolSpec[], rank: (query: string) => readonly { name: string }[]): RankIds {
  const idOf = new Map(tools.map((t) => [t.name, t.id ?? t.name]));
  return (query) => rank(query).map((r) => idOf.get(r.name)!);
}

function naiveRanking(set: BenchSet, past: readonly LabelledQuery[]): RankIds {
  const extra = new Map<string, string[]>();
  for (const q of past) for (const g of q.gold) extra.set(g[0]!, [...(extra.get(g[0]!) ?? []), q.query]);
  const tools = set.tools.map((t) => {
    const more = extra.get(t.id ?? t.name);
    return more ? { ...t, description: `${t.description} ${more.join(' ')}` } : t;
  });
  const index = createRanker('default').build(tools);
  return idRanking(tools, (q) => index.search(parseKeywordQuery(q), 10));
}

const dumpFile = arg('dump');
const dumpLines: string[] = [];

/** With `--dump FILE`, every evaluated query's learned ranking is written out (to diff two versions). */
function dumped(label: string, rank: RankIds): RankIds {
  if (dumpFile === undefined) return rank;
  return (query) => {
    const ids = rank(query);
    dumpLines.push(`${label}\t${query.slice(0, 80)}\t${ids.join(' ')}`);
    return ids;
  };
}

function learnedRanking(log: LearnedLog): LearnedRanking {
  return new LearnedRanking(log, { channel: channelOptions, fusion: fusionOptions, now: () => CLOCK });
}

/** The searcher's own path (ToolSearcher → LearnedRanking.rank), minus the select:/exact-name rules. */
function rankWith(
  set: BenchSet,
  index: ReturnType<ReturnType<typeof createRanker>['build']>,
  learning: LearnedRanking,
): RankIds {
  return idRanking(set.tools, (q) => {
    const parsed = parseKeywordQuery(q);
    const searchText = (text: string, depth: number) => index.search(parseKeywordQuery(text), depth);
    const lastScores = index.lastScores?.bind(index);
    const boosted = index.searchBoosted?.bind(index);
    const lexical = {
      search: (depth: number) => index.search(parsed, depth),
      searchText,
      ...(lastScores && { lastScores }),
      ...(boosted && { searchBoosted: (depth: number, boost: ScoreBoost) => boosted(parsed, depth, boost) }),
    };
    return learning.rank(set.tools, q, lexical, { limit: 10 });
  });
}

function run(set: BenchSet): Row[] {
  const index = createRanker('default').build(set.tools);
  const order = shuffled(set.queries, SEED);
  const staticRank = idRanking(set.tools, (q) => index.search(parseKeywordQuery(q), 10));
  const rows: Row[] = [];
  for (const fraction of FRACTIONS) {
    const cut = Math.floor(order.length * fraction);
    const past = order.slice(0, cut);
    const future: BenchSet = { ...set, queries: order.slice(cut) };
    const learning = learnedRanking(usageLog(set, past, 'one user'));
    const learnedRank = rankWith(set, index, learning);
    const learnedR5 = evaluate(future, dumped(`${set.name} F=${fraction}`, learnedRank)).all['R@5'];
    if (process.env.LEARN_DEBUG)
      console.error(
        `  ${set.name} F=${fraction} replayed ${learning.calibration?.replayed} recall ${learning.calibration?.recall.map((x, k) => `${x.toFixed(3)}(+${learning.calibration?.helped[k]}-${learning.calibration?.hurt[k]})`).join(' ')}`,
      );
    rows.push({
      set: set.name,
      fraction,
      logged: past.length,
      evaluated: future.queries.length,
      static: evaluate(future, staticRank).all['R@5'],
      learned: learnedR5,
      shared: evaluate(future, rankWith(set, index, learnedRanking(usageLog(set, past, 'shared')))).all['R@5'],
      ...(naive && { naive: evaluate(future, naiveRanking(set, past)).all['R@5'] }),
      weight: learning.calibration?.weight ?? 0,
      channel: channelVerdict(learning),
    });
  }
  return rows;
}

const split = arg('split') === 'train' ? 'train' : 'queries';
const maxQueries = arg('max-queries') !== undefined ? Number(arg('max-queries')) : undefined;
const setNames =
  arg('sets')?.split(',') ?? (split === 'train' ? ['metatool', 'toollens'] : [...QUERY_SETS, 'distractors']);
const rows: Row[] = [];
const started = Date.now();
for (const name of setNames) {
  const set = name === 'distractors' ? { ...distractorSet(), name: 'distractors' } : loadSet(name, split);
  if (maxQueries !== undefined) set.queries = shuffled(set.queries, 11).slice(0, maxQueries);
  const setRows = run(set);
  rows.push(...setRows);
  console.error(
    `${name}: ${setRows.map((r) => `F=${r.fraction} ${f3(r.static)}→${f3(r.learned)} (${r.learned - r.static >= 0 ? '+' : ''}${(r.learned - r.static).toFixed(4)}) w${r.weight} knn ${r.channel} (shared ${f3(r.shared)})${r.naive !== undefined ? ` (naive ${f3(r.naive)})` : ''}`).join('  ')}`,
  );
}
const worst = Math.min(...rows.map((r) => r.learned - r.static));
console.error(`worst learned − static: ${worst.toFixed(4)}  (${Date.now() - started} ms)`);
if (dumpFile !== undefined) writeFileSync(dumpFile, `${dumpLines.join('\n')}\n`);

/** Three independent runs (fresh indexes and log each): one run on a shared machine is noisy. */
const SPEED_RUNS = 3;
const speeds = process.argv.includes('--no-speed')
  ? []
  : Array.from({ length: SPEED_RUNS }, () => measureLearningSpeed());
/** The run with the median p50 overhead: the table's figures. */
const speed = [...speeds].sort((x, y) => x.learnedP50 / x.staticP50 - y.learnedP50 / y.staticP50)[
  Math.floor(speeds.length / 2)
];
for (const speed of speeds)
  console.error(
    `speed: p50 ${speed.staticP50.toFixed(3)} → ${speed.learnedP50.toFixed(3)} ms (${pct(speed.learnedP50, speed.staticP50)}, w ${speed.weight}), field off ${speed.knnStaticP50.toFixed(3)} → ${speed.knnP50.toFixed(3)} (${pct(speed.knnP50, speed.knnStaticP50)}); cpu p50 ${pct(speed.learnedCpuP50, speed.staticCpuP50)}; per round ${signed(speed.roundOverhead)} (${signed(speed.roundOverheadRange[0])}…${signed(speed.roundOverheadRange[1])}); mean ${speed.staticMean.toFixed(3)} → ${speed.learnedMean.toFixed(3)} ms`,
  );

/** A share as a signed percentage. */
function signed(share: number): string {
  return `${share >= 0 ? '+' : ''}${(share * 100).toFixed(0)}%`;
}

/** The change from b to a in percent, signed. */
function pct(a: number, b: number): string {
  return signed((a - b) / b);
}

if (!process.argv.includes('--no-write') && split === 'queries') {
  const lines = [header('Search that learns from use (C13)', `npm run bench:learning${naive ? ' -- --naive' : ''}`)];
  lines.push(
    'Protocol (issue 23): per set, the queries shuffled with seed 7 (mulberry32, Fisher–Yates: `bench/learning-split.ts`);',
    'the first fraction F is the usage log (each query → the first id of each of its gold groups, as if the agent called',
    'them), the rest is evaluated. R@5 as the data README §5 defines it. Static = the default ranker alone on the same',
    "evaluated queries; learned = the same ranker with learning (`ToolSearcher`'s `learned` option, one configuration",
    'for every set and fraction: `DEFAULT_LEARNED_CHANNEL`, `DEFAULT_LEARNED_FUSION`, `FIELD_WEIGHTS`).',
    '',
    'How it learns (`src/search/learned/`): the **learned field** (field.ts) scores each tool by BM25 over the words of',
    'the searches that led to it (IDF over the tools with learned words; a word in most of them is generic and scores',
    'nothing), added to the lexical score (both over the top lexical score) at a weight the **log itself chooses**',
    '(calibrate.ts): the latest 500 distinct logged searches are replayed leave-one-out at each weight of',
    '`FIELD_WEIGHTS` and the weight finding the most of their tools wins — only if it finds at least 2 more searches',
    'than it loses and passes a sign test at 2σ, else the field is off. "w" below is that choice. While the field is',
    'off, the kNN channel (channel.ts: a past search with IDF cosine ≥ 0.35 lifts the tools it led to) is used instead,',
    `replayed the same way: kept on while fewer than ${MIN_CHANNEL_REPLAYS} searches can be replayed (a young log) or where it clearly`,
    'helps (the same bar as the field); otherwise off, and the search is the lexical one ("kNN" below: its verdict).',
    'Nothing is tuned per set: the replay sees only the log (the first F of the queries), never the evaluated rest.',
    '',
    "Where the field is on, the kNN channel is judged again over the field's list and stacked on it where the replay",
    'shows a clear gain ("kNN" below: its verdict, +helped/−hurt replayed searches); the replay reads the latest 500',
    'searches of the log (150 before this round).',
    '',
    'Who wrote the log (the identity model, issue 40 item 4): **learned** is one user — a gateway only one identity',
    'reaches (stdio, or HTTP with one token), whose own word lifts a tool at once. **shared** is a gateway several',
    'identities share, simulated as every logged query coming from another identity (the most corroboration can',
    'find): a (word, tool) pair lifts only once two identities used that word in searches that led to that tool.',
    'Sessions are never identities (a caller opens another at will), and a gateway without a token learns nothing',
    'from its callers unless told they are one user (`toolSearch.learning.identities`). "naive" (with `--naive`): past',
    "queries appended to the gold tools' descriptions.",
    '',
  );
  lines.push(table(rows), '');
  if (speed)
    lines.push(
      '## Cost',
      '',
      `\`ToolSearcher.search\` on smithery (${speed.tools} tools) with a synthetic ${speed.entries}-entry log (each entry 3–7 words of`,
      `its tool's description + 0–2 words of another's, \`bench/learning-speed.ts\`), the ${speed.queries} queries of bench:speed`,
      `(livemcpbench task texts + short keywords), ${SPEED_RUNS} runs after a warm-up, in one process. Each run is two passes of 15`,
      'rounds, static against learned, then static against the kNN channel; in each round both run the whole list in turn,',
      'the order flipping by round. The run with the median p50 overhead:',
      '',
      '| | p50 ms | mean ms |',
      '|---|---|---|',
      `| static | ${speed.staticP50.toFixed(3)} | ${speed.staticMean.toFixed(3)} |`,
      `| learned (the field at the replay's weight ${speed.weight}) | ${speed.learnedP50.toFixed(3)} | ${speed.learnedMean.toFixed(3)} |`,
      `| overhead | ${pct(speed.learnedP50, speed.staticP50)} | ${pct(speed.learnedMean, speed.staticMean)} |`,
      `| static (the kNN pass) | ${speed.knnStaticP50.toFixed(3)} | ${speed.knnStaticMean.toFixed(3)} |`,
      `| learned, field off (the kNN channel alone) | ${speed.knnP50.toFixed(3)} | ${speed.knnMean.toFixed(3)} |`,
      `| overhead | ${pct(speed.knnP50, speed.knnStaticP50)} | ${pct(speed.knnMean, speed.knnStaticMean)} |`,
      '',
      `CPU time per search (\`process.cpuUsage\`, p50): static ${speed.staticCpuP50.toFixed(3)} ms, learned (field) ${speed.learnedCpuP50.toFixed(3)} ms: ${pct(speed.learnedCpuP50, speed.staticCpuP50)}.`,
      '',
      `p50 overhead of the field in each run: ${speeds.map((r) => `${pct(r.learnedP50, r.staticP50)}`).join(', ')} (CPU: ${speeds.map((r) => `${pct(r.learnedCpuP50, r.staticCpuP50)}`).join(', ')});`,
      `per round (the learned block's p50 over the adjacent static block's), median of each run's 15 rounds: ${speeds.map((r) => signed(r.roundOverhead)).join(', ')}.`,
      '',
      `Machine load during the run (\`uptime\`): ${loadAverage()}. The shared 2-core machine makes single runs noisy;`,
      'the rotation keeps the ratio fair, not the absolute numbers.',
      '',
      `Building the learned field and replaying the log (once per change of a large log, at most every 2 s; the replay`,
      `only when the log has grown by a tenth): ${speed.channelBuildMs.toFixed(0)} ms (includes the first lexical index build of the pool).`,
      '',
    );
  writeFileSync(join(HERE, 'results', 'learning.md'), `${lines.join('\n')}\n`);
}

function loadAverage(): string {
  return `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')} on ${cpus().length} CPUs`;
}

function signedF3(x: number): string {
  return `${x >= 0 ? '+' : ''}${f3(x)}`;
}

function channelVerdict(learning: LearnedRanking): string {
  const c = learning.calibration?.channel;
  if (!c) return (learning.calibration?.weight ?? 0) > 0 ? '—' : 'on';
  return `${c.on ? 'on' : 'off'} (+${c.helped}/−${c.hurt})`;
}

function table(rows: readonly Row[]): string {
  const out = [
    '| set | F | logged | evaluated | static R@5 | learned R@5 (one user) | Δ | w | kNN | shared R@5 | Δ shared |' +
      (naive ? ' naive R@5 |' : ''),
    '|---|---|---|---|---|---|---|---|---|---|---|' + (naive ? '---|' : ''),
  ];
  for (const r of rows) {
    const delta = r.learned - r.static;
    out.push(
      `| ${r.set} | ${r.fraction} | ${r.logged} | ${r.evaluated} | ${f3(r.static)} | ${f3(r.learned)} | ${signedF3(delta)} | ${r.weight ?? 0} | ${r.channel ?? ''} | ${f3(r.shared)} | ${signedF3(r.shared - r.static)} |` +
        (r.naive !== undefined ? ` ${f3(r.naive)} |` : ''),
    );
  }
  return out.join('\n');
}
