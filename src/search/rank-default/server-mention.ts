/**
 * C14 — a request that names a server asks for that server's tools. "Who are all the people in our
 * Notion workspace?", "put them all into Linear", "fix the README on GitHub": the product's name is
 * the user's strongest hint, and word overlap alone lets another server's tool with the same verbs
 * win ("people" → Slack's users). A word of a server's name counts as a mention only when it is
 * distinctive: few tools of other servers use it, so "search" in `brave-search` or "desktop" in
 * `desktop-commander` is no mention, while "notion", "github" and "linear" are.
 */
import type { DefaultRankerOptions } from './options.js';
import type { TouchedSet } from './postings.js';
import type { Fields } from './tokenizer.js';

/** Server-name words that name what every MCP server is, not which one. */
const GENERIC_NAME_WORDS = new Set(['mcp', 'server', 'servers', 'api', 'tool', 'tools', 'official']);

/**
 * A server-name word is distinctive when at most this share of the other servers' tools hold it
 * (in any field).
 */
export const MAX_OTHER_SHARE = 0.02;

/** Per distinctive server-name word (term id), the servers whose name holds it. */
export class ServerMentions {
  private readonly byTerm = new Map<number, number[]>();
  /** Terms that are a server's whole name (less generic words): "notion", "github", "slack". */
  private readonly wholeNames = new Set<number>();

  constructor(docs: readonly Fields[], serverOf: Int32Array, serverCount: number, termOf: ReadonlyMap<string, number>) {
    const generic = new Set([...GENERIC_NAME_WORDS].map((w) => termOf.get(w)).filter((id) => id !== undefined));
    // Each server's name words, and how many tools of any server hold each (once per tool).
    const nameTerms: Set<number>[] = Array.from({ length: serverCount }, () => new Set());
    docs.forEach((d, i) => {
      const s = serverOf[i]!;
      if (s >= 0) for (const t of d.server) if (!generic.has(t)) nameTerms[s]!.add(t);
    });
    const candidates = new Set(nameTerms.flatMap((set) => [...set]));
    if (candidates.size === 0) return;
    const holders = new Map<number, Map<number, number>>(); // term → server → tools holding it
    docs.forEach((d, i) => {
      const seen = new Set<number>();
      for (const field of [d.name, d.hint, d.description, d.params, d.paramDescriptions])
        for (const t of field) if (candidates.has(t)) seen.add(t);
      for (const t of seen) {
        let perServer = holders.get(t);
        if (!perServer) holders.set(t, (perServer = new Map()));
        perServer.set(serverOf[i]!, (perServer.get(serverOf[i]!) ?? 0) + 1);
      }
    });
    const toolsOf = new Int32Array(serverCount);
    for (const s of serverOf) if (s >= 0) toolsOf[s]!++;
    nameTerms.forEach((terms, s) => {
      if (terms.size === 1) this.wholeNames.add([...terms][0]!);
      const outside = Math.max(1, docs.length - toolsOf[s]!);
      for (const t of terms) {
        let others = 0;
        for (const [server, n] of holders.get(t) ?? []) if (server !== s) others += n;
        if (others > MAX_OTHER_SHARE * outside) continue;
        let list = this.byTerm.get(t);
        if (!list) this.byTerm.set(t, (list = []));
        list.push(s);
      }
    });
  }

  /**
   * The servers a request's own words (term ids) name: a word that is some server's whole name
   * ("github") names every server whose name holds it distinctively (`github` and `github-actions`).
   */
  mentioned(termIds: Iterable<number>): Set<number> {
    const out = new Set<number>();
    for (const t of termIds) {
      if (!this.wholeNames.has(t)) continue;
      for (const s of this.byTerm.get(t) ?? []) out.add(s);
    }
    return out;
  }

  /**
   * Lift the touched tools of the servers the request names (its words at full weight: its own,
   * not synonyms) by `serverMentionWeight` × the best score, so they lead the servers it does not
   * name. A request naming more than two servers is a task across them: nothing is lifted.
   * With `record` (explain), returns each tool's lift; a search allocates nothing per tool.
   */
  lift(
    terms: ReadonlyMap<string, number>,
    termOf: ReadonlyMap<string, number>,
    scores: Float64Array,
    touched: TouchedSet,
    serverOf: Int32Array,
    options: Pick<DefaultRankerOptions, 'serverMentionWeight'>,
    record = false,
  ): Float64Array | undefined {
    const ids: number[] = [];
    for (const [term, weight] of terms) {
      const id = weight >= 1 ? termOf.get(term) : undefined;
      if (id !== undefined) ids.push(id);
    }
    const named = this.mentioned(ids);
    if (named.size === 0 || named.size > 2) return undefined;
    let max = 0;
    for (let a = 0; a < touched.count; a++) max = Math.max(max, scores[touched.list[a]!]!);
    const lift = options.serverMentionWeight * max;
    const lifted = record ? new Float64Array(scores.length) : undefined;
    for (let a = 0; a < touched.count; a++) {
      const i = touched.list[a]!;
      if (!(scores[i]! > 0) || !named.has(serverOf[i]!)) continue;
      scores[i]! += lift;
      if (lifted) lifted[i] = lift;
    }
    return lifted;
  }
}
