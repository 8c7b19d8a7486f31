/**
 * The tool-text thesaurus (C6, issue 12): for a stem, its nearest stems in tool texts (PPMI over
 * ±5-word windows of tool names, descriptions and parameter texts; built by
 * `bench/build-thesaurus.ts` from catalogs that are not the evaluated ones). Parsed on first use,
 * so a program that never expands a query never pays for it.
 */
import { THESAURUS_TABLE } from './thesaurus-table.js';

export interface Neighbour {
  readonly term: string;
  /** Cosine similarity of the two words' PPMI vectors, 0–1. */
  readonly similarity: number;
}

/** A stem → neighbours lookup. The default is the shipped table; tests and benches may pass their own. */
export type Thesaurus = ReadonlyMap<string, readonly Neighbour[]>;

let shipped: Thesaurus | undefined;

/** Parse the `stem n1 s1 n2 s2 …` lines (similarity × 100) of a table. */
export function parseThesaurus(table: string): Thesaurus {
  const map = new Map<string, Neighbour[]>();
  for (const line of table.split('\n')) {
    const parts = line.split(' ');
    if (parts.length < 3) continue;
    const neighbours: Neighbour[] = [];
    for (let i = 1; i + 1 < parts.length; i += 2) neighbours.push({ term: parts[i]!, similarity: Number(parts[i + 1]) / 100 });
    map.set(parts[0]!, neighbours);
  }
  return map;
}

/** The shipped thesaurus, parsed once on first call. */
export function shippedThesaurus(): Thesaurus {
  return (shipped ??= parseThesaurus(THESAURUS_TABLE));
}
