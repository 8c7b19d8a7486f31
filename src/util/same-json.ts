/**
 * Whether two values parsed from JSON are equal: the same primitives, arrays of equal items in
 * order, objects with the same keys (in any order) and equal values. Allocation-free, unlike
 * `util.isDeepStrictEqual` (which builds key arrays at every level): a server's listing of 20,000
 * tools is compared with its previous one on every re-list. Values JSON cannot hold (functions,
 * class instances, `undefined` members) are compared as `===` or by their own keys only.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameItems(a, b);
  if (Array.isArray(b)) return false;
  return sameMembers(a as Record<string, unknown>, b as Record<string, unknown>);
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
  return true;
}

function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false;
    count++;
  }
  for (const key in b) if (Object.hasOwn(b, key)) count--;
  return count === 0;
}
