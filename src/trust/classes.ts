/**
 * G10 — per-tool policy classes, read from a tool's MCP annotations:
 *
 * - its effect: `read` (readOnlyHint true), `write` (not read-only, destructiveHint false) or
 *   `destructive` (not read-only and not said to be harmless: the spec's default, and ours);
 * - `open-world` unless openWorldHint is false (the spec's default is true: it may reach outside).
 *
 * A server that gives no annotations gets the conservative reading: destructive and open-world.
 * `allow` lists the classes a client may use; a tool passes only when every class it has is listed
 * (`["read"]` lets through read-only tools that say they stay in their own world;
 * `["read", "open-world"]` also read-only tools that reach outside).
 */

export const TOOL_CLASSES = ['read', 'write', 'destructive', 'open-world'] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];

export function isToolClass(value: string): value is ToolClass {
  return (TOOL_CLASSES as readonly string[]).includes(value);
}

/** The classes of a tool, from its `annotations` (anything but an object counts as none). */
export function toolClasses(annotations: unknown): ToolClass[] {
  const hints = annotations !== null && typeof annotations === 'object' ? (annotations as Record<string, unknown>) : {};
  const effect: ToolClass =
    hints['readOnlyHint'] === true ? 'read' : hints['destructiveHint'] === false ? 'write' : 'destructive';
  return hints['openWorldHint'] === false ? [effect] : [effect, 'open-world'];
}

/** The classes `allow` does not list, in the tool's order: empty when the tool may be used. */
export function deniedClasses(classes: readonly ToolClass[], allow: readonly ToolClass[]): ToolClass[] {
  return classes.filter((c) => !allow.includes(c));
}

/**
 * Why a tool may not be used here, in one line, or undefined when it may. `where` names the
 * setting (`toolSearch.allow`, `profiles.support.allow`).
 */
export function policyDenial(annotations: unknown, allow: readonly ToolClass[] | undefined, where: string) {
  if (allow === undefined) return undefined;
  const classes = toolClasses(annotations);
  const denied = deniedClasses(classes, allow);
  if (denied.length === 0) return undefined;
  return `it is ${classes.join(' and ')}${annotations === undefined ? ' (its server gives no annotations, so the cautious reading applies)' : ''}, and ${where} allows only ${allow.join(', ')}`;
}
