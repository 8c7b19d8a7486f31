/**
 * G5 — config entries refused before validation, with messages that never echo the value:
 * - a server named `__proto__`, `constructor` or `prototype` (an object key that plain records
 *   drop or mistake for their prototype: the server vanished without a word);
 * - a NUL byte in any string of a server entry (no command, argument, variable or header holds
 *   one; echoing it would carry the value, perhaps a secret, into logs and the status page).
 */
import { isRecord } from '../util/records.js';

const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export interface ConfigProblem {
  /** Dotted key, e.g. `mcpServers.github.env.TOKEN`. */
  readonly key: string;
  readonly reason: string;
}

/** The first problem in the raw (parsed JSON) config, if any. */
export function rawConfigProblem(value: unknown): ConfigProblem | undefined {
  if (!isRecord(value)) return undefined;
  for (const section of ['mcpServers', 'servers'] as const) {
    const entries = value[section];
    if (!isRecord(entries)) continue;
    for (const name of Object.keys(entries)) {
      if (RESERVED_NAMES.has(name))
        return { key: `${section}.${name}`, reason: `"${name}" is a reserved name; choose another server name` };
      const nul = nulPath(entries[name], `${section}.${name}`, 0);
      if (nul) return { key: nul, reason: 'contains a NUL byte (value not shown)' };
    }
  }
  return undefined;
}

function nulPath(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 16 || typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}.<key with a NUL byte>`;
    const found = nulPath(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}
