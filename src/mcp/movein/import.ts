/**
 * G13 — `toolsearch import <client config>`: a client's servers move into the gateway's servers
 * file, and the client gets the one entry that replaces them.
 *
 * Order of work, so that a failure at any step loses nothing:
 * 1. read and understand the client's file (nothing written if that fails);
 * 2. work out both changes: the servers to add (a name already there with a different entry is
 *    an error naming both; the same entry again is "already there", so a second run is harmless)
 *    and, with `writeClient`, the client's new servers part;
 * 3. unless `dryRun`: write the servers file (atomic, refusing a concurrent change), then back up
 *    the client's file beside it and write it (atomic, refusing a concurrent change: then the
 *    servers file holds the servers and the client's file is untouched; running the import again
 *    finishes the job).
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ConfigFileError } from '../config-file.js';
import { backupFile, backupPath, type FileSnapshot, readSnapshot, replaceFile } from './atomic-file.js';
import { type ClientConfig, type ClientKind, readClientConfig } from './client-config.js';
import { type Conversion, convertClientConfig, type ImportedServer } from './client-entries.js';
import {
  clientSnippet,
  type GatewayLaunch,
  gatewayClientEntry,
  gatewayEntryName,
  rewriteClientText,
  type RewrittenSection,
  rewrittenSections,
} from './client-entry.js';
import { moveSecretsToVariables } from './env-to-vars.js';
import { ClientConfigError, ConcurrentChangeError, NameClashError } from './errors.js';
import { readServersFile, type ServersFile, updateServersFile, withServers } from './servers-file.js';

export interface ImportOptions {
  readonly clientFile: string;
  readonly serversFile: string;
  readonly kind?: ClientKind;
  readonly project?: string;
  readonly workspace?: string;
  readonly envToVars?: boolean;
  readonly writeClient?: boolean;
  readonly dryRun?: boolean;
  readonly launch: GatewayLaunch;
  /** The largest client file read (Claude Code's ~/.claude.json keeps its history too). Default `DEFAULT_MAX_CLIENT_BYTES`. */
  readonly maxClientBytes?: number;
  readonly home?: string;
  readonly now?: () => Date;
}

export interface ImportReport {
  readonly client: ClientConfig;
  readonly conversion: Conversion;
  /** Names added to the servers file (or that would be, on a dry run). */
  readonly added: readonly string[];
  /** Names whose same entry was in the servers file already. */
  readonly alreadyThere: readonly string[];
  readonly serversFile: string;
  readonly serversFileExisted: boolean;
  readonly gateway: { readonly name: string; readonly entry: Record<string, unknown> };
  /** The client's servers part as it becomes (what to paste, or what was written). */
  readonly snippet: unknown;
  /** Each servers section of the client's file as it becomes. */
  readonly sections: readonly RewrittenSection[];
  /** The backup of the client's file, when it was rewritten (or would be, on a dry run). */
  readonly backup?: string;
  readonly clientWritten: boolean;
  readonly dryRun: boolean;
}

/**
 * Claude Code keeps every project's prompt history in ~/.claude.json: users report files of 15 to
 * 65 MB and more, past the 16 MiB the gateway allows its own config. Read up to this, bounded all
 * the same (`--max-client-bytes`).
 */
export const DEFAULT_MAX_CLIENT_BYTES = 64 * 1024 * 1024;

export async function importClientConfig(options: ImportOptions): Promise<ImportReport> {
  const plan = await planImport(options);
  return options.dryRun === true ? dryRun(plan, options) : applyImport(plan, options);
}

/** Everything worked out, nothing written: the client's file read and understood, both changes decided. */
interface ImportPlan {
  readonly snapshot: FileSnapshot;
  readonly clientFile: string;
  readonly serversFile: string;
  readonly base: Omit<
    ImportReport,
    'added' | 'alreadyThere' | 'serversFileExisted' | 'clientWritten' | 'dryRun' | 'backup'
  >;
}

async function planImport(options: ImportOptions): Promise<ImportPlan> {
  const clientFile = resolve(options.clientFile);
  const serversFile = resolve(options.serversFile);
  await refuseSameFile(clientFile, serversFile);
  const snapshot = await readClient(clientFile, options.maxClientBytes ?? DEFAULT_MAX_CLIENT_BYTES);
  const client = readClientConfig(clientFile, snapshot.text!, {
    ...(options.kind !== undefined && { kind: options.kind }),
    ...(options.project !== undefined && { project: options.project }),
    ...(options.workspace !== undefined && { workspace: resolve(options.workspace) }),
    ...(options.home !== undefined && { home: options.home }),
  });
  const conversion = withEnvToVars(convertClientConfig(client), options.envToVars === true);
  const name = gatewayEntryName(client, conversion);
  const entry = gatewayClientEntry(client.kind, options.launch, serversFile, conversion.forward);
  const sections = rewrittenSections(client, conversion, name, entry);
  const primary = sections.find((_, i) => client.sections[i]!.primary)!;
  const snippet = clientSnippet(client, primary.value);
  return {
    snapshot,
    clientFile,
    serversFile,
    base: { client, conversion, serversFile, gateway: { name, entry }, snippet, sections },
  };
}

async function dryRun(plan: ImportPlan, options: ImportOptions): Promise<ImportReport> {
  const file = await readServersFile(plan.serversFile);
  const servers = planServers(file, plan.serversFile, plan.clientFile, plan.base.conversion.servers);
  const backup = options.writeClient ? backupPath(plan.snapshot.path, options.now?.() ?? new Date()) : undefined;
  return { ...plan.base, ...servers, clientWritten: false, dryRun: true, ...(backup !== undefined && { backup }) };
}

async function applyImport(plan: ImportPlan, options: ImportOptions): Promise<ImportReport> {
  const { servers } = plan.base.conversion;
  const written = await updateServersFile(plan.serversFile, (file) => {
    const result = planServers(file, plan.serversFile, plan.clientFile, servers);
    const additions = servers.filter((server) => result.added.includes(server.name));
    const entries = additions.map((server) => [server.name, server.entry] as const);
    return { text: additions.length > 0 ? withServers(file, entries) : undefined, result };
  });
  const report = {
    ...plan.base,
    added: written.added,
    alreadyThere: written.alreadyThere,
    serversFileExisted: written.serversFileExisted,
    dryRun: false,
  };
  if (!options.writeClient || servers.length === 0) return { ...report, clientWritten: false };
  const text = rewriteClientText(plan.snapshot.text!, plan.base.sections);
  const backup = await writeClient(plan.snapshot, text, options.now?.() ?? new Date());
  return { ...report, clientWritten: true, backup };
}

async function refuseSameFile(clientFile: string, serversFile: string): Promise<void> {
  const real = async (path: string) => realpath(path).catch(() => path);
  if ((await real(clientFile)) === (await real(serversFile)))
    throw new ClientConfigError(
      clientFile,
      "is the client's config; the gateway's servers file must be another file (--config), or the gateway would list itself",
    );
}

async function readClient(file: string, maxBytes: number): Promise<FileSnapshot> {
  try {
    const snapshot = await readSnapshot(file, maxBytes);
    if (snapshot.text === undefined) throw new ClientConfigError(file, 'cannot read the file (ENOENT: no such file)');
    return snapshot;
  } catch (error) {
    if (error instanceof ClientConfigError) throw error;
    const reason =
      error instanceof ConfigFileError ? error.reason : ((error as NodeJS.ErrnoException).code ?? String(error));
    const knob = reason.startsWith('larger than') ? '; --max-client-bytes reads larger files' : '';
    throw new ClientConfigError(file, `cannot read the file (${reason})${knob}`);
  }
}

function withEnvToVars(conversion: Conversion, enabled: boolean): Conversion {
  if (!enabled) return conversion;
  const { servers, moved } = moveSecretsToVariables(
    conversion.servers,
    conversion.variables.map((variable) => variable.name),
  );
  return { ...conversion, servers, variables: [...conversion.variables, ...moved] };
}

/** Which servers are new to the servers file and which are there already; a different entry under a taken name throws. */
function planServers(
  file: ServersFile,
  serversFile: string,
  clientFile: string,
  servers: readonly ImportedServer[],
): { added: string[]; alreadyThere: string[]; serversFileExisted: boolean } {
  const added: string[] = [];
  const alreadyThere: string[] = [];
  for (const server of servers) {
    const existing = file.servers[server.name];
    if (existing === undefined) added.push(server.name);
    else if (isDeepStrictEqual(existing, server.entry)) alreadyThere.push(server.name);
    else
      throw new NameClashError(
        server.name,
        serversFile,
        `${clientFile} (${server.from})`,
        `rename one of them (or take the gateway's out with "toolsearch remove ${server.name}") and import again; nothing was written`,
      );
  }
  return { added, alreadyThere, serversFileExisted: file.exists };
}

/** Back up the client's file, then write the new text over it; a concurrent change leaves it untouched. */
async function writeClient(snapshot: FileSnapshot, text: string, at: Date): Promise<string> {
  let backup: string | undefined;
  try {
    backup = await backupFile(snapshot, at);
    await replaceFile(snapshot, text);
    return backup;
  } catch (error) {
    if (error instanceof ConcurrentChangeError)
      throw new ClientConfigError(
        snapshot.path,
        `changed while toolsearch was rewriting it (the client saved it?), so it was left as it is; the servers are in the gateway's file already: close the client and run the import again with --write-client${backup ? ` (the backup ${backup} was kept)` : ''}`,
      );
    throw error;
  }
}
