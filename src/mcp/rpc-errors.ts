/** How an upstream's JSON-RPC errors are passed on (code kept, message said once). */

/** The JSON-RPC code of an SDK error (McpError), if any. */
export function errorCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

/** The SDK prefixes "MCP error N: " once per hop; the code travels separately, so say it once. */
export function withoutRpcPrefix(message: string): string {
  return message.replace(/^(MCP error -?\d+: )+/, '');
}
