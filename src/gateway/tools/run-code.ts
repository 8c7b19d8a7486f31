/**
 * G11 — `run_code`: a session's script searches and calls tools in the sandbox, and only its return
 * value (and capped console output) comes back. Its `search()` and `call()` are the session's own
 * search and call path (tools/calls.ts): the same probes, audit records, traces, learning, routing
 * and trust checks as a direct call, under this session's id; the run's cancellation cancels them,
 * and the client that asked for progress hears of each call as it starts.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Catalog } from '../../core/catalog.js';
import { scriptHits, scriptMaxResults } from '../../core/code-mode-hit.js';
import { ALWAYS_LOAD_META_KEY } from '../../core/tool.js';
import { setMaxListeners } from 'node:events';
import {
  codeArgument,
  CodeSandbox,
  outcomeText,
  RUN_CODE_INPUT_SCHEMA,
  RUN_CODE_TOOL_NAME,
  runCodeDescription,
  type RunCapacity,
  type RunOutcome,
  type SandboxCalls,
  type SandboxLimits,
  splitCodeModeLimits,
} from '../../sandbox/index.js';
import { sessionChannel, type ClientChannel } from '../proxy/channel.js';
import type { SessionExtra } from '../proxy/server-requests.js';
import type { ToolCalls } from './calls.js';
import { scriptValue } from '../../core/script-value.js';

export { RUN_CODE_TOOL_NAME };

/** What `run_code` needs of the session's tool calls: their search and their call path. */
export type ScriptToolPath = Pick<ToolCalls, 'find' | 'callFromScript'>;

export function runCodeDefinition(limits: SandboxLimits): Tool {
  return {
    name: RUN_CODE_TOOL_NAME,
    description: runCodeDescription(limits),
    inputSchema: structuredClone(RUN_CODE_INPUT_SCHEMA) as unknown as Tool['inputSchema'],
    _meta: { [ALWAYS_LOAD_META_KEY]: true },
  };
}

export class CodeRuns {
  constructor(
    private readonly sandbox: CodeSandbox,
    private readonly tools: ScriptToolPath,
    private readonly catalog: Pick<Catalog, 'get'>,
    /** G11: whose share of the sandbox's slots a session's runs take (sessions/identity.ts `key`). */
    private readonly clientOf: (sessionId: string) => string = () => '',
  ) {}

  async handle(
    sessionId: string,
    args: Record<string, unknown>,
    extra: SessionExtra,
    channel?: ClientChannel,
  ): Promise<CallToolResult> {
    const input = codeArgument(args);
    if ('error' in input) return { content: [{ type: 'text', text: input.error }], isError: true };
    const { code } = input;
    const own = channel ?? sessionChannel(extra, () => undefined);
    const progress = own.progress();
    // The script's calls run under this request, without its progress token: progress is the run's, below.
    const inner = withoutProgressToken(extra);
    const calls: SandboxCalls = {
      search: async (query, options) => this.search(sessionId, query, options.maxResults, inner),
      call: async (name, callArgs) =>
        scriptValue(name, await this.tools.callFromScript(sessionId, name, callArgs, inner, channel)),
    };
    // A script's calls each listen to the run's signal: up to maxCalls of them at once.
    setMaxListeners(this.sandbox.limits.maxCalls + 10, own.signal);
    const outcome = await this.sandbox.run(code, calls, {
      client: this.clientOf(sessionId),
      signal: own.signal,
      ...(progress && {
        onCall: (event) => progress({ progress: event.count, message: `${event.kind} ${event.subject}` }),
      }),
    });
    return toResult(outcome);
  }

  private async search(
    sessionId: string,
    query: string,
    maxResults: number | undefined,
    extra: SessionExtra,
  ): Promise<unknown[]> {
    const outcome = await this.tools.find(sessionId, query, scriptMaxResults(maxResults), extra);
    return scriptHits(query, outcome.matches, (name) => this.catalog.get(name));
  }
}

/** The tool result: the value as JSON text, then the console output when there was any. */
export function toResult(outcome: RunOutcome): CallToolResult {
  const { text, logs, isError } = outcomeText(outcome);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if (logs !== undefined) content.push({ type: 'text', text: logs });
  return isError ? { content, isError } : { content };
}

function withoutProgressToken(extra: SessionExtra): SessionExtra {
  const meta = extra.mcpReq._meta;
  if (meta?.progressToken === undefined) return extra;
  const { progressToken: _dropped, ...rest } = meta;
  return { ...extra, mcpReq: { ...extra.mcpReq, _meta: rest } };
}

/**
 * G11 options of a gateway: `true` for the defaults, limit knobs (per run and for all runs, see
 * `splitCodeModeLimits`), or a sandbox to share (the gateway and its profiles share one pool; the
 * gateway does not close a sandbox it was given).
 */
export type CodeModeOption =
  | boolean
  | { readonly limits?: Partial<Record<string, unknown>>; readonly sandbox?: CodeSandbox };

/** G11: the sandbox a code-mode option asks for (its own, or the one it shares). */
export function codeModeSandbox(option: Exclude<CodeModeOption, false>): CodeSandbox {
  if (option !== true && option.sandbox) return option.sandbox;
  const { limits, capacity } = splitCodeModeLimits(option === true ? {} : option.limits);
  return new CodeSandbox({ limits: limits as Partial<SandboxLimits>, capacity: capacity as Partial<RunCapacity> });
}

/** A gateway's code mode: the `run_code` definition, its handler, and the sandbox to close. */
export interface CodeMode {
  readonly definition: Tool;
  readonly handle: CodeRuns['handle'];
  /** Scripts running and waiting in the (maybe shared) sandbox now. */
  load(): CodeSandbox['load'];
  close(): void;
}

export function createCodeMode(
  option: CodeModeOption | undefined,
  tools: ScriptToolPath,
  catalog: Pick<Catalog, 'get'>,
  clientOf?: (sessionId: string) => string,
): CodeMode | undefined {
  if (option === undefined || option === false) return undefined;
  const sandbox = codeModeSandbox(option);
  const owned = option === true || option.sandbox === undefined;
  const runs = new CodeRuns(sandbox, tools, catalog, clientOf);
  return {
    definition: runCodeDefinition(sandbox.limits),
    handle: (sessionId, args, extra, channel) => runs.handle(sessionId, args, extra, channel),
    load: () => sandbox.load,
    close: () => {
      if (owned) sandbox.close();
    },
  };
}
