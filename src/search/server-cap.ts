/**
 * C15 — one server may not fill the answer when others match well: of the top `limit` hits, at most
 * `SERVER_CAP` come from one server while a hit of another server further down scores at least
 * `WELL_MATCHED_SHARE` of the best hit's score. Such a hit moves up in place of the capped server's
 * next one (which is kept, after it); without one, the ranking stands. The first hit never moves.
 *
 * A catalog with one big server (28 git tools, 26 GitHub tools) otherwise can answer with five
 * look-alikes of one server and push another server's close tool out of sight. Applied to the
 * ranked list, not inside the ranker: the ranker's order of every tool is unchanged. The constants
 * are the tightest that cost no R@5 on any dev set or developed holdout: 3 of 5 from a share of 0.5
 * cost LiveMCPBench 0.030 and StableToolBench 0.017, whose tasks need several tools of one API
 * (bench/results/server-cap.md, `npx tsx bench/server-cap.ts --cap N --share S`).
 */

import type { ToolSpec } from '../core/tool.js';

/** Hits of one server allowed in the top `limit` while another server's hit matches well. */
export const SERVER_CAP = 4;
/** Another server's hit "matches well" from this share of the best hit's score. */
export const WELL_MATCHED_SHARE = 0.7;
/** Ranked hits read beyond `limit` for the other servers' candidates. */
export const SERVER_CAP_LOOKAHEAD = 10;

export interface CapOptions {
  readonly cap?: number;
  readonly share?: number;
}

/**
 * The top `limit` of `hits` (best first, with scores) with the per-server cap applied. Hits without
 * a score, or with no server, are never moved and never counted.
 */
export function capPerServer<T extends { readonly name: string; readonly score?: number }>(
  hits: readonly T[],
  serverOf: (name: string) => string | undefined,
  limit: number,
  options: CapOptions = {},
): T[] {
  const cap = options.cap ?? SERVER_CAP;
  const share = options.share ?? WELL_MATCHED_SHARE;
  const best = hits[0]?.score;
  if (best === undefined || best <= 0 || cap <= 0) return hits.slice(0, limit);
  const wellMatched = (h: T) => h.score !== undefined && h.score >= best * share;
  const out: T[] = [];
  const waiting: T[] = [];
  const count = new Map<string, number>();
  const full = (server: string | undefined) => server !== undefined && (count.get(server) ?? 0) >= cap;
  for (let i = 0; i < hits.length && out.length < limit; i++) {
    const hit = hits[i]!;
    const server = serverOf(hit.name);
    // Capped: wait while some later hit of a server that is not full matches well.
    if (full(server) && hits.slice(i + 1).some((h) => wellMatched(h) && !full(serverOf(h.name)))) {
      waiting.push(hit);
      continue;
    }
    out.push(hit);
    if (server !== undefined) count.set(server, (count.get(server) ?? 0) + 1);
  }
  for (const hit of waiting) if (out.length < limit) out.push(hit);
  return out;
}

/** A tool's MCP server by its name, from the pool's tools (local tools have none). */
export function serverOfTool(byName: ReadonlyMap<string, ToolSpec>): (name: string) => string | undefined {
  return (name) => {
    const origin = byName.get(name)?.origin;
    return origin?.kind === 'mcp' ? origin.server : undefined;
  };
}
