/**
 * G7 — what the hub learned about each server, kept in the state directory (`servers.json`) so
 * the next start does not learn it again:
 *
 * - its protocol era: a stdio server probed with `server/discover` costs a second spawn (the SDK
 *   probes on a sibling process), so once known the era is passed to the client as `prior`;
 * - its HTTP transport: a URL that answered Streamable HTTP with a 4xx and then worked over
 *   HTTP+SSE starts with SSE next time.
 *
 * Entries are keyed by server name plus a fingerprint of what identifies the server (command,
 * args, cwd or URL), so editing the entry forgets what was learned about the old one.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { DiscoverResult } from '@modelcontextprotocol/client';
import { readStateFile, writeStateFile } from '../state-dir.js';

export type RememberedEra =
  | { readonly kind: 'legacy' }
  | { readonly kind: 'modern'; readonly discover: DiscoverResult };

export interface ServerMemory {
  era?: RememberedEra;
  transport?: 'http' | 'sse';
}

type MemoryFile = Record<string, ServerMemory>;

export class ServerMemoryStore {
  private readonly path: string;
  /** Writes in this process, one after another (each reads, merges, renames). */
  private writing: Promise<void> = Promise.resolve();

  constructor(stateDir: string) {
    this.path = join(stateDir, 'servers.json');
  }

  async get(key: string): Promise<ServerMemory> {
    const file = await readStateFile<MemoryFile>(this.path);
    return file?.[key] ?? {};
  }

  /** Merge `change` into the entry (an `undefined` value forgets that fact). Never throws. */
  update(key: string, change: Partial<ServerMemory>): Promise<void> {
    this.writing = this.writing.then(async () => {
      try {
        const file = (await readStateFile<MemoryFile>(this.path)) ?? {};
        const next: ServerMemory = { ...file[key], ...change };
        for (const field of Object.keys(next) as (keyof ServerMemory)[])
          if (next[field] === undefined) delete next[field];
        file[key] = next;
        await writeStateFile(this.path, file);
      } catch {
        // A read-only state directory only costs a probe on the next start.
      }
    });
    return this.writing;
  }
}

/** `name#fingerprint`: the identity of a configured server for what is remembered about it. */
export function memoryKey(server: string, identity: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 12);
  return `${server}#${hash}`;
}
