/**
 * `npm run fuzz` — the full fuzz run: 1,000,000 hostile queries (default; `--runs N`, `--seed S`),
 * each through one of 17 targets (query parser, the four ranker indexes fed unclean text, and
 * ToolSearcher with each ranker in each mode). Prints the count, failures (anything thrown) and
 * per-query time: max and p99 overall and per target. Times are measured, never asserted.
 */
import fc from 'fast-check';
import { fuzzCase, fuzzTargets } from './fuzz-queries.js';

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const runs = Number(argValue('--runs') ?? 1_000_000);
const seed = Number(argValue('--seed') ?? 20_260_101);
const targets = fuzzTargets();
/** Per target: every query's time in ms (at most ~60k per target for 1M runs). */
const times = targets.map(() => [] as number[]);
const failures: { target: string; query: string; error: string }[] = [];
let count = 0;
const started = performance.now();

fc.assert(
  fc.property(fuzzCase(targets.length), ([which, query]) => {
    const target = targets[which]!;
    const t0 = performance.now();
    try {
      target.run(query);
    } catch (error) {
      failures.push({ target: target.name, query: query.slice(0, 200), error: String(error) });
    }
    times[which]!.push(performance.now() - t0);
    count++;
    if (count % 100_000 === 0)
      process.stderr.write(
        `  ${count} runs, ${failures.length} failures, ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
      );
    return true;
  }),
  { numRuns: runs, seed },
);

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (ms: number) => ms.toFixed(3);
const all = times.flat().sort((a, b) => a - b);
console.log(
  `fuzz: ${count} queries, seed ${seed}, ${failures.length} failures, ${((performance.now() - started) / 1000).toFixed(1)} s total`,
);
console.log(
  `per query (ms): p50 ${fmt(quantile(all, 0.5))}  p99 ${fmt(quantile(all, 0.99))}  max ${fmt(all[all.length - 1] ?? 0)}`,
);
console.log('| target | queries | p50 ms | p99 ms | max ms |');
console.log('|---|---:|---:|---:|---:|');
targets.forEach((target, i) => {
  const sorted = times[i]!.sort((a, b) => a - b);
  console.log(
    `| ${target.name} | ${sorted.length} | ${fmt(quantile(sorted, 0.5))} | ${fmt(quantile(sorted, 0.99))} | ${fmt(sorted[sorted.length - 1] ?? 0)} |`,
  );
});
for (const f of failures.slice(0, 10)) console.log(`FAIL ${f.target}: ${JSON.stringify(f.query)} → ${f.error}`);
process.exitCode = failures.length === 0 ? 0 : 1;
