/**
 * `npx tsx bench/session-recall.ts` — what the E5 confidence gate costs in retrieval: on every dev
 * set, R@5 of the search as before (every hit shown: loaded or listed, one `select:` away) and R@5
 * counting only the hits the session policy loads. Listing keeps every hit in the answer, so the
 * first figure is the search's own R@5; the second says how often the right tool is already loaded.
 * Appends its table to bench/results/session.md (`--no-write`: print only).
 */
import { appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decideSession } from '../src/core/session-policy.js';
import { policyInputOf } from '../src/search/session-answer.js';
import { ToolSearcher } from '../src/search/searcher.js';
import { loadSet, QUERY_SETS } from './datasets.js';
import { meanRows, scoreQuery } from './metrics.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const lines = [
  '## What the confidence gate costs in retrieval (dev sets)',
  '',
  'Command: `npx tsx bench/session-recall.ts`. R@5 "found" counts every hit the answer shows (loaded or listed); "loaded" counts only what the gate loads into the tool list.',
  '',
  '| set | queries | R@5 found (loaded or listed) | R@5 loaded | drop counting listed as found | tools loaded per search |',
  '|---|---|---|---|---|---|',
];
for (const name of QUERY_SETS) {
  const set = loadSet(name);
  const searcher = new ToolSearcher();
  const pool = { tools: set.tools, deferred: new Set(set.tools.map((t) => t.name)), pendingServers: [] };
  const idOf = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));
  const found = [];
  const loaded = [];
  let loads = 0;
  for (const q of set.queries) {
    const result = searcher.search(pool, q.query, { maxResults: 5 });
    const decision = decideSession({ ...policyInputOf(result, () => true), held: [] });
    loads += decision.load.length;
    const shown = [...decision.load, ...decision.list, ...decision.describe];
    found.push(
      scoreQuery(
        result.matches.filter((n) => shown.includes(n)).map((n) => idOf.get(n)!),
        q.gold,
      ),
    );
    loaded.push(
      scoreQuery(
        decision.load.map((n) => idOf.get(n)!),
        q.gold,
      ),
    );
  }
  const f = meanRows(found)['R@5'];
  const l = meanRows(loaded)['R@5'];
  const before = meanRows(
    set.queries.map((q) =>
      scoreQuery(
        searcher.search(pool, q.query, { maxResults: 5 }).matches.map((n) => idOf.get(n)!),
        q.gold,
      ),
    ),
  )['R@5'];
  lines.push(
    `| ${name} | ${set.queries.length} | ${f.toFixed(3)} | ${l.toFixed(3)} | ${(before - f).toFixed(3)} | ${(loads / set.queries.length).toFixed(2)} |`,
  );
  process.stderr.write(`${name} done\n`);
}
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
if (!process.argv.includes('--no-write')) appendFileSync(join(HERE, 'results', 'session.md'), `\n${text}`);
