/**
 * G11 for people who run their own agent loop: `run_code` as a tool of the pool, with the same
 * sandbox and contract as the gateway's. `withCodeMode(pool, …)` puts it in front of a pool's tools
 * (always loaded), so every adapter (Anthropic, OpenAI, AI SDK, TanStack) offers it and runs it like
 * any tool with a handler; the script's `search()` searches the pool and `call()` runs a tool by its
 * model-facing name through its handler or the executor.
 */
import type { PoolView } from '../../core/catalog.js';
import { scriptHits, scriptMaxResults } from '../../core/code-mode-hit.js';
import { isToolResultLike, scriptValue } from '../../core/script-value.js';
import type { ToolSpec } from '../../core/tool.js';
import {
  codeArgument,
  CodeSandbox,
  outcomeText,
  RUN_CODE_INPUT_SCHEMA,
  RUN_CODE_TOOL_NAME,
  runCodeDescription,
  type CodeSandboxOptions,
} from '../../sandbox/index.js';
import { formatSearchResult, ToolSearcher } from '../../search/searcher.js';
import type { ToolExecutor } from './calls.js';
import type { Searcher } from './search.js';

export interface CodeModeOptions {
  /** Runs pool tools without a handler (e.g. `mcpExecutor(hub)`), as the adapter's own option does. */
  readonly executor?: ToolExecutor;
  /** Answers the script's `search()` (default: a `ToolSearcher` with the default ranker). */
  readonly searcher?: Searcher;
  /** A sandbox to share (e.g. between conversations); default: one made from `sandbox` options. */
  readonly sandbox?: CodeSandbox | CodeSandboxOptions;
}

/** `run_code` as a pool tool; `sandbox.close()` ends its spare worker when you are done. */
export function codeModeTool(pool: PoolView, options: CodeModeOptions = {}): ToolSpec & { sandbox: CodeSandbox } {
  const sandbox = options.sandbox instanceof CodeSandbox ? options.sandbox : new CodeSandbox(options.sandbox);
  const searcher = options.searcher ?? new ToolSearcher();
  const byName = (name: string) => pool.tools.find((t) => t.name === name);
  return {
    name: RUN_CODE_TOOL_NAME,
    description: runCodeDescription(sandbox.limits),
    inputSchema: structuredClone(RUN_CODE_INPUT_SCHEMA) as unknown as ToolSpec['inputSchema'],
    origin: { kind: 'local' },
    alwaysLoad: true,
    sandbox,
    handler: async (args) => {
      const input = codeArgument(args);
      if ('error' in input) return { content: [{ type: 'text', text: input.error }], isError: true };
      const outcome = await sandbox.run(input.code, {
        search: async (query, { maxResults }) => {
          const all = pool.tools.filter((t) => t.name !== RUN_CODE_TOOL_NAME);
          const pick = { tools: all, deferred: new Set(all.map((t) => t.name)), pendingServers: pool.pendingServers };
          const result = searcher.search(pick, query, { maxResults: scriptMaxResults(maxResults) });
          if (result.matches.length === 0 && result.error !== undefined) throw new Error(formatSearchResult(result));
          return scriptHits(query, result.matches, byName);
        },
        call: async (name, callArgs) => {
          const tool = byName(name);
          if (!tool || name === RUN_CODE_TOOL_NAME) throw new Error(`Unknown tool "${name}".`);
          const run =
            tool.handler ??
            (options.executor && ((a: Record<string, unknown>) => options.executor!({ name, input: a, tool })));
          if (!run) throw new Error(`Tool "${name}" has no handler in this process.`);
          const value = await run(callArgs);
          return isToolResultLike(value) ? scriptValue(name, value) : value;
        },
      });
      const { text, logs, isError } = outcomeText(outcome);
      const content = [
        { type: 'text' as const, text },
        ...(logs !== undefined ? [{ type: 'text' as const, text: logs }] : []),
      ];
      return isError ? { content, isError } : { content };
    },
  };
}

/** The pool with `run_code` in front of its tools (read live: a catalog that changes stays current). */
export function withCodeMode(
  pool: PoolView,
  options: CodeModeOptions = {},
): PoolView & { readonly runCode: ToolSpec & { sandbox: CodeSandbox } } {
  const runCode = codeModeTool(pool, options);
  let seen: readonly ToolSpec[] | undefined;
  let tools: readonly ToolSpec[] = [];
  return {
    runCode,
    get tools() {
      if (pool.tools !== seen) {
        seen = pool.tools;
        tools = [runCode, ...seen];
      }
      return tools;
    },
    get pendingServers() {
      return pool.pendingServers;
    },
    get failedServers() {
      return pool.failedServers;
    },
  };
}
