/**
 * G13 — `import --env-to-vars`: the values written in the imported entries' `env` and `headers`
 * leave the servers file, and `${NAME}` placeholders take their place, so the file can be shared
 * or committed and the values live in the gateway's environment instead.
 *
 * - Every literal `env` value moves (which of them are secrets cannot be told from the outside;
 *   moving all is the rule a user can predict), under its own name: `GITHUB_TOKEN` stays
 *   `GITHUB_TOKEN`. Two servers with different values under one name get the server's name in
 *   front (`BRAVE_API_KEY`).
 * - A header value moves without its scheme: `Authorization: Bearer ghp_…` becomes
 *   `Bearer ${TRACKER_TOKEN}`; other headers become `${<SERVER>_<HEADER>}`.
 * - Values that already are references (`${GITHUB_TOKEN}`) stay, and their names are not reused
 *   for a different value.
 *
 * Pure. The moved values themselves are never returned or printed: they stay in the client's
 * file (or its backup) where the user reads them.
 */
import { isRecord } from '../../util/records.js';
import type { ImportedServer, NeededVariable } from './client-entries.js';
import { variableName, VariableNames } from './variable-names.js';

const SCHEME = /^(Bearer|Basic|Token|Bot)\s+(\S.*)$/i;

export function moveSecretsToVariables(
  servers: readonly ImportedServer[],
  referenced: Iterable<string>,
): { servers: ImportedServer[]; moved: NeededVariable[] } {
  const names = new VariableNames(referenced);
  const moved: NeededVariable[] = [];
  const move = (wished: string, server: ImportedServer, value: string, where: string): string => {
    const name = names.name(wished, server.name, value);
    if (!moved.some((variable) => variable.name === name))
      moved.push({ name, from: `${server.from}.${where}`, source: 'moved' });
    return `\${${name}}`;
  };
  const out = servers.map((server) => {
    const entry = { ...server.entry };
    if (isRecord(entry['env']))
      entry['env'] = mapLiterals(entry['env'], (key, value) => move(key, server, value, `env.${key}`));
    if (isRecord(entry['headers']))
      entry['headers'] = mapLiterals(entry['headers'], (key, value) => {
        const scheme = SCHEME.exec(value);
        const wished = variableName(`${server.name}_${scheme ? 'TOKEN' : key}`.toUpperCase());
        const placeholder = move(wished, server, scheme ? scheme[2]! : value, `headers.${key}`);
        return scheme ? `${scheme[1]} ${placeholder}` : placeholder;
      });
    return { ...server, entry };
  });
  return { servers: out, moved };
}

/** The record with each literal (non-empty, no `${`) string value replaced by `replace`'s answer. */
function mapLiterals(
  record: Record<string, unknown>,
  replace: (key: string, value: string) => string,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      typeof value === 'string' && value !== '' && !value.includes('${') ? replace(key, value) : value,
    ]),
  );
}
