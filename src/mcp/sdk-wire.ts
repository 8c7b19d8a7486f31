/**
 * The MCP SDK client's wire details the connection needs: request options (timeouts that progress
 * restarts, bounded by callTotalTimeoutMs), a tools page parsed leniently so one bad tool cannot
 * sink the page, and what identifies a server for what is remembered about it.
 */
import type { RequestOptions } from '@modelcontextprotocol/client';
import { PaginatedResultSchema } from '@modelcontextprotocol/core';
import { z } from 'zod';
import { isStdioServer, type ServerConfig } from './config.js';
import type { ForwardOptions } from './connection.js';

export function requestOptions(options: ForwardOptions, maxTotalMs: number): RequestOptions {
  return {
    timeout: options.timeoutMs,
    ...(options.signal !== undefined && { signal: options.signal }),
    // A long call that reports progress is alive: each tick restarts its timeout.
    // G5: … but not forever: a server whose progress never stops is cut at callTotalTimeoutMs.
    ...(options.onprogress !== undefined && {
      onprogress: options.onprogress,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: maxTotalMs,
    }),
  };
}

/**
 * `tools/list` with each tool left unchecked, so one bad tool cannot sink the page; `ttlMs` kept
 * unchecked too (G12: list-ttl.ts bounds it).
 */
export const LenientToolsPageSchema = PaginatedResultSchema.extend({
  tools: z.array(z.unknown()),
  ttlMs: z.unknown().optional(),
});

export function toolNameOf(raw: unknown): string {
  const name = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : JSON.stringify(name ?? null);
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'not a valid MCP tool';
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `not a valid MCP tool (${where}${issue.message})`;
}

/** What identifies a server for what is remembered about it (not timeouts or tool rules). */
export function identityOf(config: ServerConfig): unknown {
  if (isStdioServer(config)) return { command: config.command, args: config.args ?? [], cwd: config.cwd ?? '' };
  return { url: config.url, type: config.type ?? '' };
}
