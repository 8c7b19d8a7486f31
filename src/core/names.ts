/**
 * A3 — names. MCP tools are qualified `mcp__<server>__<tool>`; every name sent to a provider fits
 * `[A-Za-z0-9_-]{1,64}`. Names that do not fit get a deterministic, reversible mapping.
 */

export const MCP_PREFIX = 'mcp__';
export const PROVIDER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const PROVIDER_NAME_MAX = 64;

/**
 * `mcp__<server>__<tool>`, the model-facing name of an MCP tool before provider-safety.
 *
 * G5: a server name ending in `_` makes the plain form read as another pair (`a_` + `ping` and
 * `a` + `_ping` both give `mcp__a___ping`, which reads as server `a`). The pair that reads back
 * as itself keeps the plain name; the other gets a hash of the pair appended. Deterministic
 * whatever order the servers connect in, and both tools stay reachable.
 */
export function qualifyMcpName(server: string, tool: string): string {
  const plain = `${MCP_PREFIX}${server}__${tool}`;
  return server.endsWith('_') ? `${plain}_${shortHash(`${server}\u0000${tool}`)}` : plain;
}

/** Why `qualifyMcpName` disambiguated this pair (for the log), or undefined when it did not. */
export function ambiguousQualifiedName(server: string, tool: string): string | undefined {
  if (!server.endsWith('_')) return undefined;
  const plain = `${MCP_PREFIX}${server}__${tool}`;
  const reads = parseMcpName(plain);
  return `"${plain}" would read as server "${reads?.server ?? ''}", tool "${reads?.tool ?? ''}" (a server name ending in "_" is ambiguous), so a hash of the server and tool is appended`;
}

/** The inverse of `qualifyMcpName` for names without `__` inside the server part. */
export function parseMcpName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf('__');
  if (split <= 0) return undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}

export function isProviderSafeName(name: string): boolean {
  return PROVIDER_NAME_PATTERN.test(name);
}

/** FNV-1a, 32 bits, as 7 base-36 characters: short, deterministic, no crypto needed. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(7, '0');
}

/**
 * A provider-safe form of `name`. A name that already fits is returned unchanged (so the common
 * case stays readable). Otherwise every other character becomes `_`, and a hash of the original
 * name is appended, which keeps `a.b` and `a_b` apart and lets long names be cut to 64.
 */
export function toProviderSafeName(name: string): string {
  if (isProviderSafeName(name)) return name;
  const suffix = `_${shortHash(name)}`;
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned.slice(0, PROVIDER_NAME_MAX - suffix.length) + suffix;
}

/** A two-way map between model-facing names and provider-safe wire names. */
export class NameMap {
  private readonly toWireMap = new Map<string, string>();
  private readonly fromWireMap = new Map<string, string>();

  /** Register a name; returns its wire form. Throws if two names would share one wire name. */
  add(name: string): string {
    const existing = this.toWireMap.get(name);
    if (existing !== undefined) return existing;
    const wire = toProviderSafeName(name);
    const owner = this.fromWireMap.get(wire);
    if (owner !== undefined && owner !== name) {
      throw new Error(`Tool names "${owner}" and "${name}" map to the same provider name "${wire}".`);
    }
    this.toWireMap.set(name, wire);
    this.fromWireMap.set(wire, name);
    return wire;
  }

  delete(name: string): void {
    const wire = this.toWireMap.get(name);
    if (wire === undefined) return;
    this.toWireMap.delete(name);
    this.fromWireMap.delete(wire);
  }

  toWire(name: string): string {
    return this.toWireMap.get(name) ?? toProviderSafeName(name);
  }

  /** The model-facing name for a wire name; a name never registered is returned as is. */
  fromWire(wire: string): string {
    return this.fromWireMap.get(wire) ?? wire;
  }
}
