/**
 * C13 — `toolsearch search --usage-log FILE`: earlier searches and the tools they led to, one JSON
 * line each ({"query": "…", "tool": "<model-facing name or catalog id>"}), applied before the
 * queries are answered (offline replay, or seeding what a deployment would learn).
 */
import type { Catalog } from '../core/catalog.js';
import { LearnedLog } from '../search/learned/log.js';
import { schemaFingerprint } from '../search/learned/terms.js';
import { CatalogFileError, readJsonLines } from './catalog-file.js';

export function loadUsageLog(file: string, catalog: Catalog): LearnedLog {
  const byId = new Map(catalog.tools.map((t) => [t.id ?? t.name, t]));
  // C14: the operator's own file, read for this run only (never stored or shared): every line is
  // taken at its word, with no second session needed to confirm it.
  const log = new LearnedLog({ perTool: 10_000, total: 1_000_000, corroboration: 1 });
  const now = Date.now();
  for (const { line, value } of readJsonLines(file)) {
    const { query, tool } = value;
    if (typeof query !== 'string' || typeof tool !== 'string')
      throw new CatalogFileError(file, line, 'expected {"query": string, "tool": string}');
    const spec = catalog.get(tool) ?? byId.get(tool);
    if (!spec) throw new CatalogFileError(file, line, `no tool "${tool}" in the catalog (name or id)`);
    log.record({ query, tool: spec.name, at: now, schema: schemaFingerprint(spec) });
  }
  return log;
}
