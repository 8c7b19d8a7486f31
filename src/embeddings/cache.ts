/**
 * C10 — tool vectors cached on disk, keyed by model + the hash of the exact text embedded, so a
 * restart re-embeds nothing and a changed tool re-embeds only itself. One append-only JSONL file
 * per (endpoint, model, dimensions): `{"h": sha256(text), "v": base64(float32[])}` per line. A
 * line that does not parse (a crash mid-write) is skipped, never fatal.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `$XDG_CACHE_HOME/toolsearch/embeddings`, else `~/.cache/toolsearch/embeddings`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const base = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(base, 'toolsearch', 'embeddings');
}

function encode(vector: readonly number[]): string {
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64');
}

function decode(text: string): number[] | undefined {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const out = Array.from(floats);
  return out.every(Number.isFinite) ? out : undefined;
}

export class VectorCache {
  readonly file: string | undefined;
  private entries: Map<string, number[]> | undefined;
  private writeFailed = false;

  /** `dir` undefined: memory only. */
  constructor(
    dir: string | undefined,
    key: { endpoint: string; model: string; dimensions?: number },
    private readonly onError: (message: string) => void = () => {},
  ) {
    if (dir === undefined) return;
    const id = textHash(`${key.endpoint}\n${key.model}\n${key.dimensions ?? ''}`).slice(0, 16);
    const safeModel = key.model.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
    this.file = join(dir, `${safeModel}-${id}.jsonl`);
  }

  get(hash: string): number[] | undefined {
    return this.load().get(hash);
  }

  get size(): number {
    return this.load().size;
  }

  /** Remember vectors (memory at once, disk by one append); a disk failure is reported once, not thrown. */
  putMany(entries: readonly (readonly [string, number[]])[]): void {
    const map = this.load();
    const lines: string[] = [];
    for (const [hash, vector] of entries) {
      if (map.has(hash)) continue;
      map.set(hash, vector);
      lines.push(JSON.stringify({ h: hash, v: encode(vector) }));
    }
    if (!this.file || lines.length === 0 || this.writeFailed) return;
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      appendFileSync(this.file, `${lines.join('\n')}\n`);
    } catch (error) {
      this.writeFailed = true;
      this.onError(
        `cannot write the embedding cache ${this.file} (${(error as Error).message}); vectors are kept in memory only`,
      );
    }
  }

  private load(): Map<string, number[]> {
    if (this.entries) return this.entries;
    this.entries = new Map();
    if (!this.file) return this.entries;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return this.entries; // no cache yet
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const row = JSON.parse(line) as { h?: unknown; v?: unknown };
        const vector = typeof row.v === 'string' ? decode(row.v) : undefined;
        if (typeof row.h === 'string' && vector) this.entries.set(row.h, vector);
      } catch {
        // a torn line from a crash mid-write: skip it
      }
    }
    return this.entries;
  }
}
