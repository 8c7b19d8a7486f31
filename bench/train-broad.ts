/**
 * The broad training records of the benchmark data (data README §11, `train-broad/`), read as
 * sets: each source one catalog. Only bench code reads them (never tests or src).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { admitTool } from '../src/core/catalog.js';
import type { ToolSpec } from '../src/core/tool.js';
import { DATA_DIR } from './datasets.js';

/** The out-of-domain sources (not bfcl_extra or seal_dev, which are in-domain for BFCL and Seal-Tools). */
export const BROAD_SOURCES = ['toolalpaca', 'apibank', 'nestful', 'restbench', 'apibench', 'ultratool', 'glaive_demo'];
interface TrainRecord {
  qid: string;
  query: string;
  tools: { server: string | null; name: string; description: string; params: string[] }[];
}

/**
 * One source as a set: a catalog of every tool its records name (by server and name) and its
 * requests of at most `maxWords` words, a record's tools its gold (any of them counts).
 */
export function loadBroad(
  source: string,
  maxWords: number,
): {
  file: string;
  sha256: string;
  tools: ToolSpec[];
  queries: { qid: string; query: string; gold: string[][] }[];
} {
  const file = join(DATA_DIR, 'train-broad', `${source}.jsonl`);
  const text = readFileSync(file, 'utf8');
  const records = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as TrainRecord);
  const tools = new Map<string, ToolSpec>();
  const idOf = (t: TrainRecord['tools'][number]) => `${t.server ?? source}/${t.name}`;
  for (const r of records)
    for (const t of r.tools) {
      const id = idOf(t);
      if (tools.has(id)) continue;
      const properties = Object.fromEntries(t.params.map((p) => [p, { type: 'string' }]));
      tools.set(
        id,
        admitTool({
          name: t.name,
          description: t.description,
          inputSchema: { type: 'object', properties },
          origin: { kind: 'mcp', server: (t.server ?? source).replace(/[^A-Za-z0-9_-]/g, '_') || source },
          id,
        } as Parameters<typeof admitTool>[0]),
      );
    }
  const queries = records
    .filter((r) => r.query.split(/\s+/).length <= maxWords && r.tools.length > 0)
    .map((r) => ({ qid: r.qid, query: r.query, gold: [r.tools.map(idOf)] }));
  return { file, sha256: createHash('sha256').update(text).digest('hex'), tools: [...tools.values()], queries };
}
