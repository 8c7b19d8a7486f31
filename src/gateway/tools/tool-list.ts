/**
 * E5 — the gateway's tool-list mode when the config does not choose one: `fixed`.
 *
 * Every provider renders the tool list first in the cached prompt, so any change to it makes the
 * client write its whole system prompt and history again at the cache-write price. The gateway
 * cannot see how large the client's system prompt and history are (real clients carry thousands
 * of tokens of system prompt), so it can never know when a growing list is cheap; the fixed list
 * measured cheapest on every catalog (bench/results/session.md). The library adapters keep
 * `growing`: there the application sees its own prompt and chooses.
 *
 * A fixed list runs found tools through `call_tool` (all but those with an app view, which join the
 * list: core/session-policy.ts); a gateway embedded with call-through off
 * (its clients refresh their lists and call tools by name) therefore defaults to `growing`.
 */
import type { ToolListMode } from '../../core/session-policy.js';
import { FixedListWithoutCallThroughError } from '../errors.js';

export const DEFAULT_GATEWAY_TOOL_LIST: ToolListMode = 'fixed';

/** The mode a gateway runs: the chosen one, else fixed (growing when call-through is off). */
export function gatewayToolList(chosen: ToolListMode | undefined, callThrough = true): ToolListMode {
  if (chosen === 'fixed' && !callThrough) throw new FixedListWithoutCallThroughError();
  return chosen ?? (callThrough ? DEFAULT_GATEWAY_TOOL_LIST : 'growing');
}
