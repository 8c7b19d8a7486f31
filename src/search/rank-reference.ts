/**
 * C5 — the reference scorer: Claude Code's keyword scoring, kept as a named ranker so the default
 * ranker can be measured against it.
 *
 * Per query term: an exact name part scores 12 (MCP) / 10 (built-in); else a part containing the
 * term 6 / 5; else, only while the tool's score is still 0, the full name containing it 3. Then,
 * independently, a word-boundary match in the search hint adds 4 and in the description 2.
 * The word-boundary patterns are compiled once per search and shared by all tools.
 */
import type { ToolSpec } from '../core/tool.js';
import type { ParsedQuery } from './query.js';
import { topK, type Ranker, type RankerIndex, type RankedTool } from './ranker.js';
import { toolNameParts, wordBoundaryPattern } from './text.js';

export const REFERENCE_WEIGHTS = {
  exactPart: { mcp: 12, builtIn: 10 },
  partialPart: { mcp: 6, builtIn: 5 },
  fullName: 3,
  searchHint: 4,
  description: 2,
} as const;

interface ReferenceEntry {
  name: string;
  lowerName: string;
  parts: string[];
  isMcp: boolean;
  hint: string;
  description: string;
  /** Lowercased maximal `\w+` runs of hint and description: see `boundaryMatch`. */
  hintWords: Set<string>;
  descriptionWords: Set<string>;
}

const WORD_TERM = /^\w+$/;

function wordRuns(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/\w+/g) ?? []);
}

/**
 * `\bterm\b` without running the regex: for a term made only of word characters, it matches
 * exactly when the term is one of the text's maximal `\w+` runs. Other terms use the pattern.
 */
function boundaryMatch(term: string, pattern: RegExp, text: string, runs: Set<string>): boolean {
  if (text === '') return false;
  return WORD_TERM.test(term) ? runs.has(term) : pattern.test(text);
}

function entryOf(tool: ToolSpec): ReferenceEntry {
  return {
    name: tool.name,
    lowerName: tool.name.toLowerCase(),
    parts: toolNameParts(tool),
    isMcp: tool.origin.kind === 'mcp',
    hint: tool.searchHint ?? '',
    description: tool.description,
    hintWords: wordRuns(tool.searchHint ?? ''),
    descriptionWords: wordRuns(tool.description),
  };
}

/** The score of one tool for the given terms, with their word-boundary patterns precompiled. */
export function referenceScore(entry: ReferenceEntry, terms: readonly string[], patterns: readonly RegExp[]): number {
  let score = 0;
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!;
    const pattern = patterns[i]!;
    if (entry.parts.includes(term)) {
      score += entry.isMcp ? REFERENCE_WEIGHTS.exactPart.mcp : REFERENCE_WEIGHTS.exactPart.builtIn;
    } else if (entry.parts.some((part) => part.includes(term))) {
      score += entry.isMcp ? REFERENCE_WEIGHTS.partialPart.mcp : REFERENCE_WEIGHTS.partialPart.builtIn;
    } else if (score === 0 && entry.lowerName.includes(term)) {
      score += REFERENCE_WEIGHTS.fullName;
    }
    if (boundaryMatch(term, pattern, entry.hint, entry.hintWords)) score += REFERENCE_WEIGHTS.searchHint;
    if (boundaryMatch(term, pattern, entry.description, entry.descriptionWords)) score += REFERENCE_WEIGHTS.description;
  }
  return score;
}

class ReferenceIndex implements RankerIndex {
  private readonly names: string[];
  constructor(private readonly entries: ReferenceEntry[]) {
    this.names = entries.map((e) => e.name);
  }

  search(query: ParsedQuery, limit: number, accept?: (name: string) => boolean): RankedTool[] {
    const patterns = query.terms.map(wordBoundaryPattern);
    const scores = this.entries.map((entry) => referenceScore(entry, query.terms, patterns));
    return topK(scores, this.names, limit, accept);
  }
}

export const referenceRanker: Ranker = {
  name: 'reference',
  build: (tools) => new ReferenceIndex(tools.map(entryOf)),
};
