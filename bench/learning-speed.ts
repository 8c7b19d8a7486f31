/**
 * C13 — what the learned channel costs a search: `ToolSearcher.search` p50 on smithery (9,976
 * tools) without and with a 50,000-entry learned log, on the same query list as bench:speed (the
 * livemcpbench task texts + short keyword queries). The log is synthetic but shaped like a real
 * one: each entry is 3–7 words of its tool's own description plus 0–2 words of another tool's.
 */
import type { ToolSpec } from '../src/core/tool.js';
import { LearnedLog } from '../src/search/learned/log.js';
import { LearnedRanking } from '../src/search/learned/learned-ranking.js';
import { ToolSearcher } from '../src/search/searcher.js';
import type { SearchPool } from '../src/search/search-types.js';
import { words } from '../src/search/text.js';
import { loadSet, loadTools } from './datasets.js';
import { prng } from './learning-split.js';

export const LOG_ENTRIES = 50_000;

const SHORT = ['create issue', 'send message', 'search web', 'read file', 'weather forecast', 'stock price'];

export function syntheticLog(tools: readonly ToolSpec[], entries: number, seed = 7): LearnedLog {
  const random = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const vocab = tools.map((t) => words(`${t.name} ${t.description}`).slice(0, 60));
  const log = new LearnedLog({ perTool: 1_000, total: entries });
  const now = Date.now();
  for (let i = 0; log.entryCount < entries && i < entries * 3; i++) {
    const t = Math.floor(random() * tools.length);
    const own = vocab[t]!;
    if (own.length === 0) continue;
    const n = 3 + Math.floor(random() * 5);
    const q: string[] = [];
    for (let k = 0; k < n; k++) q.push(pick(own));
    for (let k = Math.floor(random() * 3); k > 0; k--) q.push(pick(pick(vocab) as string[]) ?? '');
    log.record({ query: q.join(' '), tool: tools[t]!.name, at: now - Math.floor(random() * 30 * 86_400_000) });
  }
  return log;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LearningSpeed {
  tools: number;
  entries: number;
  channelBuildMs: number;
  staticP50: number;
  learnedP50: number;
  staticMean: number;
  learnedMean: number;
  /** The field off (the kNN channel alone: what a log the replay does not trust costs). */
  knnP50: number;
  knnMean: number;
  /** The static searcher in the kNN pass (its own comparison). */
  knnStaticP50: number;
  knnStaticMean: number;
  knnRoundOverhead: number;
  /** CPU time per search (ms), p50: less sensitive than wall time to other processes on the machine. */
  staticCpuP50: number;
  learnedCpuP50: number;
  /** The field weight the replay chose for the synthetic log. */
  weight: number;
  /** Median over rounds of (learned block p50 ÷ static block p50) − 1, and its quartiles. */
  roundOverhead: number;
  roundOverheadRange: [number, number];
  queries: number;
}

export function measureLearningSpeed(rounds = 15): LearningSpeed {
  const tools = loadTools('smithery');
  const pool: SearchPool = { tools, deferred: new Set(tools.map((t) => t.name)), pendingServers: [] };
  const log = syntheticLog(tools, LOG_ENTRIES);
  const ranking = new LearnedRanking(log);
  const plain = new ToolSearcher();
  const learned = new ToolSearcher({ learned: ranking });
  const knn = new ToolSearcher({ learned: new LearnedRanking(log, { field: false }) });
  const list = [...loadSet('livemcpbench').queries.map((q) => q.query), ...SHORT];
  const started = performance.now();
  learned.search(pool, 'warm up the learned channel');
  const channelBuildMs = performance.now() - started;
  for (const q of list) {
    plain.search(pool, q);
    learned.search(pool, q);
    knn.search(pool, q);
  }
  const a: number[] = [];
  const b: number[] = [];
  const a2: number[] = [];
  const c: number[] = [];
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  // CPU time beside wall time, since on a loaded machine the wall clock also counts the time the
  // process waited for a core.
  const timed = (searcher: ToolSearcher, q: string, wall: number[], cpu?: number[]) => {
    const c0 = process.cpuUsage();
    const t = performance.now();
    searcher.search(pool, q);
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c0);
    cpu?.push((used.user + used.system) / 1000);
  };
  // Each searcher runs the whole list in a block (as a gateway runs one searcher), the two blocks'
  // order flipping every round, and each comparison is a pass of its own: the static searcher
  // against the learned one, then against the kNN one. Interleaving per query made whichever
  // searcher ran right after a heavier one pay for the caches it had filled (two identical
  // searchers differed by 12 %), and a third searcher in the rotation did the same to the others.
  type Run = [ToolSearcher, number[], number[] | undefined];
  const pass = (runs: readonly [Run, Run]): number[] => {
    // Per round, the second block's p50 over the first's: adjacent blocks see the same machine,
    // so their ratio is steadier than the ratio of p50s pooled over the whole pass.
    const ratios: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (let v = 0; v < 2; v++) {
        const [searcher, wall, cpu] = runs[(v + r) % 2]!;
        for (const q of list) timed(searcher, q, wall, cpu);
      }
      const lastBlock = (xs: number[]) => xs.slice(-list.length).sort((x, y) => x - y);
      ratios.push(percentile(lastBlock(runs[1][1]), 50) / percentile(lastBlock(runs[0][1]), 50));
    }
    return ratios.sort((x, y) => x - y);
  };
  const roundRatios = pass([
    [plain, a, cpuA],
    [learned, b, cpuB],
  ]);
  const knnRatios = pass([
    [plain, a2, undefined],
    [knn, c, undefined],
  ]);
  cpuA.sort((x, y) => x - y);
  cpuB.sort((x, y) => x - y);
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  a2.sort((x, y) => x - y);
  c.sort((x, y) => x - y);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    tools: tools.length,
    entries: log.entryCount,
    channelBuildMs,
    staticP50: percentile(a, 50),
    learnedP50: percentile(b, 50),
    staticMean: mean(a),
    learnedMean: mean(b),
    knnP50: percentile(c, 50),
    knnStaticP50: percentile(a2, 50),
    knnStaticMean: mean(a2),
    knnRoundOverhead: percentile(knnRatios, 50) - 1,
    staticCpuP50: percentile(cpuA, 50),
    learnedCpuP50: percentile(cpuB, 50),
    knnMean: mean(c),
    weight: ranking.calibration?.weight ?? 0,
    queries: list.length,
    roundOverhead: percentile(roundRatios, 50) - 1,
    roundOverheadRange: [percentile(roundRatios, 25) - 1, percentile(roundRatios, 75) - 1],
  };
}
