/**
 * G4 — the gateway's own cursors for merged lists (resources, templates, prompts). Upstream
 * cursors never reach clients: every upstream page is read when a list is merged, and clients
 * page the merged snapshot. A cursor binds the list kind, the snapshot generation and an offset;
 * one from another list or an older snapshot is refused (-32602), so a client restarts the walk
 * instead of silently skipping or repeating items.
 */
import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { ExposedList } from '../../mcp/aggregate.js';
import { ProxyError } from '../errors.js';

/** Items per page of a merged list. */
export const LIST_PAGE_SIZE = 100;

interface CursorState {
  k: string;
  g: number;
  o: number;
}

export function pageOf<T>(
  kind: string,
  list: ExposedList<T>,
  cursor: string | undefined,
  pageSize = LIST_PAGE_SIZE,
): { items: T[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decodeCursor(kind, list.generation, cursor);
  const end = offset + pageSize;
  const items = list.items.slice(offset, end);
  return end < list.items.length
    ? { items, nextCursor: encodeCursor({ k: kind, g: list.generation, o: end }) }
    : { items };
}

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodeCursor(kind: string, generation: number, cursor: string): number {
  let state: Partial<CursorState> | undefined;
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorState>;
  } catch {
    state = undefined;
  }
  if (!state || state.k !== kind || typeof state.o !== 'number' || !Number.isInteger(state.o) || state.o < 0) {
    throw new ProxyError(ErrorCode.InvalidParams, `Invalid cursor for ${kind}/list.`);
  }
  if (state.g !== generation)
    throw new ProxyError(
      ErrorCode.InvalidParams,
      `Stale cursor: the ${kind} list changed since this page; list again from the start.`,
    );
  return state.o;
}
