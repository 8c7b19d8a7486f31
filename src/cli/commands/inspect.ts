/**
 * `toolsearch inspect`: what the first request costs in tool-definition tokens, eager vs
 * deferred, per server and in total, and what each mode decides.
 */
import type { Command } from 'commander';
import type { PoolView } from '../../core/catalog.js';
import {
  countAnthropicExact,
  createAnthropicClient,
  type ExactAnthropicCounts,
} from '../../inspect/anthropic-count.js';
import { inspectPool, type InspectReport, type ModeCost } from '../../inspect/report.js';
import type { SessionAssumptions, SessionCostEstimate } from '../../core/session-cost.js';
import type { ToolListMode } from '../../core/session-policy.js';
import { sessionCostOf } from '../../gateway/tools/deferral.js';
import { DEFAULT_GATEWAY_TOOL_LIST } from '../../gateway/tools/tool-list.js';
import { runCodeDefinition, type CodeModeOption } from '../../gateway/tools/run-code.js';
import { resolveSandboxLimits } from '../../sandbox/limits.js';
import { splitCodeModeLimits } from '../../sandbox/capacity.js';
import { definitionTokens } from '../../inspect/report.js';
import type { ToolDefinitionLike } from '../../core/tool.js';
import { o200kTokens, TOKENIZER_NOTE } from '../../inspect/tokenizer.js';
import {
  callToolDefinition,
  GATEWAY_DEFERRED_TOKEN_BUDGET,
  gatewayAnnouncementBudget,
} from '../../gateway/tools/definitions.js';
import { loadCatalogFile } from '../catalog-file.js';
import { parsePositiveInt, parseToolList } from '../options.js';
import { errorMessage } from '../../util/errors.js';
import { plural } from '../../core/plural.js';

export interface InspectCommandOptions {
  catalog?: string;
  json?: boolean;
  contextWindow?: number;
  deferredTokenBudget?: number;
  top?: number;
  anthropicModel?: string;
  /** E5: the tool-list mode to estimate `auto` with (default: the config's, else fixed). */
  toolList?: ToolListMode;
  /** G11: count `run_code` as `serve --code-mode` sends it. */
  codeMode?: boolean;
}

/** What a config says about the sessions `serve` would run: inspect estimates for those. */
export interface ServeSessionSettings {
  readonly toolList?: ToolListMode;
  readonly codeMode?: CodeModeOption;
  readonly sessionCost?: SessionAssumptions;
}

/** With an API key, exact Claude counts from `messages.countTokens`; otherwise undefined. */
async function exactCounts(
  options: InspectCommandOptions,
  pool: PoolView,
): Promise<ExactAnthropicCounts | { error: string } | undefined> {
  const apiKey = process.env.ANTHROPIC_API_KEY;
  if (!apiKey) return undefined;
  try {
    const client = await createAnthropicClient(apiKey, process.env.ANTHROPIC_BASE_URL || undefined);
    return await countAnthropicExact(client, options.anthropicModel ?? DEFAULT_COUNT_MODEL, pool);
  } catch (error) {
    return {
      error: `exact Claude count failed, estimates only: ${errorMessage(error)}`,
    };
  }
}

/**
 * The model `inspect` counts tokens for on the Anthropic API unless told: a current Sonnet (the
 * SDK marks claude-sonnet-4-5, the earlier default, end of life on 2026-11-30).
 */
const DEFAULT_COUNT_MODEL = 'claude-sonnet-5-5';

/** Pool sources other than a catalog file (e.g. live MCP servers) register here. */
export type PoolLoader = (
  options: InspectCommandOptions & Record<string, unknown>,
) => Promise<{ pool: PoolView; close(): Promise<void>; settings?: ServeSessionSettings } | undefined>;
const extraLoaders: PoolLoader[] = [];
export function addInspectPoolLoader(loader: PoolLoader): void {
  extraLoaders.push(loader);
}

/** E5: the whole-session estimate `auto` decides with, for both tool-list modes, and the one in use. */
interface SessionReport {
  readonly growing: SessionCostEstimate;
  readonly fixed: SessionCostEstimate;
  /** The mode `serve` would run with this config and flags (default fixed). */
  readonly inUse: ToolListMode;
}

/**
 * E5: a plain `auto` decides with the session cost model for the tool-list mode in use (as `serve`
 * does): the report's auto row says what it chose and why, and both estimates with their crossover
 * are printed below the modes, the one in use marked.
 */
function withSessionCost(
  report: InspectReport,
  pool: PoolView,
  tokenBudget: number | undefined,
  settings: ServeSessionSettings,
): InspectReport & { session: SessionReport } {
  const budget = { ...(tokenBudget !== undefined && { tokenBudget }) };
  const assumptions = settings.sessionCost && { assumptions: settings.sessionCost };
  const runCode = runCodeTool(settings.codeMode);
  const ownTools = runCode && { ownTools: [runCode] };
  const estimate = (toolList: ToolListMode) =>
    sessionCostOf(pool, { count: o200kTokens, budget, toolList, ...assumptions, ...ownTools });
  const session = {
    growing: estimate('growing'),
    fixed: estimate('fixed'),
    inUse: settings.toolList ?? DEFAULT_GATEWAY_TOOL_LIST,
  };
  const chosen = session[session.inUse];
  const modes: ModeCost[] = report.modes.map((m) =>
    m.mode !== 'auto'
      ? m
      : {
          mode: 'auto',
          useToolSearch: chosen.defer,
          tokens: chosen.defer ? report.deferredTokens : report.eagerTokens,
          reason: chosen.defer
            ? `a session of ${chosen.searches} searches costs ${ratio(chosen.ratio)} of eager deferred (${session.inUse} list)`
            : `deferral would cost ${ratio(chosen.ratio)} of eager over ${chosen.searches} searches (${session.inUse} list)`,
        },
  );
  return { ...report, modes, session };
}

/** G11: `run_code` as `serve` would list it with this code-mode setting (none when off). */
function runCodeTool(codeMode: CodeModeOption | undefined): ToolDefinitionLike | undefined {
  if (codeMode === undefined || codeMode === false) return undefined;
  const limits =
    codeMode !== true && codeMode.sandbox
      ? codeMode.sandbox.limits
      : resolveSandboxLimits(splitCodeModeLimits(codeMode === true ? {} : codeMode.limits).limits);
  return runCodeDefinition(limits) as ToolDefinitionLike;
}

/**
 * G11: with code mode on, `run_code` goes out with every request, deferred or not: its tokens join
 * every total (the savings share is recomputed), and the breakdown names them.
 */
function withRunCode(
  report: InspectReport,
  codeMode: CodeModeOption | undefined,
): InspectReport & { runCode?: number } {
  const tool = runCodeTool(codeMode);
  if (!tool) return report;
  const runCode = definitionTokens([tool], o200kTokens);
  const eagerTokens = report.eagerTokens + runCode;
  const deferredTokens = report.deferredTokens + runCode;
  return {
    ...report,
    eagerTokens,
    deferredTokens,
    savings: eagerTokens > 0 ? Math.max(0, 1 - deferredTokens / eagerTokens) : 0,
    modes: report.modes.map((m) => ({ ...m, tokens: m.tokens + runCode })),
    runCode,
  };
}

function ratio(x: number): string {
  return `${x.toFixed(2)}×`;
}

function sessionLines(session: SessionReport | undefined): string[] {
  if (!session) return [];
  const line = (name: string, e: SessionCostEstimate) =>
    `${name.padEnd(23)} ${ratio(e.ratio).padStart(7)}  ${
      e.crossover !== undefined
        ? `deferral costs more than eager from search ${e.crossover} on`
        : `below eager for all ${e.searches} searches`
    }`;
  const mark = (mode: ToolListMode) => (session.inUse === mode ? ' (in use)' : '');
  return [
    '',
    `whole session (${session.growing.searches} searches, prompt cache on; cost-weighted input, deferred ÷ eager):`,
    line(`fixed list${mark('fixed')}`, session.fixed),
    line(`growing list${mark('growing')}`, session.growing),
    `auto (${session.inUse} list): ${session[session.inUse].defer ? 'defers' : 'loads everything'} (toolSearch.toolList and toolSearch.sessionCost change the assumptions)`,
  ];
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

export function renderInspectText(
  report: InspectReport & { session?: SessionReport; runCode?: number },
  top = 15,
  exact?: ExactAnthropicCounts | { error: string },
): string {
  const lines: string[] = [];
  lines.push(
    `${plural(report.tools, 'tool')} from ${plural(report.servers, 'server')}${report.pendingServers.length ? ` (pending: ${report.pendingServers.join(', ')})` : ''}`,
  );
  for (const failed of report.failedServers)
    lines.push(`FAILED ${failed.server}: ${failed.reason} (its tools are not counted)`);
  for (const line of hiddenLines(report)) lines.push(line);
  lines.push('');
  lines.push(`eager (every schema sent):            ${report.eagerTokens.toLocaleString('en-US')} tokens`);
  lines.push(
    `deferred (as tools/list sends it):    ${report.deferredTokens.toLocaleString('en-US')} tokens` +
      `  [search tool ${report.breakdown.searchTool}, announcement ${report.breakdown.announcement} (${report.announcementForm}), call_tool ${report.breakdown.extraTools}, always-loaded ${report.breakdown.loadedTools}${report.runCode !== undefined ? `, run_code ${report.runCode}` : ''}]`,
  );
  if (report.runCode !== undefined)
    lines.push(`(code mode: run_code's ${report.runCode} tokens go out with every request, eager or deferred)`);
  lines.push(`savings:                              ${pct(report.savings)}`);
  if (report.announcementForm === 'grouped') {
    lines.push(
      `(the announcement is grouped by server; as a full name list it would cost ${report.listAnnouncementTokens} tokens)`,
    );
    if (report.announcedServers !== undefined && report.announcedServers < report.servers)
      lines.push(
        `(within the token budget it names ${report.announcedServers} of ${report.servers} servers, the largest first; one line stands for the rest, all findable by name)`,
      );
  }
  lines.push('');
  lines.push('server                                    tools     eager  deferred');
  for (const s of report.perServer.slice(0, top)) {
    lines.push(
      `${s.server.slice(0, 40).padEnd(40)} ${String(s.tools).padStart(6)} ${String(s.eagerTokens).padStart(9)} ${String(s.deferredTokens).padStart(9)}`,
    );
  }
  if (report.perServer.length > top)
    lines.push(`… ${report.perServer.length - top} more servers (--top N, or --json for all)`);
  lines.push('');
  lines.push('mode     search  tokens  why');
  for (const m of report.modes)
    lines.push(
      `${m.mode.padEnd(8)} ${(m.useToolSearch ? 'yes' : 'no').padEnd(7)} ${String(m.tokens).padStart(7)}  ${m.reason}`,
    );
  lines.push(...sessionLines(report.session));
  lines.push('');
  lines.push(`Counted with ${report.tokenizer}`);
  if (exact && 'error' in exact) lines.push(exact.error);
  else if (exact) {
    lines.push(
      `Exact Claude count (${exact.model}, messages.countTokens): eager ${exact.eagerTokens.toLocaleString('en-US')}, ` +
        `deferred ${exact.deferredTokens.toLocaleString('en-US')}, savings ${pct(exact.savings)}`,
    );
  } else lines.push('Set ANTHROPIC_API_KEY for exact Claude counts (messages.countTokens).');
  return lines.join('\n');
}

/** G7: what each server's `tools` section hid, one line per server (names cut at a few). */
function hiddenLines(report: InspectReport): string[] {
  const byServer = new Map<string, string[]>();
  for (const hidden of report.hiddenTools)
    byServer.set(hidden.server, [...(byServer.get(hidden.server) ?? []), hidden.tool]);
  return [...byServer].map(([server, tools]) => {
    const shown = tools.slice(0, HIDDEN_NAMES_SHOWN).join(', ');
    const more =
      tools.length > HIDDEN_NAMES_SHOWN ? `, … ${tools.length - HIDDEN_NAMES_SHOWN} more (--json for all)` : '';
    return `hidden by config: ${server}: ${plural(tools.length, 'tool')} (${shown}${more})`;
  });
}

const HIDDEN_NAMES_SHOWN = 8;

async function loadPool(
  options: InspectCommandOptions & Record<string, unknown>,
): Promise<{ pool: PoolView; close(): Promise<void>; settings?: ServeSessionSettings }> {
  for (const loader of extraLoaders) {
    const loaded = await loader(options);
    if (loaded) return loaded;
  }
  if (!options.catalog) throw new Error('inspect needs --catalog FILE.jsonl (or --config FILE for live MCP servers)');
  return { pool: loadCatalogFile(options.catalog), close: async () => {} };
}

export function registerInspectCommand(program: Command): Command {
  return program
    .command('inspect')
    .description('Tool-definition tokens of the first request: everything eager vs deferred, per server and in total.')
    .option('--catalog <file>', 'catalog in the JSONL format ({id, server, name, description, inputSchema} per line)')
    .option('--json', 'print one JSON object')
    .option('--context-window <tokens>', 'context window for the auto mode threshold', parsePositiveInt)
    .option(
      '--deferred-token-budget <tokens>',
      `tokens for the search tool + announcement + call_tool, as serve applies it (default ${GATEWAY_DEFERRED_TOKEN_BUDGET})`,
      parsePositiveInt,
    )
    .option('--top <n>', 'servers to list in the text table', parsePositiveInt, 15)
    .option(
      '--tool-list <mode>',
      `the session tool list to estimate auto with: fixed | growing (default: the config's, else ${DEFAULT_GATEWAY_TOOL_LIST})`,
      parseToolList,
    )
    .option('--code-mode', 'count run_code as serve --code-mode sends it (default: as the config says)')
    .option(
      '--anthropic-model <model>',
      `model for exact Claude counts when ANTHROPIC_API_KEY is set (default ${DEFAULT_COUNT_MODEL})`,
    )
    .action(async (options: InspectCommandOptions & Record<string, unknown>) => {
      const { pool, close, settings } = await loadPool(options);
      const serveSettings: ServeSessionSettings = {
        ...settings,
        ...(options.toolList !== undefined && { toolList: options.toolList }),
        ...(options.codeMode === true && { codeMode: settings?.codeMode || true }),
      };
      try {
        const first = inspectPool(pool, {
          count: o200kTokens,
          tokenizer: TOKENIZER_NOTE,
          ...(options.contextWindow !== undefined && { contextWindow: options.contextWindow }),
          // One figure with `serve`: the gateway's announcement budget and its call_tool.
          announceTokenBudget: gatewayAnnouncementBudget({
            tokenBudget: options.deferredTokenBudget ?? GATEWAY_DEFERRED_TOKEN_BUDGET,
          }),
          extraTools: [callToolDefinition()],
        });
        const report = withSessionCost(
          withRunCode(first, serveSettings.codeMode),
          pool,
          options.deferredTokenBudget,
          serveSettings,
        );
        const exact = await exactCounts(options, pool);
        const out = options.json
          ? JSON.stringify(exact ? { ...report, anthropic: exact } : report)
          : renderInspectText(report, options.top, exact);
        process.stdout.write(`${out}\n`);
      } finally {
        await close();
      }
    });
}
