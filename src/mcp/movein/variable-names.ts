/**
 * G13 — environment-variable names made from what a client or the MCP Registry calls a value
 * (`github-token`, `api_key`, `X-API-Key`): what `${NAME}` placeholders use. Pure.
 */

const VALID = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `github-token` → `GITHUB_TOKEN`; a name that is already valid keeps its case (`GitHubToken` stays). */
export function variableName(text: string): string {
  if (VALID.test(text)) return text;
  const name = text
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') return 'VALUE';
  return /^\d/.test(name) ? `_${name}` : name;
}

/**
 * Hands out variable names for values: the wished-for name when it is free or already holds the
 * same value, else the server's name before it (`BRAVE_API_KEY`), else a number after it.
 */
export class VariableNames {
  private readonly values = new Map<string, string>();

  constructor(taken: Iterable<string> = []) {
    for (const name of taken) this.values.set(name, '\u0000taken');
  }

  name(wished: string, server: string, value: string): string {
    const candidates = [variableName(wished), variableName(`${server}_${wished}`)];
    for (const candidate of candidates) if (this.claim(candidate, value)) return candidate;
    for (let n = 2; ; n++) if (this.claim(`${candidates[1]}_${n}`, value)) return `${candidates[1]}_${n}`;
  }

  private claim(name: string, value: string): boolean {
    const held = this.values.get(name);
    if (held !== undefined && held !== value) return false;
    this.values.set(name, value);
    return true;
  }
}
