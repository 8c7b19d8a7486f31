/**
 * Retrieval metrics exactly as the data README §5 (and `baseline_bm25.py`) define them:
 * per label group, the best rank of any acceptable id within the top 10; R@k, Hit@5, MRR@10,
 * nDCG@10 with binary gains per group; macro-averaged over queries.
 */
export const METRICS = ['R@1', 'R@5', 'R@10', 'Hit@5', 'MRR@10', 'nDCG@10'] as const;
export type Metric = (typeof METRICS)[number];
export type MetricRow = Record<Metric, number>;

export function scoreQuery(rankedIds: readonly string[], gold: readonly (readonly string[])[]): MetricRow {
  const position = new Map<string, number>();
  rankedIds.slice(0, 10).forEach((id, i) => {
    if (!position.has(id)) position.set(id, i + 1);
  });
  const best = gold.map((group) => {
    let rank = Infinity;
    for (const id of group) rank = Math.min(rank, position.get(id) ?? Infinity);
    return rank;
  });
  const g = gold.length;
  const within = (k: number) => best.filter((r) => r <= k).length;
  const hits = best.filter((r) => r <= 10);
  const dcg = hits.reduce((sum, r) => sum + 1 / Math.log2(r + 1), 0);
  let idcg = 0;
  for (let i = 1; i <= Math.min(g, 10); i++) idcg += 1 / Math.log2(i + 1);
  return {
    'R@1': within(1) / g,
    'R@5': within(5) / g,
    'R@10': within(10) / g,
    'Hit@5': within(5) > 0 ? 1 : 0,
    'MRR@10': hits.length > 0 ? 1 / Math.min(...hits) : 0,
    'nDCG@10': dcg / idcg,
  };
}

export function meanRows(rows: readonly MetricRow[]): MetricRow {
  const out = Object.fromEntries(METRICS.map((m) => [m, 0])) as MetricRow;
  for (const row of rows) for (const m of METRICS) out[m] += row[m];
  for (const m of METRICS) out[m] /= Math.max(1, rows.length);
  return out;
}
