/**
 * The tool-text thesaurus (C6, issue 12): for a stem, its nearest stems in tool texts (PPMI over
 * ±5-word windows of tool names, descriptions and parameter texts; built by
 * `bench/build-thesaurus.ts` from catalogs that are not the evaluated ones), and for everyday
 * words tool texts rarely use (rain, yen, folder) GloVe neighbours among tool words
 * (`bench/build-glove-neighbours.ts`) at a lower weight. Parsed on first use (~1.5 MB of text,
 * tens of ms once), so a program that never expands a query never pays for it.
 */
import { GLOVE_TABLE } from './tables/glove-table.js';
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

/** The shipped thesaurus (tool-text table, GloVe for the words it lacks), parsed once on first call. */
export function shippedThesaurus(): Thesaurus {
  return (shipped ??= parseThesaurus(GLOVE_TABLE, GLOVE_SCALE, parseThesaurus(THESAURUS_TABLE)));
}
