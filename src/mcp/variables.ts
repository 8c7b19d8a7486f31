/**
 * G7 — variables in a server entry: `${VAR}`, `${VAR:-default}` and `${env:VAR}` (also
 * `${env:VAR:-default}`) in `command`, `args`, `env`, `cwd`, `url` and `headers`, the forms Claude
 * Code, Cursor and VS Code write, so a config copied from them sends the secret, not its name.
 *
 * Rules:
 * - `${VAR}` with VAR unset is a config error naming the key and the variable (never a silent
 *   empty string: a request sent with `Bearer ` and no token fails far from its cause).
 * - `:-` uses the default when VAR is unset *or empty*, as the shell does.
 * - `${input:ID}` (VS Code asks the user at start) cannot be answered by a daemon: an error naming
 *   the input and what to write instead.
 * - Only those six keys expand; everything else (`toolSearch`, `tools`, timeouts) is literal.
 *
 * Expanded values are secrets: the expansion also returns them with the text they came from, so
 * logs and status lines can show `${GITHUB_TOKEN}` instead of the token (`redactSecrets`).
 *
 * Pure: the environment is passed in.
 */

/** A value that came from the environment, and the reference it replaced (what logs may show). */
export interface ExpandedSecret {
  readonly value: string;
  readonly reference: string;
}

/** Why a value could not be expanded; the config layer adds the file and the key. */
export class VariableError extends Error {
  override name = 'VariableError';
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The keys of a server entry that expand, as a config entry names them. */
export const EXPANDED_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers'] as const;

/** VS Code's predefined variables: named in the error, since a daemon has no workspace to take them from. */
const VSCODE_PREDEFINED = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'userHome',
  'file',
  'cwd',
  'pathSeparator',
]);

const REFERENCE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Expand every reference in one string; `secrets` collects what came from the environment. */
export function expandString(text: string, env: Environment, secrets: ExpandedSecret[] = []): string {
  return text.replace(REFERENCE, (reference, body: string) => {
    const value = resolveReference(body, env);
    if (value.fromEnv && value.text !== '') secrets.push({ value: value.text, reference });
    return value.text;
  });
}

function resolveReference(body: string, env: Environment): { text: string; fromEnv: boolean } {
  if (body.startsWith('input:')) {
    const input = body.slice('input:'.length);
    throw new VariableError(
      input,
      `\${input:${input}} asks the editor to prompt for input "${input}", and a gateway running in the background cannot answer prompts; put the value in an environment variable and write \${env:NAME} or \${NAME} instead`,
    );
  }
  const withoutPrefix = body.startsWith('env:') ? body.slice('env:'.length) : body;
  const split = withoutPrefix.indexOf(':-');
  const name = split === -1 ? withoutPrefix : withoutPrefix.slice(0, split);
  const fallback = split === -1 ? undefined : withoutPrefix.slice(split + 2);
  if (!NAME.test(name)) {
    throw new VariableError(
      name,
      `"\${${body}}" is not a variable reference this gateway understands; use \${NAME}, \${NAME:-default} or \${env:NAME}`,
    );
  }
  const value = env[name];
  if (value !== undefined && (value !== '' || fallback === undefined)) return { text: value, fromEnv: true };
  if (fallback !== undefined) return { text: fallback, fromEnv: false };
  const hint = VSCODE_PREDEFINED.has(name)
    ? ` (\${${name}} is a VS Code variable; a gateway has no workspace: write the path, or set ${name} in its environment)`
    : ` (set it in the gateway's environment, or give a default: \${${name}:-value})`;
  throw new VariableError(name, `variable "${name}" is not set${hint}`);
}

/**
 * Expand the expandable keys of one server entry. Returns a new entry (other keys as they were);
 * throws VariableError with `key` set to the dotted path inside the entry (`env.TOKEN`, `args.2`).
 */
export function expandServerEntry<T extends Record<string, unknown>>(
  entry: T,
  env: Environment,
  secrets: ExpandedSecret[] = [],
): T {
  const out: Record<string, unknown> = { ...entry };
  const at = (key: string, text: string): string => {
    try {
      return expandString(text, env, secrets);
    } catch (error) {
      if (error instanceof VariableError) throw new KeyedVariableError(key, error);
      throw error;
    }
  };
  for (const key of EXPANDED_KEYS) {
    const value = entry[key];
    if (typeof value === 'string') out[key] = at(key, value);
    else if (Array.isArray(value))
      out[key] = value.map((item, i) => (typeof item === 'string' ? at(`${key}.${i}`, item) : item));
    else if (typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? at(`${key}.${k}`, v) : v]),
      );
  }
  return out as T;
}

/** A VariableError located at a key of the entry. */
export class KeyedVariableError extends VariableError {
  override name = 'KeyedVariableError';
  constructor(
    readonly key: string,
    cause: VariableError,
  ) {
    super(cause.variable, cause.reason);
  }
}

/** Shortest secret worth hiding: a one-character value would blank every such letter in a log line. */
const MIN_SECRET_CHARS = 4;

/**
 * Put the references back in place of their values: `Bearer ghp_…` → `Bearer ${GITHUB_TOKEN}`.
 * Longest values first, so a secret that contains another is replaced whole.
 */
export function redactSecrets(text: string, secrets: readonly ExpandedSecret[]): string {
  let out = text;
  const ordered = [...secrets]
    .filter((s) => s.value.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.value.length - a.value.length);
  // G7: the encoded forms too (a URL's query, a Basic header, a server echoing its config).
  for (const { value, reference } of ordered)
    for (const form of encodedForms(value)) out = out.split(form).join(reference);
  return redactCutSecret(out, ordered);
}

/** A value as it may appear in text: itself, URL-encoded, base64 (standard and URL-safe, padded or not). */
function encodedForms(value: string): string[] {
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  const forms = [value, encodeURIComponent(value), base64, base64.replace(/=+$/, '')];
  forms.push(base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  return [...new Set(forms)].filter((f) => f.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
}

/**
 * A line cut mid-secret (stderr lines are cut at `stderrLineChars`) ends with the secret's first
 * characters, which no whole-value match finds: that leading part is replaced too.
 */
function redactCutSecret(text: string, secrets: readonly ExpandedSecret[]): string {
  const at = text.indexOf(CUT_MARKER_START);
  if (at < MIN_SECRET_CHARS) return text;
  const before = text.slice(0, at);
  for (const { value, reference } of secrets) {
    for (let n = Math.min(value.length - 1, before.length); n >= MIN_SECRET_CHARS; n--) {
      if (before.endsWith(value.slice(0, n))) return `${before.slice(0, -n)}${reference}${text.slice(at)}`;
    }
  }
  return text;
}

/** How a cut line's marker starts (lines.ts, core/limits.ts `cutText`). */
const CUT_MARKER_START = ' … [';
