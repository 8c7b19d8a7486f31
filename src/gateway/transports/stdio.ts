/**
 * G3 over stdio: one session for the process. Stdout carries JSON-RPC only; logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { ToolsearchGateway } from '../gateway.js';

export const STDIO_SESSION_ID = 'stdio';

/** Serve on this process's stdin/stdout; resolves when the client disconnects. */
export async function serveStdio(gateway: ToolsearchGateway): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  // One user: what no request can be named for goes to it, and its roots pass through (README).
  gateway.proxy.singleUser = true;
  await gateway.connect(transport, STDIO_SESSION_ID);
  process.stdin.once('end', () => void transport.close());
  await closed;
}
