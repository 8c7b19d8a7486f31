/** G11 — code mode's sandbox: QuickJS in a worker thread, with limits; no MCP in here. */
export { CodeSandbox, type CodeSandboxOptions, type SandboxCalls, type SandboxRunOptions } from './sandbox.js';
export {
  DEFAULT_RUN_CAPACITY,
  resolveRunCapacity,
  type RunCapacity,
  type RunCapacityName,
  splitCodeModeLimits,
} from './capacity.js';
export {
  DEFAULT_SANDBOX_LIMITS,
  resolveSandboxLimits,
  SandboxLimitsError,
  type SandboxLimitName,
  type SandboxLimits,
} from './limits.js';
export { describeFailure, type RunFailure, type RunOutcome, type RunStats } from './outcome.js';
export {
  codeArgument,
  outcomeText,
  RUN_CODE_INPUT_SCHEMA,
  RUN_CODE_TOOL_NAME,
  runCodeDescription,
} from './tool-contract.js';
