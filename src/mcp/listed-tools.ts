/**
 * G5 — the tools of one `tools/list` walk, validated one by one (the SDK's own `listTools` rejects
 * a whole page for one malformed tool): a bad one is reported and left out. One step per tool, so
 * the connection runs it in slices (a listing of 20,000 tools does not stall other sessions).
 *
 * A tool exactly as the previous listing gave it is that listing's tool again (the same object),
 * not validated anew: a server listing the same 20,000 tools again costs one comparison each, and
 * the hub's later steps see at once that nothing changed.
 */
import { ToolSchema } from '@modelcontextprotocol/core';
import { sameJson } from '../util/same-json.js';
import { runInSlices, type Steps } from '../util/slices.js';
import type { UpstreamTool } from './connection.js';
import { describeIssue, toolNameOf } from './sdk-wire.js';

/** One connection's listings: each validated against the one before. */
export class ListedTools {
  private last = new Map<string, UpstreamTool>();

  /** The valid tools of `items`, in slices of `sliceMs`. */
  async validate(
    items: readonly unknown[],
    onInvalid: (name: string, why: string) => void,
    sliceMs: number,
  ): Promise<UpstreamTool[]> {
    const tools = await runInSlices(validTools(items, this.last, onInvalid), sliceMs);
    this.last = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }
}

export function* validTools(
  items: readonly unknown[],
  previous: ReadonlyMap<string, UpstreamTool>,
  onInvalid: (name: string, why: string) => void,
): Steps<UpstreamTool[]> {
  const tools: UpstreamTool[] = [];
  for (const raw of items) {
    yield;
    const name = (raw as { name?: unknown } | null)?.name;
    const before = typeof name === 'string' ? previous.get(name) : undefined;
    if (before && sameJson(before, raw)) {
      tools.push(before);
      continue;
    }
    const tool = ToolSchema.safeParse(raw);
    if (tool.success) tools.push(tool.data as UpstreamTool);
    else onInvalid(toolNameOf(raw), describeIssue(tool.error));
  }
  return tools;
}
