/**
 * G10 — the tools a client's policy keeps out of its catalog, as the search needs them to say what
 * an answer lost (search/policy-withheld.ts): each with its text when the catalog kept it (a
 * profile's policy), else its name alone. One array per catalog version, so the search's index of
 * them is built once.
 */
import type { Catalog } from '../../core/catalog.js';
import type { PolicyHiddenTool } from '../../search/search-types.js';

const byCatalog = new WeakMap<Catalog, { version: number; tools: readonly PolicyHiddenTool[] }>();

export function policyHiddenTools(catalog: Catalog): readonly PolicyHiddenTool[] {
  const cached = byCatalog.get(catalog);
  if (cached?.version === catalog.version) return cached.tools;
  const tools = catalog.hiddenTools
    .filter((h) => h.kind === 'policy')
    .map((h) => ({
      tool: h.spec ?? {
        name: h.name,
        originalName: h.tool,
        description: h.description ?? '',
        inputSchema: { type: 'object' as const, properties: {} },
        origin: { kind: 'mcp' as const, server: h.server },
      },
      reason: h.reason,
    }));
  byCatalog.set(catalog, { version: catalog.version, tools });
  return tools;
}
