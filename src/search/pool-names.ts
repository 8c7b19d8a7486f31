/**
 * C1/C2 — names of the whole pool for `select:` and exact-name queries, kept per pool instead of
 * walked per query. The deferred tools are in the searcher's index; this holds the loaded ones
 * (few, in the gateway none) and, on the first `select:` whose case differs, every lowercased name.
 */
import type { ToolSpec } from '../core/tool.js';
import type { SearchPool } from './search-types.js';

interface Names {
  readonly tools: readonly ToolSpec[];
  readonly deferred: ReadonlySet<string>;
  readonly size: number;
  readonly loaded: Map<string, ToolSpec>;
  lower?: Map<string, string>;
}

export class PoolNames {
  private names: Names | undefined;

  /** A loaded (not deferred) pool tool by exact name. */
  loaded(pool: SearchPool, name: string): ToolSpec | undefined {
    return this.current(pool).loaded.get(name);
  }

  /** Any pool tool's name from its lowercased form (a model that changed the case still means that tool). */
  byLowercase(pool: SearchPool, lowercased: string): string | undefined {
    const names = this.current(pool);
    if (!names.lower) {
      names.lower = new Map();
      for (const t of pool.tools) {
        const key = t.name.toLowerCase();
        if (!names.lower.has(key)) names.lower.set(key, t.name);
      }
    }
    return names.lower.get(lowercased);
  }

  private current(pool: SearchPool): Names {
    const last = this.names;
    if (last && last.tools === pool.tools && last.deferred === pool.deferred && last.size === pool.deferred.size)
      return last;
    const loaded = new Map<string, ToolSpec>();
    for (const t of pool.tools) if (!pool.deferred.has(t.name) && !loaded.has(t.name)) loaded.set(t.name, t);
    this.names = { tools: pool.tools, deferred: pool.deferred, size: pool.deferred.size, loaded };
    return this.names;
  }
}
