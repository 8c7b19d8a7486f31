/**
 * H2 for the gateway's start-up banner: servers, tools, pending, and the tool-definition tokens a
 * client pays per request with everything eager vs with deferral (o200k_base via gpt-tokenizer;
 * an estimate for Claude, whose tokenizer is not published).
 */
import { definitionTokens } from '../../inspect/report.js';
import { o200kTokens } from '../../inspect/tokenizer.js';
import type { FailedServer } from '../../core/catalog.js';
import type { ToolsearchGateway } from '../gateway.js';

export interface CatalogSummary {
  servers: string[];
  pendingServers: string[];
  /** C12/H3: servers that failed, with the reason. */
  failedServers: FailedServer[];
  tools: number;
  deferredTools: number;
  /** Every tool's definition sent on every request. */
  eagerTokens: number;
  /** What a fresh session's `tools/list` costs: always-loaded + tool_search + call_tool. */
  deferredTokens: number;
}

export async function summarizeGateway(gateway: ToolsearchGateway): Promise<CatalogSummary> {
  const catalog = gateway.catalog;
  const eagerTokens = definitionTokens(catalog.tools, o200kTokens);
  // The list a brand-new session gets (no session store access: the banner prints while Redis is down).
  const fresh = await gateway.listTools();
  return {
    servers: catalog.servers(),
    pendingServers: [...catalog.pendingServers],
    failedServers: [...catalog.failedServers],
    tools: catalog.size,
    deferredTools: gateway.deferred().size,
    eagerTokens,
    deferredTokens: definitionTokens(fresh, o200kTokens),
  };
}

export function formatSummary(summary: CatalogSummary): string {
  const saved = summary.eagerTokens - summary.deferredTokens;
  const pct = summary.eagerTokens > 0 ? Math.round((saved / summary.eagerTokens) * 100) : 0;
  return [
    `servers: ${summary.servers.length} connected (${summary.servers.join(', ') || 'none'})` +
      (summary.pendingServers.length > 0
        ? `, ${summary.pendingServers.length} pending (${summary.pendingServers.join(', ')})`
        : '') +
      (summary.failedServers.length > 0
        ? `, ${summary.failedServers.length} failed (${summary.failedServers.map((f) => `${f.server}: ${f.reason}`).join('; ')})`
        : ''),
    `tools: ${summary.tools} (${summary.deferredTools} deferred, ${summary.tools - summary.deferredTools} always loaded)`,
    `tool-definition tokens per request: ${summary.eagerTokens} eager vs ${summary.deferredTokens} deferred (saves ${saved}, ${pct}%)` +
      ' — exact o200k_base count (OpenAI GPT-4o/4.1/5); an estimate for Claude',
  ].join('\n');
}
