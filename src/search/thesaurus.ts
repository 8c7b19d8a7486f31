/**
 * The tool-text thesaurus (C6, issue 12): for a stem, its nearest stems in tool texts (PPMI over
 * ±5-word windows of tool names, descriptions and parameter texts; built by
 * `bench/build-thesaurus.ts` from catalogs that are not the evaluated ones), and for everyday
 * words tool texts rarely use (rain, yen, folder) GloVe neighbours among tool words
 * (`bench/build-glove-neighbours.ts`) at a lower weight. Parsed on first use (~1.5 MB of text,
 * tens of ms once), so a program that never expands a query never pays for it.
 */
import { GLOVE_TABLE } from './tables/glove-table.js';
import { QUERY_VOCABULARY_TABLE } from './tables/query-vocabulary-table.js';
import { THESAURUS_TABLE } from './tables/thesaurus-table.js';

/**
 * GloVe similarities are general-English cosines (0.5–0.8 for loose relatives such as
 * remember → really), so they count at half: measured best of 0.2–1.0 in bench/README.md.
 */
export const GLOVE_SCALE = 0.5;

export interface Neighbour {
  readonly term: string;
  /** Cosine similarity of the two words' PPMI vectors, 0–1. */
  readonly similarity: number;
}

/** A stem → neighbours lookup. The default is the shipped table; tests and benches may pass their own. */
export type Thesaurus = ReadonlyMap<string, readonly Neighbour[]>;

/**
 * C14: the query-word table (what requests say → what the tools that answered them say, learned
 * from the training splits) counts at half: chosen on the sets it was not learned from (at full
 * weight BFCL lost 0.008 R@5; at half no such set loses). bench/README.md has the table.
 */
export const QUERY_VOCABULARY_SCALE = 0.5;

let shipped: Thesaurus | undefined;

/**
 * Parse the `stem n1 s1 n2 s2 …` lines (similarity × 100) of a table into `into` (a new map by
 * default). Stems already in `into` keep their entry: the first table given wins.
 */
export function parseThesaurus(
  table: string,
  scale = 1,
  into = new Map<string, Neighbour[]>(),
): Map<string, Neighbour[]> {
  for (const line of table.split('\n')) {
    const parts = line.split(' ');
    if (parts.length < 3 || into.has(parts[0]!)) continue;
    const neighbours: Neighbour[] = [];
    for (let i = 1; i + 1 < parts.length; i += 2)
      neighbours.push({ term: parts[i]!, similarity: (Number(parts[i + 1]) / 100) * scale });
    into.set(parts[0]!, neighbours);
  }
  return into;
}

/**
 * The shipped thesaurus (tool-text table, GloVe for the words it lacks). Read line by line on
 * demand: the first call indexes where each stem's line starts, and a stem's neighbours are parsed
 * when it is first looked up. Parsing all ~35k lines up front held ~15 MB of neighbour objects in
 * every process, for the few hundred stems queries ever expand.
 */
export function shippedThesaurus(): Thesaurus {
  return (shipped ??= new UnionThesaurus(
    new LazyThesaurus([
      { table: THESAURUS_TABLE, scale: 1 },
      { table: GLOVE_TABLE, scale: GLOVE_SCALE },
    ]),
    new LazyThesaurus([{ table: QUERY_VOCABULARY_TABLE, scale: QUERY_VOCABULARY_SCALE }]),
  ));
}

/**
 * Two thesauri as one: a stem's neighbours from both, a neighbour in both at its higher
 * similarity, best first (merged once per stem, on first lookup).
 */
export class UnionThesaurus implements ReadonlyMap<string, readonly Neighbour[]> {
  private readonly merged = new Map<string, readonly Neighbour[]>();

  constructor(
    private readonly first: Thesaurus,
    private readonly second: Thesaurus,
  ) {}

  get size(): number {
    let n = this.first.size;
    for (const stem of this.second.keys()) if (!this.first.has(stem)) n++;
    return n;
  }

  has(stem: string): boolean {
    return this.first.has(stem) || this.second.has(stem);
  }

  get(stem: string): readonly Neighbour[] | undefined {
    const done = this.merged.get(stem);
    if (done !== undefined) return done;
    const a = this.first.get(stem);
    const b = this.second.get(stem);
    if (!a || !b) return a ?? b;
    const best = new Map<string, number>();
    for (const n of [...a, ...b]) best.set(n.term, Math.max(best.get(n.term) ?? 0, n.similarity));
    const out = [...best]
      .map(([term, similarity]) => ({ term, similarity }))
      .sort((x, y) => y.similarity - x.similarity);
    this.merged.set(stem, out);
    return out;
  }

  forEach(
    each: (value: readonly Neighbour[], key: string, map: ReadonlyMap<string, readonly Neighbour[]>) => void,
  ): void {
    for (const [key, value] of this.entries()) each(value, key, this);
  }

  *entries(): MapIterator<[string, readonly Neighbour[]]> {
    for (const stem of this.keys()) yield [stem, this.get(stem)!];
  }

  *keys(): MapIterator<string> {
    yield* this.first.keys();
    for (const stem of this.second.keys()) if (!this.first.has(stem)) yield stem;
  }

  *values(): MapIterator<readonly Neighbour[]> {
    for (const stem of this.keys()) yield this.get(stem)!;
  }

  [Symbol.iterator](): MapIterator<[string, readonly Neighbour[]]> {
    return this.entries();
  }
}

/** `parseThesaurus` over several tables (the first table that has a stem wins), one line at a time. */
export class LazyThesaurus implements ReadonlyMap<string, readonly Neighbour[]> {
  /** Stem → table index + 2 × the offset of its line's first neighbour (tables ≤ 2). */
  private readonly lines = new Map<string, number>();
  private readonly parsed = new Map<string, readonly Neighbour[]>();

  constructor(private readonly tables: readonly { readonly table: string; readonly scale: number }[]) {
    tables.forEach(({ table }, t) => {
      for (let start = 0; start < table.length; ) {
        let end = table.indexOf('\n', start);
        if (end < 0) end = table.length;
        const space = table.indexOf(' ', start);
        // Same rule as parseThesaurus: a line needs a stem and at least one neighbour with its similarity.
        if (space > start && space < end && table.indexOf(' ', space + 1) < end && table.indexOf(' ', space + 1) > 0) {
          const stem = table.slice(start, space);
          if (!this.lines.has(stem)) this.lines.set(stem, t + 2 * (space + 1));
        }
        start = end + 1;
      }
    });
  }

  get size(): number {
    return this.lines.size;
  }

  has(stem: string): boolean {
    return this.lines.has(stem);
  }

  get(stem: string): readonly Neighbour[] | undefined {
    let out = this.parsed.get(stem);
    if (out !== undefined) return out;
    const at = this.lines.get(stem);
    if (at === undefined) return undefined;
    const { table, scale } = this.tables[at % 2]!;
    const from = Math.floor(at / 2);
    let end = table.indexOf('\n', from);
    if (end < 0) end = table.length;
    const parts = table.slice(from, end).split(' ');
    const neighbours: Neighbour[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2)
      neighbours.push({ term: parts[i]!, similarity: (Number(parts[i + 1]) / 100) * scale });
    this.parsed.set(stem, (out = neighbours));
    return out;
  }

  forEach(
    each: (value: readonly Neighbour[], key: string, map: ReadonlyMap<string, readonly Neighbour[]>) => void,
  ): void {
    for (const [key, value] of this.entries()) each(value, key, this);
  }

  *entries(): MapIterator<[string, readonly Neighbour[]]> {
    for (const stem of this.lines.keys()) yield [stem, this.get(stem)!];
  }

  keys(): MapIterator<string> {
    return this.lines.keys();
  }

  *values(): MapIterator<readonly Neighbour[]> {
    for (const stem of this.lines.keys()) yield this.get(stem)!;
  }

  [Symbol.iterator](): MapIterator<[string, readonly Neighbour[]]> {
    return this.entries();
  }
}
