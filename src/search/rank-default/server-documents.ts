/**
 * C6/C12 — the default ranker's server-level documents: one per server, so query words that describe
 * a server (its name, its tools' names and descriptions, what it says about itself) lift its tools
 * and name it when a search comes back weak.
 */
import type { RankerContext } from '../ranker.js';
import type { Fields, Tokenizer } from './tokenizer.js';

/** Longest server description indexed: an `instructions` text can be long, and it is third-party text. */
export const MAX_SERVER_TEXT = 2_000;

/**
 * One document per server: its name, every tool's name and description, and what the server says
 * about itself (title → hint field, instructions → description field, cut to MAX_SERVER_TEXT).
 */
export function serverDocuments(
  serverNames: readonly string[],
  docs: readonly Fields[],
  serverOf: Int32Array,
  tokenizer: Tokenizer,
  context: RankerContext,
): Fields[] {
  const serverDocs: Fields[] = serverNames.map(() => ({
    name: [],
    server: [],
    product: [],
    hint: [],
    description: [],
    params: [],
    paramDescriptions: [],
  }));
  docs.forEach((d, i) => {
    const s = serverOf[i]!;
    if (s < 0) return;
    const doc = serverDocs[s]!;
    if (doc.server.length === 0) for (const t of d.server) doc.server.push(t);
    if (doc.product.length === 0) for (const t of d.product) doc.product.push(t);
    for (const t of d.name) doc.name.push(t);
    // A loop, not push(...spread): a server with huge descriptions would overflow the call stack.
    for (const t of d.description) doc.description.push(t);
  });
  if (context.servers) {
    serverNames.forEach((server, s) => {
      const info = context.servers!.get(server);
      if (!info) return;
      const doc = serverDocs[s]!;
      if (info.title) for (const t of tokenizer.text(info.title.slice(0, MAX_SERVER_TEXT))) doc.hint.push(t);
      if (info.description)
        for (const t of tokenizer.text(info.description.slice(0, MAX_SERVER_TEXT))) doc.description.push(t);
    });
  }
  return serverDocs;
}

/**
 * C15: what each server says about itself alone (title → hint, instructions → description, cut to
 * MAX_SERVER_TEXT), one document per server, or undefined when no server says anything. Its match
 * reaches every tool of the server, even one whose own words match nothing: a catch-all tool ("ask
 * anything", one line of description) is found through its server's instructions.
 */
export function serverOwnDocuments(
  serverNames: readonly string[],
  tokenizer: Tokenizer,
  context: RankerContext,
): Fields[] | undefined {
  if (!context.servers) return undefined;
  let any = false;
  const docs = serverNames.map((server): Fields => {
    const info = context.servers!.get(server);
    const hint = info?.title ? tokenizer.text(info.title.slice(0, MAX_SERVER_TEXT)) : [];
    const description = info?.description ? tokenizer.text(info.description.slice(0, MAX_SERVER_TEXT)) : [];
    if (hint.length > 0 || description.length > 0) any = true;
    return { name: [], server: [], product: [], hint, description, params: [], paramDescriptions: [] };
  });
  return any ? docs : undefined;
}
