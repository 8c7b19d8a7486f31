/**
 * Typed errors. Each has a stable `name` a caller can switch on, and a message that says
 * what to do next.
 */
export class ToolsearchError extends Error {
  override name: string = 'ToolsearchError';
}

/** A1: a tool spec that cannot be used (bad name, schema that is not an object schema, …). */
export class InvalidToolError extends ToolsearchError {
  override name = 'InvalidToolError';
  constructor(
    readonly toolName: string,
    reason: string,
  ) {
    super(`Tool "${toolName}" is invalid: ${reason}`);
  }
}

/** A3: two tools would share one name. Never a silent overwrite. */
export class DuplicateToolError extends ToolsearchError {
  override name = 'DuplicateToolError';
  constructor(
    readonly toolName: string,
    readonly existingOrigin: string,
    readonly incomingOrigin: string,
  ) {
    super(
      `Duplicate tool name "${toolName}": already registered from ${existingOrigin}, ` +
        `again from ${incomingOrigin}. Rename one of them or give the servers distinct names.`,
    );
  }
}

/** A bad `ENABLE_TOOL_SEARCH` value or mode option. */
export class InvalidModeError extends ToolsearchError {
  override name = 'InvalidModeError';
  constructor(readonly value: string) {
    super(
      `Invalid tool search mode "${value}". Use "always" (or true), "auto", "auto:N" with 0 <= N <= 100, or "never" (or false).`,
    );
  }
}

/** A reference to a tool the catalog does not hold. */
export class UnknownToolError extends ToolsearchError {
  override name = 'UnknownToolError';
  constructor(readonly toolName: string) {
    super(`Unknown tool "${toolName}". Search for it with the tool search tool to see what is available.`);
  }
}
