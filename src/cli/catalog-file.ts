/**
 * Reading benchmark catalogs and query lists in the shared JSONL format
 * (`{id, server, name, description, inputSchema}` per line; queries `{qid?, query, gold?}`).
 *
 * Every tool of a catalog file is deferred: a tool with a server is an MCP tool of that server
 * (deferred by default), a tool without one is a local tool with `defer: true`. The outside `id`
 * is kept on the spec so `catalog.getById(id)` maps results back to benchmark labels.
 */
import { readFileSync } from 'node:fs';
import { Catalog, modelFacingName } from '../core/catalog.js';
import { ToolsearchError } from '../core/errors.js';
import type { JsonSchema, ToolInput, ToolOrigin } from '../core/tool.js';
import { plural } from '../core/plural.js';

/** A catalog or queries file that cannot be read as the JSONL format. Names file and line. */
export class CatalogFileError extends ToolsearchError {
  override name = 'CatalogFileError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    reason: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${reason}`);
  }
}

export interface CatalogFileEntry {
  id: string;
  server: string | null;
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Optional, on any line of the server: what the server says about itself (MCP `instructions`). */
  serverDescription?: string;
  /** Optional: the server's human-readable title. */
  serverTitle?: string;
}

export interface QueryEntry {
  qid?: string;
  query: string;
  /** Label groups (benchmark files only): each group lists the ids acceptable for one tool. */
  gold?: string[][];
}

export interface LoadCatalogOptions {
  /** Where the duplicate-name report goes; stderr by default, `null` to stay silent. */
  warn?: ((message: string) => void) | null;
}

/** One parsed JSON object per non-blank line, with file and line in every error. */
export function readJsonLines(file: string): { line: number; value: Record<string, unknown> }[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogFileError(file, undefined, `cannot read file (${(error as Error).message})`);
  }
  const rows: { line: number; value: Record<string, unknown> }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new CatalogFileError(file, i + 1, `not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new CatalogFileError(file, i + 1, 'each line must be a JSON object');
    }
    rows.push({ line: i + 1, value: value as Record<string, unknown> });
  }
  return rows;
}

function parseCatalogEntry(file: string, line: number, value: Record<string, unknown>): CatalogFileEntry {
  const fail = (reason: string): never => {
    throw new CatalogFileError(file, line, reason);
  };
  const { name, server, description, inputSchema } = value;
  if (typeof name !== 'string' || name === '') fail('"name" must be a non-empty string');
  if (server !== null && server !== undefined && (typeof server !== 'string' || server === '')) {
    fail('"server" must be a non-empty string or null');
  }
  if (description !== undefined && description !== null && typeof description !== 'string') {
    fail('"description" must be a string');
  }
  const schema = inputSchema ?? { type: 'object', properties: {} };
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) fail('"inputSchema" must be an object');
  const id = value.id;
  if (id !== undefined && typeof id !== 'string') fail('"id" must be a string');
  const { serverDescription, serverTitle } = value;
  if (serverDescription !== undefined && typeof serverDescription !== 'string')
    fail('"serverDescription" must be a string');
  if (serverTitle !== undefined && typeof serverTitle !== 'string') fail('"serverTitle" must be a string');
  return {
    ...(typeof serverDescription === 'string' && { serverDescription }),
    ...(typeof serverTitle === 'string' && { serverTitle }),
    id: (id as string | undefined) ?? (server ? `${server as string}/${name as string}` : (name as string)),
    server: (server as string | null | undefined) ?? null,
    name: name as string,
    description: (description as string | null | undefined) ?? '',
    inputSchema: schema as JsonSchema,
  };
}

/**
 * A name not yet taken: `name`, else `name_<n>` with n from the id's `#n` suffix when there is
 * one (so `foo#2` becomes `foo_2`), counting up from there until free. Deterministic: it depends
 * only on file order.
 */
function disambiguate(name: string, id: string, taken: (candidate: string) => boolean): string {
  const suffix = /#(\d+)$/.exec(id);
  let n = suffix ? Number(suffix[1]) : 2;
  while (taken(`${name}_${n}`)) n++;
  return `${name}_${n}`;
}

function toToolInput(entry: CatalogFileEntry, name: string): ToolInput {
  const origin: ToolOrigin = entry.server === null ? { kind: 'local' } : { kind: 'mcp', server: entry.server };
  return {
    name,
    description: entry.description,
    inputSchema: entry.inputSchema,
    origin,
    id: entry.id,
    ...(name !== entry.name && { originalName: entry.name }),
    ...(entry.server === null && { defer: true }),
  };
}

/**
 * Read a JSONL catalog into a Catalog whose tools are all deferred. Duplicate (server, name)
 * pairs are kept under a suffixed name (`_2`, …) and counted on stderr: never dropped, never fatal.
 */
export function loadCatalogFile(file: string, options: LoadCatalogOptions = {}): Catalog {
  const entries = readJsonLines(file).map(({ line, value }) => parseCatalogEntry(file, line, value));
  const usedNames = new Set<string>();
  const usedIds = new Set<string>();
  const inputs: ToolInput[] = [];
  let renamed = 0;
  for (const entry of entries) {
    if (usedIds.has(entry.id)) throw new CatalogFileError(file, undefined, `duplicate id "${entry.id}"`);
    usedIds.add(entry.id);
    const origin: ToolOrigin = entry.server === null ? { kind: 'local' } : { kind: 'mcp', server: entry.server };
    const facing = (name: string) => modelFacingName({ name, origin });
    let name = entry.name;
    if (usedNames.has(facing(name))) {
      name = disambiguate(entry.name, entry.id, (candidate) => usedNames.has(facing(candidate)));
      renamed++;
    }
    usedNames.add(facing(name));
    inputs.push(toToolInput(entry, name));
  }
  // The constructor admits each input once; `add()` would admit twice, and a suffixed name whose
  // originalName is the server's own name would then be qualified a second time.
  let catalog: Catalog;
  try {
    catalog = new Catalog(inputs);
  } catch (error) {
    throw new CatalogFileError(file, undefined, (error as Error).message);
  }
  recordServerInfo(catalog, entries);
  const warn = options.warn === undefined ? (m: string) => process.stderr.write(`${m}\n`) : options.warn;
  if (renamed > 0 && warn)
    warn(`${file}: ${plural(renamed, 'duplicate tool name')} kept under a suffixed name (_2, _3, …)`);
  return catalog;
}

/** The first `serverTitle` / `serverDescription` given for each server (C12 server evidence). */
function recordServerInfo(catalog: Catalog, entries: readonly CatalogFileEntry[]): void {
  const info = new Map<string, { title?: string; description?: string }>();
  for (const entry of entries) {
    if (entry.server === null || (entry.serverTitle === undefined && entry.serverDescription === undefined)) continue;
    const current = info.get(entry.server) ?? {};
    info.set(entry.server, {
      title: current.title ?? entry.serverTitle,
      description: current.description ?? entry.serverDescription,
    });
  }
  for (const [server, { title, description }] of info) {
    catalog.setServerInfo(server, {
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
    });
  }
}

/** Read a queries file: `{qid?, query, gold?}` per line. */
export function loadQueriesFile(file: string): QueryEntry[] {
  return readJsonLines(file).map(({ line, value }) => {
    const { qid, query, gold } = value;
    if (typeof query !== 'string') throw new CatalogFileError(file, line, '"query" must be a string');
    if (qid !== undefined && typeof qid !== 'string' && typeof qid !== 'number') {
      throw new CatalogFileError(file, line, '"qid" must be a string');
    }
    const entry: QueryEntry = { query };
    if (qid !== undefined) entry.qid = String(qid);
    if (Array.isArray(gold)) entry.gold = gold.map((g) => (Array.isArray(g) ? g.map(String) : [String(g)]));
    return entry;
  });
}
