/**
 * G13 — a client's server entries as gateway servers-file entries.
 *
 * - The keys the gateway reads are kept (`command`, `args`, `env`, `cwd`, `type`, `url`, `headers`,
 *   `disabled`, `oauth`, and its own); the others (`autoApprove`, VS Code's `dev`, …) are left
 *   out and named. An entry that needs what the gateway cannot do (`envFile`: it reads no env
 *   files; `headersHelper`: it runs no header helper) stays in the client's file with the reason.
 * - Editor variables become what a gateway can expand: VS Code's `${input:ID}` becomes `${ID}` (the
 *   gateway's own entry in the client passes the input on as that variable, so the editor still
 *   prompts), `${workspaceFolder}` the project's folder, `${userHome}` `${HOME}`, `${pathSeparator}`
 *   and `${/}` the separator; `${env:NAME}` and Claude Code's `${NAME:-default}` stay, since the gateway
 *   reads those forms itself (variables.ts). A variable it has no value for leaves the entry in the
 *   client's file with the reason.
 * - The entry that runs toolsearch itself is recognised (self-reference.ts) and not imported.
 * - Each entry is checked with the gateway's own validation; one it would refuse stays in the
 *   client's file with the reason, so nothing is lost.
 *
 * `--env-to-vars` (env-to-vars.ts) then moves literal secrets out of the entries.
 */
import { basename, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../../util/records.js';
import { HTTP_TYPES, oauthSchema } from '../remote/config.js';
import { selfReference } from '../self-reference.js';
import { EXPANDED_KEYS } from '../variables.js';
import { type ClientConfig, type ServersSection, sectionName, type VsCodeInput } from './client-config.js';
import { ClientConfigError } from './errors.js';
import { entryProblem } from './validate.js';
import { variableName } from './variable-names.js';

/** A server that moves to the gateway. */
export interface ImportedServer {
  readonly name: string;
  /** Where it was in the client's file: `mcpServers.github`. */
  readonly from: string;
  readonly section: readonly string[];
  readonly key: string;
  readonly entry: Record<string, unknown>;
  /** What changed on the way (keys left out, a new name), one line each. */
  readonly notes: readonly string[];
}

/** An entry that stays in the client's file: toolsearch itself, or one the gateway cannot run. */
export interface LeftEntry {
  readonly from: string;
  readonly section: readonly string[];
  readonly key: string;
  readonly reason: string;
  readonly self: boolean;
}

/** A variable the imported entries now read from the gateway's environment. */
export interface NeededVariable {
  readonly name: string;
  /** `mcpServers.github.env.GITHUB_TOKEN`, or the VS Code input it replaced. */
  readonly from: string;
  /** Where its value comes from: a VS Code input passed on by the gateway's client entry, a reference the entry already had, or a value `--env-to-vars` moved out. */
  readonly source: 'input' | 'reference' | 'moved';
  readonly description?: string;
  readonly secret?: boolean;
}

export interface Conversion {
  readonly servers: readonly ImportedServer[];
  readonly left: readonly LeftEntry[];
  readonly variables: readonly NeededVariable[];
  /** What the gateway's own client entry must pass it (`GITHUB_TOKEN` → `${input:github-token}`). */
  readonly forward: Readonly<Record<string, string>>;
}

/** Keys the gateway reads in a server entry (config.ts); the rest of a client's entry is left out. */
const GATEWAY_KEYS = new Set([
  'type',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'disabled',
  'oauth',
  'protocol',
  'alwaysLoad',
  'defer',
  'timeoutMs',
  'callTimeoutMs',
  'tools',
  'roots',
  'isolation',
  'trust',
]);

/** Keys an entry cannot work without, and the gateway cannot honour: such an entry stays in the client's file. */
const STAYS_WHY: Record<string, string> = {
  envFile:
    'it reads variables from an env file ("envFile"), which the gateway does not: put them in its "env" (or the environment) instead of the file, then import again',
  headersHelper: `it gets its headers from a helper program ("headersHelper"), which the gateway does not run: write them in "headers" (with \${VAR}), then import again`,
};

const ENTRY_TYPES = new Set<string>(['stdio', ...HTTP_TYPES]);
const SERVER_NAME = /^[A-Za-z0-9_.-]+$/;
const REFERENCE = /\$\{([^}]*)\}/g;

/** A variable the gateway cannot be given: the entry stays in the client's file. */
class Untranslatable extends Error {}

interface Context {
  readonly config: ClientConfig;
  readonly inputs: ReadonlyMap<string, VsCodeInput>;
  readonly variables: Map<string, NeededVariable>;
  readonly forward: Record<string, string>;
}

export function convertClientConfig(config: ClientConfig): Conversion {
  const ctx: Context = {
    config,
    inputs: new Map(config.inputs.map((input) => [input.id, input])),
    variables: new Map(),
    forward: {},
  };
  const servers = new Map<string, ImportedServer>();
  const left: LeftEntry[] = [];
  for (const section of config.sections) {
    for (const [key, raw] of Object.entries(section.entries ?? {})) {
      const outcome = convertEntry(ctx, section, key, raw);
      if ('reason' in outcome) left.push(outcome);
      else addServer(config.file, servers, outcome);
    }
  }
  return { servers: [...servers.values()], left, variables: [...ctx.variables.values()], forward: ctx.forward };
}

/** The same server in two sections (two Claude Code projects) is one; two different ones under one name are an error. */
function addServer(file: string, servers: Map<string, ImportedServer>, server: ImportedServer): void {
  const earlier = servers.get(server.name);
  if (earlier === undefined) return void servers.set(server.name, server);
  if (isDeepStrictEqual(earlier.entry, server.entry)) return;
  throw new ClientConfigError(
    file,
    `two different servers are named "${server.name}" (${earlier.from} and ${server.from}); import one project at a time with --project <dir>, or rename one of them in the file`,
  );
}

function convertEntry(ctx: Context, section: ServersSection, key: string, raw: unknown): ImportedServer | LeftEntry {
  const from = `${sectionName(section.path)}.${key}`;
  const leave = (reason: string, self = false): LeftEntry => ({ from, section: section.path, key, reason, self });
  if (!isRecord(raw)) return leave('not an object');
  if (raw['type'] !== undefined && !ENTRY_TYPES.has(String(raw['type'])))
    return leave(`its type "${String(raw['type'])}" is not one the gateway runs (stdio, http, streamable-http, sse)`);
  if (typeof raw['command'] !== 'string' && typeof raw['url'] !== 'string')
    return leave('it has neither "command" nor "url"');
  // Before anything else: toolsearch's own entry is recognised as it is written (its variables may not translate).
  const selfAsWritten = runsToolsearch(raw);
  if (selfAsWritten !== undefined) return leave(selfAsWritten, true);
  const needs = Object.keys(STAYS_WHY).find((needed) => raw[needed] !== undefined);
  if (needs !== undefined) return leave(STAYS_WHY[needs]!);
  const notes: string[] = [];
  let entry: Record<string, unknown>;
  try {
    entry = translateEntry(ctx, keptKeys(raw, notes), from);
  } catch (error) {
    if (error instanceof Untranslatable) return leave(error.message);
    throw error;
  }
  // … and again once its paths are real (`${workspaceFolder}/dist/cli/main.js`).
  const self = runsToolsearch(entry);
  if (self !== undefined) return leave(self, true);
  const name = serverName(key);
  if (name !== key)
    notes.push(`named "${name}" (a gateway server name uses letters, digits, "_", "-" and "." and no "__")`);
  const problem = entryProblem(name, entry, ctx.config.file);
  if (problem) return leave(`the gateway would refuse it: ${problem}`);
  return { name, from, section: section.path, key, entry, notes };
}

/** Why a stdio entry runs toolsearch itself, or undefined (self-reference.ts). */
function runsToolsearch(entry: Record<string, unknown>): string | undefined {
  if (typeof entry['command'] !== 'string') return undefined;
  return selfReference({
    command: entry['command'],
    args: stringList(entry['args']),
    ...(typeof entry['cwd'] === 'string' && { cwd: entry['cwd'] }),
  });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The entry with only the keys the gateway reads; each key left out is noted with why. */
function keptKeys(raw: Record<string, unknown>, notes: string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'oauth') {
      const oauth = oauthOf(value, notes);
      if (oauth !== undefined) kept[key] = oauth;
    } else if (GATEWAY_KEYS.has(key)) kept[key] = value;
    else notes.push(`left out "${key}": not a key the gateway reads`);
  }
  return kept;
}

/** A client's `oauth` as the gateway takes it: as is when valid, else its `clientId` (Claude Code adds `callbackPort`). */
function oauthOf(value: unknown, notes: string[]): unknown {
  if (oauthSchema.safeParse(value).success) return value;
  if (isRecord(value) && typeof value['clientId'] === 'string') {
    const dropped = Object.keys(value).filter((key) => key !== 'clientId');
    notes.push(`left out oauth.${dropped.join(', oauth.')}: the gateway signs in with its own callback`);
    return { clientId: value['clientId'] };
  }
  notes.push('left out "oauth": not a form the gateway reads (true, false or {"clientId": …})');
  return undefined;
}

/** A client's server name as a gateway server name. */
function serverName(key: string): string {
  if (SERVER_NAME.test(key) && !key.includes('__')) return key;
  const name = key
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^-+|-+$/g, '');
  return name === '' ? 'server' : name;
}

/** The entry with every editor variable in its expandable keys made one the gateway can expand. */
function translateEntry(ctx: Context, entry: Record<string, unknown>, from: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...entry };
  const at = (key: string, text: string) => translateString(ctx, text, `${from}.${key}`);
  for (const key of EXPANDED_KEYS) {
    const value = entry[key];
    if (typeof value === 'string') out[key] = at(key, value);
    else if (Array.isArray(value))
      out[key] = value.map((item, i) => (typeof item === 'string' ? at(`${key}.${i}`, item) : item));
    else if (isRecord(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? at(`${key}.${k}`, v) : v]),
      );
  }
  return out;
}

function translateString(ctx: Context, text: string, where: string): string {
  // Claude Desktop expands nothing: what it passes is what the file says.
  if (ctx.config.kind === 'claude-desktop') return text;
  return text.replace(REFERENCE, (reference, body: string) => translateReference(ctx, reference, body, where));
}

function translateReference(ctx: Context, reference: string, body: string, where: string): string {
  if (body.startsWith('input:')) return inputVariable(ctx, body.slice('input:'.length), where);
  const workspace = ctx.config.workspace;
  switch (body) {
    case 'userHome':
      return `\${HOME}`;
    case 'pathSeparator':
    case '/':
      return sep;
    case 'workspaceFolder':
    case 'workspaceFolderBasename':
      if (workspace === undefined)
        throw new Untranslatable(
          `${where} uses ${reference}, and this file belongs to no project folder; give the folder with --workspace <dir>`,
        );
      return body === 'workspaceFolder' ? workspace : basename(workspace);
  }
  const name = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-.*)?$/s.exec(body)?.[1];
  if (name === undefined)
    throw new Untranslatable(`${where} uses ${reference}, an editor variable the gateway has no value for`);
  if (!ctx.variables.has(name)) ctx.variables.set(name, { name, from: where, source: 'reference' });
  return reference;
}

/** `${input:ID}` → `${ID}`, passed on by the gateway's client entry as `ID: "${input:ID}"`. */
function inputVariable(ctx: Context, id: string, where: string): string {
  const name = variableName(id);
  const input = ctx.inputs.get(id);
  ctx.forward[name] = `\${input:${id}}`;
  if (!ctx.variables.has(name))
    ctx.variables.set(name, {
      name,
      from: `${where} (VS Code input "${id}")`,
      source: 'input',
      ...(input?.description !== undefined && { description: input.description }),
      ...(input?.password === true && { secret: true }),
    });
  return `\${${name}}`;
}
