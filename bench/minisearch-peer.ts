/**
 * MiniSearch as an external peer: BM25+ over name (split), description and parameter names,
 * name boosted ×2, OR-combined terms, no prefix/fuzzy (so it stays comparable and fast).
 */
import MiniSearch from 'minisearch';
import type { ToolSpec } from '../src/core/tool.js';
import type { Ranker, RankerIndex } from '../src/search/ranker.js';
import { identifierParts, schemaParameters, sourceName } from '../src/search/text.js';

export const miniSearchRanker: Ranker = {
  name: 'minisearch',
  build(tools: readonly ToolSpec[]): RankerIndex {
    const mini = new MiniSearch<{ id: number; name: string; description: string; params: string }>({
      fields: ['name', 'description', 'params'],
      storeFields: [],
    });
    mini.addAll(
      tools.map((t, id) => ({
        id,
        name: identifierParts(sourceName(t)).join(' '),
        description: t.description,
        params: schemaParameters(t)
          .map((p) => identifierParts(p.name).join(' '))
          .join(' '),
      })),
    );
    return {
      search(query, limit) {
        return mini
          .search(query.text, { boost: { name: 2 }, combineWith: 'OR' })
          .slice(0, limit)
          .map((r) => ({ name: tools[r.id as number]!.name, score: r.score }));
      },
    };
  },
};
