/**
 * C14 — literal name matches: a tool whose name is made of the request's words ("create a new
 * directory" → create_directory, "read a file" → read_file) is what the request asks for, and a
 * word that only matches an argument name or a description's boilerplate is weaker evidence than
 * one that names the tool. BM25F alone lets many description words outweigh a name; this rule
 * adds, per tool, the share of its name the query covers.
 *
 * A tool's name parts are its name's words (stemmed, stop words dropped) less the first word when
 * most of its server's tools start with it (`slack_`, `browser_`, `git_`, `API-`): a prefix names
 * the server, not what the tool does, and the server's name is matched by the server evidence.
 */
import type { Fields } from './tokenizer.js';
import { TouchedSet } from './postings.js';

/** Name parts in one flat (CSR) layout, as the postings: term id → tools, with each part's share of that tool's name. */
export interface NameParts {
  offsets: Int32Array;
  doc: Int32Array;
  /** 1 / (number of the tool's own name parts). */
  share: Float32Array;
  /** Per tool, its own name parts (term ids), for explain. */
  parts: readonly (readonly number[])[];
  /** Per tool, how many own name parts it has. */
  partCount: Uint16Array;
}

/**
 * C14: what the name match knows of a plain request (a short one, not a task): the query word
 * each stand-in term stands for, so a synonym covers a name part at `synonymCover` ("a new
 * folder" → create_directory) and one word names at most one part. In a task's many words a
 * synonym naming a short tool's name is chance (measured: bench/README.md, issue 31 ranker round).
 */
export interface PlainRequest {
  concepts: ReadonlyMap<string, string>;
  synonymCover: number;
  /**
   * C15: the request's words that are verbs of tool names but not its action ("open" in "how many
   * open issues"): they name no part of a name.
   */
  incidental?: ReadonlySet<string>;
}

/** Query terms below this weight cover no name part (ordinary synonyms weigh 0.3), except in a plain request. */
export const MIN_COVERING_WEIGHT = 0.5;

/** A name part in at least this share of a server's tools is its prefix (`slack_post_message`). */
export const PREFIX_SHARE = 0.5;
/** Servers with fewer tools have no prefix: two tools sharing a word is chance. */
export const PREFIX_MIN_TOOLS = 4;

/** Per server, the first name parts that most of its tools share. */
export function serverPrefixes(docs: readonly Fields[], serverOf: Int32Array): Map<number, Set<number>> {
  const counts = new Map<number, Map<number, number>>();
  const sizes = new Map<number, number>();
  docs.forEach((d, i) => {
    const s = serverOf[i]!;
    if (s < 0) return;
    sizes.set(s, (sizes.get(s) ?? 0) + 1);
    let c = counts.get(s);
    if (!c) counts.set(s, (c = new Map()));
    // Only a name's first word can be a prefix: a word most names share elsewhere ("file" in
    // read_file, write_file, move_file) is the object they act on, and it is what requests name.
    const first = d.name[0];
    if (first !== undefined) c.set(first, (c.get(first) ?? 0) + 1);
  });
  const out = new Map<number, Set<number>>();
  for (const [s, c] of counts) {
    const size = sizes.get(s)!;
    if (size < PREFIX_MIN_TOOLS) continue;
    const shared = new Set<number>();
    for (const [t, n] of c) if (n / size >= PREFIX_SHARE) shared.add(t);
    if (shared.size > 0) out.set(s, shared);
  }
  return out;
}

/** Each tool's own name parts (distinct, prefixes dropped, but never all of them). */
export function ownNameParts(docs: readonly Fields[], serverOf: Int32Array): number[][] {
  const prefixes = serverPrefixes(docs, serverOf);
  return docs.map((d, i) => {
    const distinct = [...new Set(d.name)];
    const prefix = prefixes.get(serverOf[i]!);
    if (!prefix) return distinct;
    const own = prefix.has(d.name[0]!) ? distinct.filter((t) => t !== d.name[0]) : distinct;
    return own.length > 0 ? own : distinct;
  });
}

export function buildNameParts(docs: readonly Fields[], serverOf: Int32Array, termCount: number): NameParts {
  const parts = ownNameParts(docs, serverOf);
  const offsets = new Int32Array(termCount + 1);
  for (const p of parts) for (const t of p) offsets[t + 1]!++;
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const doc = new Int32Array(offsets[termCount]!);
  const share = new Float32Array(offsets[termCount]!);
  const cursor = offsets.slice(0, termCount);
  parts.forEach((p, i) => {
    for (const t of p) {
      doc[cursor[t]!] = i;
      share[cursor[t]!++] = 1 / p.length;
    }
  });
  return { offsets, doc, share, parts, partCount: Uint16Array.from(parts, (p) => p.length) };
}

/**
 * The share of each tool's name the query covers, a query term counting at its weight squared
 * (capped at 1), written into `coverage` for the tools in `marked`. Returns the number of the
 * query's own terms (full weight): the other half of `nameShare`. In a plain request a synonym
 * covers at `synonymCover`, and the terms standing in for one query word count once per tool (at
 * their best): "read" names get or info, not both of get_file_info's parts.
 */
export function nameCoverage(
  name: NameParts,
  ids: ReadonlyMap<string, number>,
  terms: ReadonlyMap<string, number>,
  coverage: Float64Array,
  marked: TouchedSet,
  plain?: PlainRequest,
  group?: { best: Float64Array; marked: TouchedSet },
): number {
  const { offsets, doc, share } = name;
  let own = 0;
  // A plain request's terms by the query word they stand for (its stem for its own word).
  const groups = plain ? new Map<string, { t: number; weight: number }[]>() : undefined;
  for (const [term, w] of terms) {
    if (w >= 1) own++;
    const concept = plain?.concepts.get(term);
    if (concept === undefined && plain?.incidental?.has(term)) continue;
    const synonym = w < MIN_COVERING_WEIGHT && concept !== undefined && plain!.synonymCover > 0;
    // A term weaker than MIN_COVERING_WEIGHT (an ordinary synonym, a faint expansion) names no
    // part: walking the name postings of "get"'s synonyms cost 15 % of a search for nothing.
    if (w < MIN_COVERING_WEIGHT && !synonym) continue;
    const t = ids.get(term);
    if (t === undefined || t + 1 >= offsets.length) continue;
    // A stand-in covers a name part at its weight squared: a literal name part outranks one.
    const weight = synonym ? plain!.synonymCover : Math.min(1, w * w);
    if (!groups) {
      for (let j = offsets[t]!; j < offsets[t + 1]!; j++) {
        marked.add(doc[j]!);
        coverage[doc[j]!]! += weight * share[j]!;
      }
      continue;
    }
    // A query word and its stand-ins are one group, keyed by the word's stem.
    const key = concept ?? term;
    const list = groups.get(key);
    if (list) list.push({ t, weight });
    else groups.set(key, [{ t, weight }]);
  }
  if (groups) for (const list of groups.values()) addGroup(name, list, coverage, marked, group);
  return own;
}

/**
 * One query word's group: each tool's best cover among the word and its stand-ins is added. A
 * group of one term adds directly; a larger one keeps each tool's best in `group` (typed buffers,
 * emptied after: a map per group cost a fifth of a short search).
 */
function addGroup(
  name: NameParts,
  list: readonly { t: number; weight: number }[],
  coverage: Float64Array,
  marked: TouchedSet,
  group: { best: Float64Array; marked: TouchedSet } | undefined,
): void {
  const { offsets, doc, share } = name;
  if (list.length === 1 || !group) {
    const local = list.length === 1 ? undefined : new Map<number, number>();
    for (const { t, weight } of list)
      for (let j = offsets[t]!; j < offsets[t + 1]!; j++) {
        const d = doc[j]!;
        const c = weight * share[j]!;
        if (!local) {
          marked.add(d);
          coverage[d]! += c;
        } else local.set(d, Math.max(local.get(d) ?? 0, c));
      }
    if (local)
      for (const [d, c] of local) {
        marked.add(d);
        coverage[d]! += c;
      }
    return;
  }
  const { best } = group;
  for (const { t, weight } of list)
    for (let j = offsets[t]!; j < offsets[t + 1]!; j++) {
      const d = doc[j]!;
      const c = weight * share[j]!;
      if (c > best[d]!) {
        if (best[d] === 0) group.marked.add(d);
        best[d] = c;
      }
    }
  const touched = group.marked;
  for (let a = 0; a < touched.count; a++) {
    const d = touched.list[a]!;
    marked.add(d);
    coverage[d]! += best[d]!;
    best[d] = 0;
  }
  touched.clear();
}

/**
 * How much a tool's name and the request are the same words: the share of the name the query
 * covers times the share of the query's own words the name holds. A plain request ("create a new
 * directory") and a name made of its words (create_directory) score near 1; one word of a long
 * task that happens to be a short tool's name scores little, so task sentences keep their
 * ranking (measured: bench/README.md, issue 31 round).
 */
export function nameShare(covered: number, nameParts: number, queryTerms: number): number {
  const ofName = Math.min(1, covered);
  const ofQuery = Math.min(1, (covered * nameParts) / Math.max(1, queryTerms));
  return ofName * ofQuery;
}

/**
 * Add `weight × best score × nameShare²` to each tool whose name the query covers (the square: a
 * request that spells a name out whole counts much more than a partial match), then empty the
 * buffers. `best` is the best score before this rule, so the bonus is in the ranker's units on
 * every catalog. `out`, when given, receives each tool's bonus (explain).
 */
export function addNameEvidence(
  coverage: Float64Array,
  marked: TouchedSet,
  scores: Float64Array,
  touched: TouchedSet,
  weight: number,
  queryTerms: number,
  partCount: Uint16Array,
  out?: Float64Array,
): void {
  let best = 0;
  for (let a = 0; a < touched.count; a++) {
    const v = scores[touched.list[a]!]!;
    if (v > best) best = v;
  }
  for (let a = 0; a < marked.count; a++) {
    const d = marked.list[a]!;
    const c = nameShare(coverage[d]!, partCount[d]!, queryTerms);
    const bonus = weight * best * c * c;
    if (bonus > 0 && scores[d]! > 0) {
      scores[d]! += bonus;
      if (out) out[d] = bonus;
    }
    coverage[d] = 0;
  }
  marked.clear();
}

/** The rule with its buffers (reused per query, as the clause pass's). */
export class NameMatcher {
  private readonly name: NameParts;
  private readonly coverage: Float64Array;
  private readonly marked: TouchedSet;
  /** A plain request's per-word best covers (nameCoverage's groups). */
  private readonly group: { best: Float64Array; marked: TouchedSet };
  private termOf: string[] | undefined;

  constructor(
    docs: readonly Fields[],
    serverOf: Int32Array,
    private readonly ids: ReadonlyMap<string, number>,
  ) {
    this.name = buildNameParts(docs, serverOf, ids.size);
    this.coverage = new Float64Array(docs.length);
    this.marked = new TouchedSet(docs.length);
    this.group = { best: new Float64Array(docs.length), marked: new TouchedSet(docs.length) };
  }

  add(
    terms: ReadonlyMap<string, number>,
    scores: Float64Array,
    touched: TouchedSet,
    weight: number,
    plain?: PlainRequest,
    out?: Float64Array,
  ): void {
    const own = nameCoverage(this.name, this.ids, terms, this.coverage, this.marked, plain, this.group);
    if (this.marked.count === 0) return;
    addNameEvidence(this.coverage, this.marked, scores, touched, weight, own, this.name.partCount, out);
  }

  /** Explain (C11): tool `i`'s own name parts and those the query's terms cover. */
  describe(
    i: number,
    terms: ReadonlyMap<string, number>,
    bonus: number,
    plain?: PlainRequest,
  ): { parts: string[]; matched: string[]; score: number; bySynonym?: string[] } {
    if (!this.termOf) {
      this.termOf = [];
      for (const [term, id] of this.ids) this.termOf[id] = term;
    }
    const parts = this.name.parts[i]!.map((t) => this.termOf![t]!);
    const incidental = (p: string) => plain?.incidental?.has(p) === true && !plain.concepts.has(p);
    const covers = (p: string) => (terms.get(p) ?? 0) >= MIN_COVERING_WEIGHT && !incidental(p);
    const matched = parts.filter(covers);
    if (!plain) return { parts, matched, score: bonus };
    // As the rule counts: a word whose own stem or another stand-in already names a part names no second one.
    const used = new Set(matched.map((p) => plain.concepts.get(p) ?? p));
    const bySynonym: string[] = [];
    for (const p of parts) {
      const concept = plain.concepts.get(p);
      if (plain.synonymCover <= 0 || covers(p) || concept === undefined || used.has(concept)) continue;
      used.add(concept);
      bySynonym.push(p);
    }
    return {
      parts,
      matched: parts.filter((p) => covers(p) || bySynonym.includes(p)),
      score: bonus,
      ...(bySynonym.length > 0 && { bySynonym: bySynonym.map((p) => `${p} (for ${plain.concepts.get(p)})`) }),
    };
  }
}
