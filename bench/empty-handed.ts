/**
 * C12 and the hard-query subsets (issue 12). For every labelled set (+ the distractor case):
 * - hard queries = no query word in any gold tool's name (name split into parts);
 * - R@5 of the default ranker on all and on hard queries, with and without rare-word expansion
 *   (thesaurus neighbours and compound words);
 * - on sets whose tools have servers: how often the servers a weak search suggests (top 3 by the
 *   server-level index) include a gold tool's server (per gold group, and "any" per query), on all
 *   queries and on hard ones; and how often a search is flagged low-confidence.
 *
 *   npm run bench:empty-handed -- [--sets a,b] [--no-write]   → bench/results/empty-handed.md
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRanker } from '../src/search/rank-default/index.js';
import { parseKeywordQuery } from '../src/search/query.js';
import { identifierParts, sourceName, words } from '../src/search/text.js';
import { LOW_CONFIDENCE, SUGGESTED_SERVERS } from '../src/search/suggest.js';
import type { ToolSpec } from '../src/core/tool.js';
import { distractorSet, loadSet, QUERY_SETS, type BenchSet } from './datasets.js';
import { scoreQuery } from './metrics.js';
import { header } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function isHard(query: string, gold: string[][], byId: Map<string, ToolSpec>): boolean {
  const q = new Set(words(query));
  for (const group of gold) {
    for (const id of group) {
      const tool = byId.get(id);
      if (tool && identifierParts(sourceName(tool)).some((p) => q.has(p))) return false;
    }
  }
  return true;
}

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const f3 = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(3));

const names = arg('sets')?.split(',') ?? [...QUERY_SETS, 'distractors'];
const plain = defaultRanker({
  expansion: { weight: 0, neighbours: 0, maxDf: 0, minStemLength: 3 },
  compounds: { split: 0, join: 0 },
});
const expanded = defaultRanker();
const rows: string[] = [];
const serverRows: string[] = [];
const hardGain: number[] = [];

for (const name of names) {
  const set: BenchSet = name === 'distractors' ? distractorSet() : loadSet(name);
  const byId = new Map(set.tools.map((t) => [t.id ?? t.name, t]));
  const idOf = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));
  const serverOfId = (id: string) => {
    const t = byId.get(id);
    return t?.origin.kind === 'mcp' ? t.origin.server : undefined;
  };
  const a = plain.build(set.tools);
  const b = expanded.build(set.tools);
  const r = { all: [[], []] as number[][], hard: [[], []] as number[][] };
  const srv = {
    group: [] as number[],
    any: [] as number[],
    groupHard: [] as number[],
    anyHard: [] as number[],
    low: [] as number[],
    lowHard: [] as number[],
    onWeak: [] as number[],
    hitsServer: [] as number[],
  };
  const withServers = set.tools.some((t) => t.origin.kind === 'mcp');
  for (const q of set.queries) {
    const parsed = parseKeywordQuery(q.query);
    const hard = isHard(q.query, q.gold, byId);
    const before = scoreQuery(
      a.search(parsed, 10).map((h) => idOf.get(h.name)!),
      q.gold,
    )['R@5'];
    const top = b.search(parsed, 10);
    const after = scoreQuery(
      top.map((h) => idOf.get(h.name)!),
      q.gold,
    )['R@5'];
    r.all[0]!.push(before);
    r.all[1]!.push(after);
    if (hard) {
      r.hard[0]!.push(before);
      r.hard[1]!.push(after);
    }
    if (!withServers) continue;
    const suggested = new Set(b.suggestServers!(parsed, SUGGESTED_SERVERS).map((s) => s.server));
    const groupHits = q.gold.map((g) => (g.some((id) => suggested.has(serverOfId(id) ?? '\u0000')) ? 1 : 0));
    const low = top.length === 0 || b.confidence!(parsed, top[0]!.name) < LOW_CONFIDENCE ? 1 : 0;
    srv.group.push(mean(groupHits));
    srv.any.push(Math.max(...groupHits));
    srv.low.push(low);
    if (low) srv.onWeak.push(mean(groupHits));
    // Baseline: the servers of the top 5 hits themselves (what the model sees without suggestions).
    const hitServers = new Set(top.slice(0, 5).map((h) => serverOfId(idOf.get(h.name)!) ?? ''));
    srv.hitsServer.push(mean(q.gold.map((g) => (g.some((id) => hitServers.has(serverOfId(id) ?? '\u0000')) ? 1 : 0))));
    if (hard) {
      srv.groupHard.push(mean(groupHits));
      srv.anyHard.push(Math.max(...groupHits));
      srv.lowHard.push(low);
    }
  }
  hardGain.push(mean(r.hard[1]!) - mean(r.hard[0]!));
  rows.push(
    `| ${set.name} | ${set.queries.length} | ${r.hard[0]!.length} | ${f3(mean(r.all[0]!))} | ${f3(mean(r.all[1]!))} | ${f3(mean(r.hard[0]!))} | ${f3(mean(r.hard[1]!))} |`,
  );
  if (withServers) {
    serverRows.push(
      `| ${set.name} | ${new Set(set.tools.map((t) => (t.origin.kind === 'mcp' ? t.origin.server : ''))).size} | ${f3(mean(srv.group))} | ${f3(mean(srv.any))} | ${f3(mean(srv.groupHard))} | ${f3(mean(srv.anyHard))} | ${f3(mean(srv.low))} | ${f3(mean(srv.lowHard))} | ${f3(mean(srv.onWeak))} | ${f3(mean(srv.hitsServer))} |`,
    );
  }
  process.stderr.write(`${set.name} done\n`);
}

const text = [
  header(
    'Hard queries and never empty-handed (C12)',
    `npx tsx bench/empty-handed.ts ${process.argv.slice(2).join(' ')}`.trim(),
  ),
  "Hard query = no word of the query is a part of any gold tool's name. R@5 of the default ranker without and with",
  'rare-word expansion (thesaurus neighbours and compound words; everything else equal).',
  '',
  '| set | queries | hard | R@5 all, no expansion | R@5 all, expansion | R@5 hard, no expansion | R@5 hard, expansion |',
  '|---|---|---|---|---|---|---|',
  ...rows,
  '',
  `Mean change on the hard subsets: ${hardGain.map((g) => (g >= 0 ? '+' : '') + g.toFixed(3)).join(', ')} (mean ${(mean(hardGain) >= 0 ? '+' : '') + mean(hardGain).toFixed(4)}).`,
  '',
  `Suggested servers: the top ${SUGGESTED_SERVERS} of the server-level index (each server's name, its tools' names and descriptions,`,
  'and its own title/instructions when known). "gold server found" = share of gold tools whose server is suggested',
  '(per query, averaged); "any" = queries where at least one gold tool\'s server is suggested. "weak" = share of',
  `searches flagged low-confidence (the best hit holds at most one of the query's own words and less than ${LOW_CONFIDENCE} of them), i.e. that show the`,
  'suggestions to the model; "found on weak" = gold server found, on the weak searches only; "top-5 hits\' servers" =',
  'share of gold tools whose server is already among the servers of the top 5 hits (all queries), for comparison.',
  'Only sets whose tools have servers.',
  '',
  "| set | servers | gold server found (all) | any (all) | gold server found (hard) | any (hard) | weak (all) | weak (hard) | found on weak | top-5 hits' servers |",
  '|---|---|---|---|---|---|---|---|---|---|',
  ...serverRows,
  '',
].join('\n');
process.stdout.write(text);
if (!process.argv.includes('--no-write')) writeFileSync(join(HERE, 'results', 'empty-handed.md'), text);
