/** C6 — the default ranker's tokenizer: index terms per field, cached per word (stems, stop words, synonyms). */
import type { ToolSpec } from '../../core/tool.js';
import { identifierParts, parameterValues, schemaParameters, sourceName, words } from '../text.js';
import { productWords } from '../products.js';
import { STOP_WORDS, stem } from '../vocabulary.js';
import type { FieldName } from './options.js';

/** Index terms of free text: lowercase words, stop words dropped, stemmed. */
export function indexTerms(tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of tokens) if (!STOP_WORDS.has(token)) out.push(stem(token));
  return out;
}

/** Term ids per field of one tool. */
export type Fields = Record<FieldName, number[]>;

/**
 * Turns texts into term ids, caching by text: forked servers repeat descriptions and every tool
 * of a server repeats its name, so most texts are seen more than once in a big catalog. Each raw
 * word is resolved once per index (stop word → none, else stem → term id): one map lookup per
 * token on the hot path instead of a stop-word test, a stem lookup and an intern lookup.
 */
export class Tokenizer {
  readonly ids = new Map<string, number>();
  /** Raw word → term id (-1 for a stop word): every word the catalog uses. */
  readonly wordIds = new Map<string, number>();
  private readonly cache = new Map<string, number[]>();

  constructor(private readonly maxChars: number) {}

  private termIds(tokens: readonly string[]): number[] {
    const out: number[] = [];
    for (const token of tokens) {
      let id = this.wordIds.get(token);
      if (id === undefined) {
        if (STOP_WORDS.has(token)) id = -1;
        else {
          const term = stem(token);
          id = this.ids.get(term);
          if (id === undefined) this.ids.set(term, (id = this.ids.size));
        }
        this.wordIds.set(token, id);
      }
      if (id >= 0) out.push(id);
    }
    return out;
  }

  text(raw: string): number[] {
    if (raw === '') return [];
    // G5: a third-party text field is indexed up to a bound (its first words carry its meaning).
    const text = raw.length > this.maxChars ? raw.slice(0, this.maxChars) : raw;
    let out = this.cache.get(text);
    if (!out) this.cache.set(text, (out = this.termIds(words(text))));
    return out;
  }

  identifier(name: string): number[] {
    const key = `\u0000${name}`;
    let out = this.cache.get(key);
    if (!out) this.cache.set(key, (out = this.termIds(identifierParts(name))));
    return out;
  }

  /** C14: the words for what the server's product is (a database, a browser …), cached per server. */
  product(server: string): number[] {
    const key = `\u0001${server}`;
    let out = this.cache.get(key);
    if (!out) this.cache.set(key, (out = this.termIds(productWords(server))));
    return out;
  }

  fields(tool: ToolSpec): Fields {
    const parameters = schemaParameters(tool);
    const mcp = tool.origin.kind === 'mcp';
    return {
      name: this.identifier(sourceName(tool)),
      server: mcp ? this.identifier(tool.origin.server) : [],
      product: mcp ? this.product(tool.origin.server) : [],
      hint: this.text(tool.searchHint ?? ''),
      description: this.text(tool.description),
      // C14: the values a parameter accepts are words for what the tool does (state: open | closed).
      params: concatIds([
        ...parameters.map((p) => this.identifier(p.name)),
        ...parameterValues(tool).map((v) => this.identifier(v)),
      ]),
      paramDescriptions: concatIds(parameters.map((p) => this.text(p.description))),
    };
  }
}

/** Concatenate cached id arrays; the common one-or-none case reuses the cached array itself. */
export function concatIds(parts: number[][]): number[] {
  if (parts.length === 0) return [];
  if (parts.length === 1) return parts[0]!;
  return ([] as number[]).concat(...parts);
}

/**
 * The stems of each field of one tool, for explain: read from `Tokenizer.fields` itself (a
 * tokenizer of this one tool, so inverting its term map is cheap), so explain and the index can
 * never disagree about what a field holds, its length bound included.
 */
export function fieldTerms(tool: ToolSpec, maxChars: number): Record<FieldName, Set<string>> {
  const tokenizer = new Tokenizer(maxChars);
  const fields = tokenizer.fields(tool);
  const termOf: string[] = [];
  for (const [term, id] of tokenizer.ids) termOf[id] = term;
  const terms = (ids: readonly number[]) => new Set(ids.map((id) => termOf[id]!));
  return {
    name: terms(fields.name),
    server: terms(fields.server),
    product: terms(fields.product),
    hint: terms(fields.hint),
    description: terms(fields.description),
    params: terms(fields.params),
    paramDescriptions: terms(fields.paramDescriptions),
  };
}
