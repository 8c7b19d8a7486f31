/**
 * `npm run bench:recovery` — how many steps a wrong first guess costs, with no model and no weights
 * (C15). A scripted agent (bench/recovery-agent.ts) takes each request of the everyday set and its
 * holdouts, searches with it through the real gateway (in process, the default fixed list, the
 * real servers' tool lists of test/fixtures/real-servers, an upstream that answers "ok"), calls the
 * first tool the answer shows in full with arguments built from what it was shown, and, when that
 * is not a right tool (the request's labels referee), follows only what the answers say: the other
 * full definitions, the one-line hits, the servers a weak answer suggests browsing, `select:` for a
 * signature cut short, the expected signature of an argument error.
 *
 * Per set: R@1 (the first call is right), the mean round trips to the right call (calls and
 * searches after the first search; 1 = the first call), how many requests reach it within the
 * agent's patience (`MAX_TRIPS`), and the o200k tokens of everything sent and read. Then the near
 * misses: the right tool's name written as a model slips (no server prefix, `server.tool`, dashes,
 * two letters swapped), and whether the answer leads back in one step.
 *
 *   npm run bench:recovery                                  # the dev sets: everyday, holdouts 1–5
 *   npm run bench:recovery -- --sets everyday,everyday-holdout-2 --no-write
 * Holdouts 6 and later are clean estimates: they run only when named in `--sets` (the lead's run).
 * Writes bench/results/recovery.md unless `--no-write`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Catalog } from '../src/core/catalog.js';
import type { ToolSpec } from '../src/core/tool.js';
import { CLOSE_HIT_SHARE, MAX_FULL_DEFINITIONS } from '../src/core/session-policy.js';
import { ToolsearchGateway, type UpstreamCaller } from '../src/gateway/gateway.js';
import { o200kTokens, TOKENIZER_NOTE } from '../src/inspect/tokenizer.js';
import { EVERYDAY, EVERYDAY_SETS, holdoutName, type BenchSet } from './datasets.js';
import {
  argumentsFromSchema,
  argumentsFromSignature,
  completeSignature,
  expectedSignature,
  nearMisses,
  readAnswer,
  type Offered,
} from './recovery-agent.js';
import { header } from './report.js';
import { call, gatewayClient, textOf } from './session-sim.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Round trips the agent spends on one request before it gives up. */
export const MAX_TRIPS = 8;

const upstream: UpstreamCaller = { callTool: async () => ({ content: [{ type: 'text', text: 'ok' }] }) };

interface RequestRun {
  readonly firstRight: boolean;
  /** Round trips to the right call; undefined when it was not reached. */
  readonly trips: number | undefined;
  /** Round trips spent, reached or not. */
  readonly spent: number;
  readonly tokens: number;
}

interface NearMissRun {
  readonly kind: string;
  readonly outcome: 'ran' | 'first suggestion' | 'among suggestions' | 'lost';
}

interface SetRun {
  readonly set: string;
  readonly requests: RequestRun[];
  readonly nearMisses: NearMissRun[];
}

/** One conversation: every request sent and answer read is counted in tokens. */
class Conversation {
  tokens = 0;
  trips = 0;
  constructor(private readonly client: Client) {}

  async call(name: string, args: Record<string, unknown>, trip = true): Promise<{ text: string; isError: boolean }> {
    if (trip) this.trips++;
    const result = await call(this.client, 'call_tool', { name, arguments: args });
    const text = textOf(result);
    this.tokens +=
      o200kTokens(JSON.stringify({ name: 'call_tool', input: { name, arguments: args } })) + o200kTokens(text);
    return { text, isError: result.isError === true };
  }

  async search(query: string, trip = true): Promise<string> {
    if (trip) this.trips++;
    const text = textOf(await call(this.client, 'tool_search', { query }));
    this.tokens += o200kTokens(JSON.stringify({ name: 'tool_search', input: { query } })) + o200kTokens(text);
    return text;
  }
}

/** Follow one request to the right call (or give up), as the answers lead. */
async function followRequest(client: Client, query: string, isRight: (name: string) => boolean): Promise<RequestRun> {
  const talk = new Conversation(client);
  const first = readAnswer(await talk.search(query, false));
  const queue: Offered[] = [...first.offered];
  const browse = [...first.browse];
  const tried = new Set<string>();
  let firstRight: boolean | undefined;
  while (talk.trips < MAX_TRIPS) {
    const next = queue.shift();
    if (!next) {
      const server = browse.shift();
      if (!server) break;
      const listing = readAnswer(await talk.search(server));
      queue.push(...listing.offered, ...listing.named.map((name) => ({ name })));
      continue;
    }
    if (tried.has(next.name)) continue;
    tried.add(next.name);
    const accepted = await callOffered(talk, next);
    firstRight ??= accepted && isRight(next.name);
    if (accepted && isRight(next.name))
      return { firstRight, trips: talk.trips, spent: talk.trips, tokens: talk.tokens };
  }
  return { firstRight: firstRight ?? false, trips: undefined, spent: talk.trips, tokens: talk.tokens };
}

/**
 * Call one offered tool with arguments from what the agent was shown. A signature cut short, or an
 * argument error, sends it to `select:` for the full definition, then it calls again. True when a
 * call was accepted (the gateway sent it on).
 */
async function callOffered(talk: Conversation, offered: Offered): Promise<boolean> {
  let schema = offered.schema;
  if (schema === undefined && (offered.signature === undefined || !completeSignature(offered.signature)))
    schema = await definition(talk, offered.name);
  const args = schema !== undefined ? argumentsFromSchema(schema) : argumentsFromSignature(offered.signature ?? '');
  const first = await talk.call(offered.name, args);
  if (!first.isError) return true;
  if (talk.trips >= MAX_TRIPS) return false;
  // An argument error names the expected signature; when it is complete the agent retries with it,
  // else it asks for the definition.
  const expected = expectedSignature(first.text);
  const fixed =
    expected !== undefined && completeSignature(expected) && schema === undefined
      ? argumentsFromSignature(expected)
      : argumentsFromSchema(schema ?? (await definition(talk, offered.name)) ?? {});
  if (talk.trips >= MAX_TRIPS) return false;
  return !(await talk.call(offered.name, fixed)).isError;
}

async function definition(talk: Conversation, name: string): Promise<unknown> {
  const answer = readAnswer(await talk.search(`select:${name}`));
  return answer.offered.find((o) => o.name === name)?.schema;
}

/**
 * A right tool's name as a model slips on it, with arguments that fit: does the answer lead back
 * in one step? "ran": the gateway ran the right tool as called (a server's own name for a tool
 * only one server has); otherwise the answer names the right tool first, among others, or not.
 */
async function nearMiss(client: Client, slip: { name: string; kind: string }, right: ToolSpec): Promise<NearMissRun> {
  const talk = new Conversation(client);
  const answer = await talk.call(slip.name, argumentsFromSchema(right.inputSchema));
  if (!answer.isError) return { kind: slip.kind, outcome: 'ran' };
  // "Did you mean X(…)", or a name several servers have: "call one of X, Y."
  const named =
    /Did you mean (mcp__[^\s(]+)\(/.exec(answer.text)?.[1] ?? /call one of ([^\s,]+)/.exec(answer.text)?.[1];
  if (named === right.name) return { kind: slip.kind, outcome: 'first suggestion' };
  return { kind: slip.kind, outcome: answer.text.includes(right.name) ? 'among suggestions' : 'lost' };
}

async function runSet(set: BenchSet): Promise<SetRun> {
  const catalog = new Catalog(set.tools);
  const gateway = new ToolsearchGateway({ catalog, upstream, mode: 'always', pendingWaitMs: 0 });
  const client = await gatewayClient(gateway, `recovery-${set.name}`);
  const ids = new Map(set.tools.map((t) => [t.name, t.id ?? t.name]));
  const requests: RequestRun[] = [];
  const misses: NearMissRun[] = [];
  for (const q of set.queries) {
    const right = (name: string) => q.gold.some((group) => group.includes(ids.get(name) ?? name));
    requests.push(await followRequest(client, q.query, right));
    // The near misses of the request's first right tool (one per request, the kinds in turn).
    const target = set.tools.find((t) => right(t.name));
    const slips = target ? nearMisses(target.name) : [];
    const slip = slips[requests.length % Math.max(1, slips.length)];
    if (target && slip) misses.push(await nearMiss(client, slip, target));
  }
  await client.close();
  await gateway.close();
  return { set: set.name, requests, nearMisses: misses };
}

const f = (x: number, d = 3) => x.toFixed(d);

function setRow(run: SetRun): string {
  const n = run.requests.length;
  const reached = run.requests.filter((r) => r.trips !== undefined);
  const mean = reached.reduce((s, r) => s + r.trips!, 0) / Math.max(1, reached.length);
  const all = run.requests.reduce((s, r) => s + r.spent, 0) / Math.max(1, n);
  const within2 = run.requests.filter((r) => r.trips !== undefined && r.trips <= 2).length;
  const tokens = run.requests.reduce((s, r) => s + r.tokens, 0) / Math.max(1, n);
  const r1 = run.requests.filter((r) => r.firstRight).length / Math.max(1, n);
  return `| ${run.set} | ${n} | ${f(r1)} | ${f(mean, 2)} | ${f(within2 / n)} | ${reached.length} (${f(reached.length / n)}) | ${f(all, 2)} | ${Math.round(tokens).toLocaleString('en-US')} |`;
}

function nearMissRows(runs: readonly SetRun[]): string[] {
  const kinds = [...new Set(runs.flatMap((r) => r.nearMisses.map((m) => m.kind)))];
  const outcomes = ['ran', 'first suggestion', 'among suggestions', 'lost'] as const;
  const all = runs.flatMap((r) => r.nearMisses);
  return kinds.map((kind) => {
    const of = all.filter((m) => m.kind === kind);
    return `| ${kind} | ${of.length} | ${outcomes.map((o) => of.filter((m) => m.outcome === o).length).join(' | ')} |`;
  });
}

/** The sets developed on: the default. The later holdouts are read once, so only when asked by name. */
const DEV_SETS = [EVERYDAY, ...[1, 2, 3, 4, 5].map(holdoutName)];

function setsFlag(argv: readonly string[]): string[] {
  const at = argv.indexOf('--sets');
  const names = at < 0 ? DEV_SETS : (argv[at + 1] ?? '').split(',').filter(Boolean);
  for (const name of names)
    if (!EVERYDAY_SETS.has(name))
      throw new Error(`--sets: unknown set "${name}"; one of ${[...EVERYDAY_SETS.keys()].join(', ')}`);
  return names;
}

async function main(): Promise<void> {
  const names = setsFlag(process.argv);
  const runs: SetRun[] = [];
  for (const name of names) {
    process.stderr.write(`${name}…\n`);
    runs.push(await runSet(EVERYDAY_SETS.get(name)!()));
  }
  const command = `npm run bench:recovery${process.argv.includes('--sets') ? ` -- --sets ${names.join(',')}` : ''}`;
  const lines = [
    header('Recovery: round trips to the right call (C15)', command),
    '',
    `A scripted agent (no model) per request: one \`tool_search\` with the request, then calls, in the order the answer shows them, the tools shown in full (the best hit and the hits within ${CLOSE_HIT_SHARE} of its score, at most ${MAX_FULL_DEFINITIONS}), then the one-line hits, then the servers a weak answer suggests browsing; arguments from what it was shown (a full definition, or the one-line signature), \`select:\` when a signature is cut short or an argument error leaves it short. The request's labels say whether a called tool is right. Round trips: the calls and searches after the first search, up to ${MAX_TRIPS}; 1 means the first call was right. Tokens: ${TOKENIZER_NOTE}`,
    '',
    '| set | requests | R@1 | mean round trips to the right call | right within 2 | reached | mean round trips spent (all) | tokens per request |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(setRow),
    '',
    'Near misses: per request, the right tool called, with arguments that fit, by a name written as a model slips (one kind per request, in turn). "ran": the gateway ran the right tool as called (a server\'s own name for a tool only one server has); "first suggestion": the answer named the right tool first ("Did you mean" with its signature, or, for a name several servers have, the first of their gateway names); "among suggestions": named, but not first.',
    '',
    '| slip | calls | ran | first suggestion | among suggestions | lost |',
    '|---|---|---|---|---|---|',
    ...nearMissRows(runs),
    '',
  ];
  const text = lines.join('\n');
  process.stdout.write(`${text}\n`);
  if (!process.argv.includes('--no-write')) writeFileSync(join(HERE, 'results', 'recovery.md'), `${text}\n`);
}

await main();
