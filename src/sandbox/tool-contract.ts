/**
 * G11 — `run_code` as the model sees it, the same from the gateway and from the library's loops:
 * its name, its description (the two functions, what they return, the limits) and its input; and
 * a run's outcome as the text the model reads.
 */
import type { SandboxLimits } from './limits.js';
import { describeFailure, type RunOutcome } from './outcome.js';

export const RUN_CODE_TOOL_NAME = 'run_code';

export const RUN_CODE_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'The body of an async JavaScript function; `return` its answer.' },
  },
  required: ['code'],
} as const;

export function runCodeDescription(limits: SandboxLimits): string {
  return [
    'Run JavaScript that finds and calls tools; only what it returns comes back to you, not the tool results along the way.',
    'The code is the body of an async function: use await, and return a JSON value.',
    'Inside: `await search(query, { maxResults })` gives [{ name, purpose, signature }] (signature in TypeScript, e.g. `mcp__fs__read_file(args: { path: string })`);',
    'a query "select:<name>,…" gives each named tool with its full description and argument descriptions.',
    '`await call(name, args)` runs a tool and gives its structured result (or its text, parsed when it is JSON); it throws when the tool fails.',
    '`console.log` is captured. No network, files, modules or timers.',
    `Limits: ${limits.timeoutMs / 1000} s, ${limits.maxCalls} search/call calls, ${Math.round(limits.maxReturnBytes / 1024)} KiB return value.`,
  ].join(' ');
}

/** What the model reads: the value as JSON text, or the failure; then the console output, if any. */
export function outcomeText(outcome: RunOutcome): {
  readonly text: string;
  readonly logs?: string;
  readonly isError: boolean;
} {
  const logs = outcome.logs.length > 0 ? { logs: `Console output:\n${outcome.logs.join('\n')}` } : {};
  if (outcome.ok) return { text: outcome.json, ...logs, isError: false };
  return { text: `${RUN_CODE_TOOL_NAME} failed: ${describeFailure(outcome.error)}`, ...logs, isError: true };
}

/** The `code` argument, or the message that says what `run_code` needs. */
export function codeArgument(args: Record<string, unknown>): { code: string } | { error: string } {
  const code = args['code'];
  if (typeof code === 'string' && code.trim() !== '') return { code };
  return { error: `${RUN_CODE_TOOL_NAME} needs {"code": string}: the body of an async JavaScript function.` };
}
