/**
 * `toolsearch search` — run queries against a JSONL catalog (every tool deferred) in one process.
 * With --json, one line per query: {"qid", "query", "matches": [catalog ids], "totalDeferred"}.
 */
import type { Command } from 'commander';
import type { Catalog } from '../../core/catalog.js';
import { isRankerName, RANKER_NAMES } from '../../search/rankers.js';
import {
  ToolSearcher,
  type SearchMode,
  type SearchOptions,
  type SearchPool,
  type ToolSearchResult,
} from '../../search/searcher.js';
import type { RankerName } from '../../search/ranker.js';
import { formatExplanation } from '../../search/explain.js';
import { addEmbeddingsOptions, embeddingsFromFlags, type EmbeddingsFlags } from '../embeddings-options.js';
import { formatServerSuggestions } from '../../search/suggest.js';
import { formatFailedServers } from '../../search/server-failures.js';
import { loadCatalogFile, loadQueriesFile, type QueryEntry } from '../catalog-file.js';
import { loadUsageLog } from '../usage-log.js';
import { LearnedRanking } from '../../search/learned/learned-ranking.js';

interface SearchCommandOptions extends EmbeddingsFlags {
  catalog?: string;
  config?: string;
  query?: string;
  queries?: string;
  maxResults: string;
  ranker: string;
  mode: string;
  json?: boolean;
  explain?: boolean;
  /** C13: JSONL of earlier {query, tool} pairs, learned before answering. */
  usageLog?: string;
}

function poolOf(catalog: Catalog): SearchPool {
  const tools = catalog.tools;
  return {
    tools,
    deferred: new Set(tools.map((t) => t.name)),
    pendingServers: catalog.pendingServers,
    failedServers: catalog.failedServers,
    servers: catalog.serverInfo,
  };
}

/** What to search for must be said before any server is started: both flags, or an empty query, fail first. */
function checkQueryFlags(options: SearchCommandOptions): void {
  if (options.query !== undefined && options.queries !== undefined)
    throw new Error('Use either --query or --queries, not both.');
  if (options.query !== undefined && options.query.trim() === '')
    throw new Error('--query is empty: give words to search for, e.g. --query "read a file".');
}

function readQueries(options: SearchCommandOptions): QueryEntry[] {
  checkQueryFlags(options);
  if (options.query !== undefined) return [{ query: options.query }];
  if (options.queries !== undefined) return loadQueriesFile(options.queries);
  throw new Error('Give a query with --query "…" or a file of queries with --queries FILE.jsonl.');
}

/** The catalog to search: a JSONL file, the live tools of the servers in an MCP config, or the bundled servers. */
async function openCatalog(options: SearchCommandOptions): Promise<{ catalog: Catalog; close(): Promise<void> }> {
  if (options.catalog !== undefined && options.config !== undefined)
    throw new Error('Use either --catalog or --config, not both.');
  if (options.catalog !== undefined) return { catalog: loadCatalogFile(options.catalog), close: async () => {} };
  // Live servers: the config's, or (like `serve`) the bundled reference servers.
  const { loadCatalogFromConfig } = await import('../../mcp/load.js');
  const { createStderrLogger } = await import('../../util/log.js');
  const { defaultHubConfig } = await import('../../mcp/defaults.js');
  return loadCatalogFromConfig(options.config ?? defaultHubConfig(), {
    logger: createStderrLogger('warn'),
    requireAServer: true,
  });
}

/** Anything that answers a search: the plain searcher, or the embedding searcher (async). */
type Search = (pool: SearchPool, query: string, options: SearchOptions) => ToolSearchResult | Promise<ToolSearchResult>;

export async function runSearchCommand(
  catalog: Catalog,
  options: SearchCommandOptions,
  write: (line: string) => void,
): Promise<void> {
  if (!isRankerName(options.ranker))
    throw new Error(`Unknown ranker "${options.ranker}". Use one of: ${RANKER_NAMES.join(', ')}.`);
  if (!['default', 'regex', 'bm25'].includes(options.mode))
    throw new Error(`Unknown mode "${options.mode}". Use default, regex or bm25.`);
  const maxResults = Number(options.maxResults);
  if (!Number.isInteger(maxResults) || maxResults < 1)
    throw new Error(`--max-results must be a positive integer, got "${options.maxResults}".`);
  const pool = poolOf(catalog);
  const explain = options.explain === true;
  const learned =
    options.usageLog !== undefined ? new LearnedRanking(loadUsageLog(options.usageLog, catalog)) : undefined;
  const search = await searchFunction(pool, options, maxResults, learned);
  const idOf = (name: string) => catalog.get(name)?.id ?? name;
  for (const entry of readQueries(options)) {
    const result = await search(pool, entry.query, { mode: options.mode as SearchMode, explain });
    if (options.json) {
      write(
        JSON.stringify({
          ...(entry.qid !== undefined && { qid: entry.qid }),
          query: entry.query,
          matches: result.matches.map(idOf),
          totalDeferred: result.totalDeferred,
          ...(result.notFound.length > 0 && { notFound: result.notFound }),
          ...(result.pendingServers.length > 0 && { pendingServers: result.pendingServers }),
          ...(result.failedServers !== undefined && { failedServers: result.failedServers }),
          ...(result.lowConfidence && { lowConfidence: true }),
          ...(result.suggestedServers && { suggestedServers: result.suggestedServers }),
          ...(result.explanations && { explanations: result.explanations }),
        }),
      );
      continue;
    }
    write(
      `${entry.qid !== undefined ? `[${entry.qid}] ` : ''}${entry.query}  (${result.kind}, ${result.totalDeferred} deferred)`,
    );
    if (result.error !== undefined) write(`    error: ${result.error}`);
    if (result.matches.length === 0) write('    (no match)');
    result.matches.forEach((name, i) => {
      write(`  ${String(i + 1).padStart(2)}. ${idOf(name)}`);
      writeExplanation(result, i, write);
    });
    for (const name of result.notFound) write(`    not found: ${name}`);
    for (const line of formatServerSuggestions(result.suggestedServers ?? [], result.matches.length > 0))
      write(`    ${line}`);
    for (const line of formatFailedServers(result.failedServers ?? [])) write(`    ${line}`);
  }
}

/**
 * The plain searcher, or (with embedding flags) the embedding searcher after its tool vectors are
 * ready: a one-shot command waits for them once (the disk cache makes the next run instant); if the
 * server is down it says so on stderr and searches lexically.
 */
async function searchFunction(
  pool: SearchPool,
  options: SearchCommandOptions,
  maxResults: number,
  learned: LearnedRanking | undefined,
): Promise<Search> {
  const embeddings = embeddingsFromFlags(options);
  if (embeddings === undefined) {
    const searcher = new ToolSearcher({
      ranker: options.ranker as RankerName,
      maxResults,
      ...(learned && { learned }),
    });
    return (p, q, o) => searcher.search(p, q, o);
  }
  const { EmbeddingSearcher } = await import('../../embeddings/searcher.js');
  const { createStderrLogger } = await import('../../util/log.js');
  const searcher = new EmbeddingSearcher(embeddings, {
    logger: createStderrLogger('warn'),
    searcher: { ranker: options.ranker as RankerName, maxResults, ...(learned && { learned }) },
  });
  await searcher.ready(pool);
  return (p, q, o) => searcher.search(p, q, o);
}

/** C11: the evidence lines under hit `i`, when the search was explained. */
function writeExplanation(result: ToolSearchResult, i: number, write: (line: string) => void): void {
  const explanation = result.explanations?.[i];
  if (!explanation) return;
  for (const line of formatExplanation(explanation)) write(`        ${line}`);
}

export function registerSearchCommand(program: Command): void {
  const command = program
    .command('search')
    .description('Search a tool catalog (all tools deferred) with one query or a file of queries.')
    .option('--catalog <file>', 'catalog JSONL: {id, server, name, description, inputSchema} per line')
    .option(
      '-c, --config <file>',
      'search the live tools of the MCP servers in a config ({"mcpServers": …}); with neither, the bundled reference servers',
    )
    .option('--query <text>', 'one query (select:a,b | exact name | mcp__server | keywords, +term = required)')
    .option('--queries <file>', 'queries JSONL: {qid?, query} per line')
    .option('--max-results <n>', 'results per query', '5')
    .option('--ranker <name>', `keyword ranker: ${RANKER_NAMES.join(' | ')}`, 'default')
    .option('--mode <mode>', 'query mode: default | regex | bm25', 'default')
    .option('--json', 'one JSON line per query: {qid, query, matches: [catalog ids], totalDeferred}')
    .option(
      '--explain',
      'say why each hit is there: fields and terms, expansions, server and clause evidence, embedding rank',
    )
    .option(
      '--usage-log <file>',
      'learn from earlier searches first: JSONL {"query", "tool": name or catalog id} per line (see `toolsearch learned`)',
    );
  addEmbeddingsOptions(command).action(async (options: SearchCommandOptions) => {
    checkQueryFlags(options);
    const { catalog, close } = await openCatalog(options);
    const out: string[] = [];
    const flush = () => {
      if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
      out.length = 0;
    };
    try {
      await runSearchCommand(catalog, options, (line) => {
        out.push(line);
        if (out.length >= 256) flush();
      });
      flush();
    } finally {
      await close();
    }
  });
}
