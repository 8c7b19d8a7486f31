/** C6 — the default ranker's knobs: field weights, BM25 parameters, expansion and compound settings (one configuration for every dataset). */
import { DEFAULT_LIMITS } from '../../core/limits.js';
import type { Thesaurus } from '../thesaurus.js';

export interface DefaultRankerOptions {
  k1: number;
  b: number;
  /** BM25F field weights. */
  fields: {
    name: number;
    server: number;
    /** C14: words for what the server's product is (src/search/products.ts). */
    product: number;
    hint: number;
    description: number;
    params: number;
    paramDescriptions: number;
  };
  /** Weight of a synonym of a query term, relative to the term itself. */
  synonymWeight: number;
  /** C14: weight of a synonym of a query word that no tool of the catalog contains (it stands in for the word). */
  absentSynonymWeight: number;
  /**
   * C14: a plain request is at most this many words (longer texts are tasks). In a plain request
   * a synonym of a query word covers a name part at `nameSynonymCover` in the name match.
   */
  plainRequestWords: number;
  /** C14: how much a synonym of a plain request's word covers a name part ("folder" → directory); 0 turns it off. */
  nameSynonymCover: number;
  /** C14: weight of what a request implies without saying it: a plain question's list ("which bugs are open"), a #name's channel; 0 turns it off. */
  impliedWeight: number;
  /**
   * C15: a plain question lifts the tools whose name is asking or answering (`perplexity_ask`,
   * `ask_question`: catch-all tools) by this share of the best score, into the top hits without
   * beating a strong match; 0 turns it off.
   */
  questionAnswerWeight: number;
  /** C14: weight of the words a value in the request implies (a file path's "file", a URL's "url"); 0 turns it off. */
  valueShapeWeight: number;
  /** C14: weight of a word found only inside a value of the request (a quoted phrase, a web address, an SQL statement); 1 turns it off. */
  valueWordWeight: number;
  /** C14: a request of more words than this is a task, whose values are mostly outputs: it takes no value-shape words. */
  valueShapeWords: number;
  /**
   * C14: a request phrased as a question multiplies the score of tools whose name is a change
   * (create, push, reply …) by this; 1 turns it off.
   */
  questionChangeFactor: number;
  /**
   * C15: a tool whose name's action disagrees with the request's ("update_issue" for "open a github
   * issue") has its score multiplied by this; 1 turns it off.
   */
  actionDisagreeFactor: number;
  /**
   * C15: a tool whose name deletes or stops something, for a request that asks for neither, has its
   * score multiplied by this (a destructive tool is never first unasked); 1 turns it off.
   */
  unaskedDestructiveFactor: number;
  /**
   * C15: in a plain request, a word that is a verb of tool names but not the request's action ("open"
   * in "how many open issues") names no part of a tool's name; false turns it off.
   */
  incidentalVerbsNameNothing: boolean;
  /** C15: the weight of such a word in the request (it describes the object); 1 turns it off. */
  incidentalVerbWeight: number;
  /** C14: a request that names a server (a distinctive word of its name) lifts that server's tools by this share of the best score; 0 turns it off. */
  serverMentionWeight: number;
  /** Weight of the server-level score added to each tool of that server. */
  serverWeight: number;
  /**
   * C15: weight of the match of what a server says about itself (its title and instructions)
   * added to every tool of that server, even one whose own words match nothing; 0 turns it off.
   */
  serverTextWeight: number;
  /**
   * C14: weight of a literal name match. A tool gets `nameWeight × best score × share²`, where
   * share is the part of its own name (server prefix dropped) the query's words cover times the
   * part of the query's words its name holds; 0 turns the rule off.
   */
  nameWeight: number;
  /** Weight of the best per-clause score (multi-step tasks: each clause often names one tool). */
  clauseWeight: number;
  /**
   * Rare-word expansion: a query word found in at most `maxDf` tools of this catalog adds its
   * `neighbours` nearest thesaurus words that occur in the catalog, at `weight × similarity`. Common words are never expanded
   * (expanding every word is a wash: it drags in neighbours of words the catalog already matches).
   */
  expansion: { weight: number; neighbours: number; maxDf: number; minStemLength: number };
  /**
   * Compound words (issue 12): a long query word absent from the catalog that splits into words
   * the catalog uses ("SevenTraderAPI", "moviesdatabase") adds those words at `split`; two
   * adjacent query words whose joined form the catalog uses ("zip code" → zipcode) add it at `join`.
   */
  compounds: { split: number; join: number };
  /** The neighbour source; the shipped tool-text thesaurus when absent. */
  thesaurus?: Thesaurus;
  /** G5: characters of one text field indexed (limit `indexedCharsPerField`). */
  maxFieldChars: number;
}

export const DEFAULT_RANKER_OPTIONS: DefaultRankerOptions = {
  k1: 1.2,
  b: 0.75,
  fields: { name: 3, server: 1, product: 0.5, hint: 2, description: 1, params: 0.5, paramDescriptions: 0.3 },
  synonymWeight: 0.3,
  absentSynonymWeight: 0.6,
  serverWeight: 0.3,
  serverTextWeight: 0.5,
  plainRequestWords: 20,
  nameSynonymCover: 0.6,
  impliedWeight: 1,
  questionAnswerWeight: 0.5,
  valueShapeWeight: 0.5,
  valueShapeWords: 16,
  valueWordWeight: 0.3,
  questionChangeFactor: 0.7,
  actionDisagreeFactor: 0.8,
  incidentalVerbsNameNothing: true,
  incidentalVerbWeight: 0.7,
  unaskedDestructiveFactor: 0.6,
  serverMentionWeight: 0.3,
  clauseWeight: 0.4,
  nameWeight: 1,
  expansion: { weight: 1.2, neighbours: 2, maxDf: 3, minStemLength: 3 },
  compounds: { split: 0.7, join: 0.5 },
  maxFieldChars: DEFAULT_LIMITS.indexedCharsPerField,
};

export type FieldName = keyof DefaultRankerOptions['fields'];
export const FIELD_NAMES: readonly FieldName[] = [
  'name',
  'server',
  'product',
  'hint',
  'description',
  'params',
  'paramDescriptions',
];
