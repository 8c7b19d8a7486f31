/**
 * `npx tsx bench/announce-budget.ts` — what the E4 budget does (issue 24):
 * 1. the first request's deferred tokens (search tool + announcement + call_tool, exact o200k, as
 *    `toolsearch inspect` counts them) on each shared MCP catalog, and how far the bounded estimate
 *    the budget uses sits above o200k;
 * 2. what the budget costs in retrieval on the LiveMCPBench + Smithery distractor catalog: which
 *    gold servers the announcement still names, R@5 of the search for queries whose gold servers are
 *    named vs not, and a "browse then select" path (the model lists a server it can see, or one the
 *    search suggests, with `mcp__<server>` and selects the tool), before (every server named, E3)
 *    and after (E4's budget).
 * Writes bench/results/announce-budget.md (`--no-write`: print only).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundedJsonTextTokens, boundedTextTokens } from '../src/core/announce-budget.js';
import { fullAnnouncement } from '../src/core/announce.js';
import type { ToolSpec } from '../src/core/tool.js';
import { announceDeferred, callToolDefinition, gatewayAnnouncementBudget } from '../src/gateway/tools/definitions.js';
import { inspectPool } from '../src/inspect/report.js';
import { o200kTokens, TOKENIZER_NOTE } from '../src/inspect/tokenizer.js';
import { parseKeywordQuery } from '../src/search/query.js';
import { createRanker } from '../src/search/rankers.js';
import { ToolSearcher } from '../src/search/searcher.js';
import { distractorSet, loadTools } from './datasets.js';
import { header } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const f = (x: number, d = 3) => x.toFixed(d);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

// --- 1. Tokens ---------------------------------------------------------------------------------

/** Before = the issue's measurement on main at 6a4035d (same command, grouped announcement of every server). */
const BEFORE: Record<string, number> = { livemcpbench: 1_213, smithery: 13_628 };

function tokenRows(): string[] {
  const rows = [
    '| catalog | tools | servers | before | after (deferred tokens) | search tool | announcement | call_tool | servers named | estimate ÷ o200k (announcement) |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const set of ['livemcpbench', 'github-mcp-server', 'mcp-power-user', 'smithery']) {
    const tools = loadTools(set);
    const pool = { tools, pendingServers: [] };
    const report = inspectPool(pool, {
      count: o200kTokens,
      tokenizer: TOKENIZER_NOTE,
      extraTools: [callToolDefinition()],
      announceTokenBudget: gatewayAnnouncementBudget(),
    });
    const text = announceDeferred(pool, new Set(tools.map((t) => t.name)));
    const named = namedServers(text);
    const ratio = boundedJsonTextTokens(text) / o200kTokens(JSON.stringify(text));
    rows.push(
      `| ${set} | ${report.tools} | ${report.servers} | ${BEFORE[set]?.toLocaleString('en-US') ?? '–'} | **${report.deferredTokens.toLocaleString('en-US')}** | ${report.breakdown.searchTool} | ${report.breakdown.announcement} (${report.announcementForm}) | ${report.breakdown.extraTools} | ${named.size === 0 ? 'list' : `${named.size} of ${report.servers}`} | ${f(ratio, 2)} |`,
    );
    process.stderr.write(`${set}: ${report.deferredTokens}\n`);
  }
  return rows;
}

/** How far the bounded estimate sits above o200k on every shared catalog, list and all-servers forms. */
function estimateRows(): string[] {
  const rows = ['| catalog | form | o200k | bounded estimate | ratio |', '|---|---|---|---|---|'];
  const sets = ['livemcpbench', 'smithery', 'stabletoolbench', 'toollens', 'metatool', 'bfcl', 'seal-tools'];
  for (const set of [...sets, 'github-mcp-server']) {
    const tools = loadTools(set);
    for (const [form, shown] of [
      ['names (E1)', fullAnnouncement(tools, { tokenBudget: Number.POSITIVE_INFINITY }).text],
      ['every server (E3)', allServersText(tools)],
    ] as const) {
      const real = o200kTokens(shown);
      const est = boundedTextTokens(shown);
      rows.push(`| ${set} | ${form} | ${real} | ${est} | ${f(est / real, 2)} |`);
    }
  }
  return rows;
}

/** The E3 form naming every server (a counter that makes the name list look too big). */
function allServersText(tools: readonly ToolSpec[]): string {
  return fullAnnouncement(tools, {
    tokenBudget: Number.MAX_SAFE_INTEGER - 1,
    countTextTokens: (t) => (t.includes('form="grouped"') ? 0 : Number.MAX_SAFE_INTEGER),
  }).text;
}

/** Servers a grouped announcement names, one `mcp__<server>: N tools` line each. */
function namedServers(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^mcp__(.+): \d+ tools?$/.exec(line);
    if (m) out.add(m[1]!);
  }
  return out;
}

// --- 2. Retrieval ------------------------------------------------------------------------------

function retrievalRows(): string[] {
  const set = distractorSet();
  const byId = new Map(set.tools.map((t) => [t.id ?? t.name, t]));
  const serverOf = (id: string) => {
    const t = byId.get(id);
    return t?.origin.kind === 'mcp' ? t.origin.server : undefined;
  };
  const pool = { tools: set.tools, deferred: new Set(set.tools.map((t) => t.name)), pendingServers: [] };
  const after = namedServers(announceDeferred(pool, pool.deferred));
  const allServers = new Set(set.tools.flatMap((t) => (t.origin.kind === 'mcp' ? [t.origin.server] : [])));
  const searcher = new ToolSearcher();
  const ranker = createRanker('default').build(set.tools);
  const idOf = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));

  interface Tally {
    groups: number;
    visible: number;
    recallHits: number;
    browse: number;
    browseOrSuggest: number;
  }
  const blank = (): Tally => ({ groups: 0, visible: 0, recallHits: 0, browse: 0, browseOrSuggest: 0 });
  const tally = { before: blank(), after: blank(), recent: blank() };
  let recentNamed = 0;
  const split = { named: { groups: 0, hits: 0 }, unnamed: { groups: 0, hits: 0 } };
  for (const q of set.queries) {
    const matches = searcher.search(pool, q.query, { maxResults: 5 }).matches;
    const top5 = new Set(matches.map((n) => idOf.get(n)!));
    // The gateway loads a search's results into the session: their servers are then "recent" and the
    // session's next tools/list names them first (E4, src/gateway/tools/announcement.ts).
    const recentServers = matches.flatMap((n) => {
      const t = pool.tools.find((x) => x.name === n);
      return t?.origin.kind === 'mcp' ? [t.origin.server] : [];
    });
    const afterRecent = namedServers(announceDeferred(pool, pool.deferred, { recentServers }));
    recentNamed += afterRecent.size;
    const suggested = new Set((ranker.suggestServers?.(parseKeywordQuery(q.query), 3) ?? []).map((s) => s.server));
    for (const group of q.gold) {
      const servers = group.map(serverOf).filter((s): s is string => s !== undefined);
      const hit = group.some((id) => top5.has(id));
      for (const [when, visibleSet] of [
        ['before', allServers],
        ['after', after],
        ['recent', afterRecent],
      ] as const) {
        const t = tally[when];
        const visible = servers.some((s) => visibleSet.has(s));
        t.groups++;
        if (visible) t.visible++;
        if (hit) t.recallHits++;
        if (visible) t.browse++;
        if (visible || servers.some((s) => suggested.has(s))) t.browseOrSuggest++;
      }
      const side = servers.some((s) => after.has(s)) ? split.named : split.unnamed;
      side.groups++;
      if (hit) side.hits++;
    }
  }
  const row = (label: string, t: Tally, named: number) =>
    `| ${label} | ${named} of ${allServers.size} | ${pct(t.visible / t.groups)} | ${f(t.recallHits / t.groups)} | ${pct(t.browse / t.groups)} | ${pct(t.browseOrSuggest / t.groups)} |`;
  return [
    `Catalog: ${set.tools.length} tools from ${allServers.size} servers; ${set.queries.length} LiveMCPBench queries, ${tally.after.groups} gold label groups.`,
    '',
    '| announcement | servers named | gold groups whose server is named | search R@5 (per group) | browse then select: named server | browse then select: named or suggested (top 3) server |',
    '|---|---|---|---|---|---|',
    row('before: every server (E3)', tally.before, allServers.size),
    row('after: E4 budget (2,000 tokens)', tally.after, after.size),
    row(
      'after, once the first search loaded its 5 results (their servers named first)',
      tally.recent,
      Math.round(recentNamed / set.queries.length),
    ),
    '',
    `Search R@5 after, split by whether the gold tool's server is named: named ${f(split.named.hits / Math.max(1, split.named.groups))} (${split.named.groups} groups), not named ${f(split.unnamed.hits / Math.max(1, split.unnamed.groups))} (${split.unnamed.groups} groups). The ranking itself does not read the announcement, so R@5 is the same before and after; what changes is which servers the model can browse without searching.`,
  ];
}

const tokens = tokenRows();
const estimates = estimateRows();
const retrieval = retrievalRows();
const out = [
  '## First request: deferred tokens (o200k, `toolsearch inspect --catalog <set>`)',
  '',
  ...tokens,
  '',
  '## The bounded estimate the budget counts with, against o200k',
  '',
  ...estimates,
  '',
  '## What the budget costs in retrieval (LiveMCPBench + Smithery distractors)',
  '',
  ...retrieval,
  '',
].join('\n');
process.stdout.write(`${out}\n`);
if (!process.argv.includes('--no-write')) {
  writeFileSync(
    join(HERE, 'results', 'announce-budget.md'),
    `${header('E4: the deferred-token budget — tokens and what it costs in retrieval (issue 24)', 'npx tsx bench/announce-budget.ts')}\n${out}`,
  );
  process.stderr.write('wrote bench/results/announce-budget.md\n');
}
