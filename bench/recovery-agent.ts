/**
 * `bench:recovery`'s scripted agent (no model, no weights): it reads a `tool_search` answer as text
 * and acts only on what the text says — the full definitions, the one-line signatures, the
 * servers suggested to browse, "did you mean", and the expected signature of an argument error.
 * What it cannot do is judge which hit fits the request: it tries them in the order shown, and a
 * referee (the request's labels) tells it whether the tool it called was the right one.
 *
 * Arguments come from what it was shown of the tool: a full definition's input schema, else the
 * one-line signature (parsed here: `name(a: string, b?: {c, d: number[]}[])`), with a made-up value
 * of the right type for every required field. A signature cut short (`…`, `{…}`) is not enough:
 * the agent asks `select:<name>` for the definition first, as the answer tells it to.
 */

/** One tool the answer offers, as the agent knows it. */
export interface Offered {
  readonly name: string;
  /** The input schema of a full definition. */
  readonly schema?: unknown;
  /** The argument list of a one-line signature (inside its parentheses). */
  readonly signature?: string;
}

export interface ReadAnswer {
  readonly offered: Offered[];
  /** Servers a weak answer suggests browsing (`mcp__<server>`). */
  readonly browse: string[];
  /** Names a server listing gives by name only. */
  readonly named: string[];
}

/** What an answer offers, in the order it shows it: full definitions, then one-line hits. */
export function readAnswer(text: string): ReadAnswer {
  const full: Offered[] = [];
  const lines: Offered[] = [];
  const browse: string[] = [];
  const named: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('{')) {
      try {
        const def = JSON.parse(line) as { name?: unknown; inputSchema?: unknown };
        if (typeof def.name === 'string') full.push({ name: def.name, schema: def.inputSchema ?? {} });
      } catch {
        // Not a definition.
      }
      continue;
    }
    const hit = /^- (mcp__[\w-]+?__[^\s(]+)\(/.exec(line);
    if (hit) {
      const signature = argumentList(line, hit[0].length - 1);
      lines.push({ name: hit[1]!, ...(signature !== undefined && { signature }) });
      continue;
    }
    const server = /^- mcp__([\w-]+) — /.exec(line);
    if (server) browse.push(`mcp__${server[1]}`);
    const byName = /^Also \(by name[^)]*\): (.+)$/.exec(line);
    if (byName) named.push(...byName[1]!.split(', '));
  }
  return { offered: [...full, ...lines], browse, named };
}

/** The expected signature an argument error ends with (`Expected: name(…).`), as an argument list. */
export function expectedSignature(text: string): string | undefined {
  const at = text.lastIndexOf('Expected: ');
  if (at < 0) return undefined;
  const open = text.indexOf('(', at);
  return open < 0 ? undefined : argumentList(text, open);
}

/** The text inside the balanced parentheses that open at `open`. */
function argumentList(text: string, open: number): string | undefined {
  let depth = 0;
  let quoted = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

/**
 * A signature the agent can build arguments from: nothing a required field needs is cut short. A
 * trailing `…` after an optional argument stands for more optional ones (required ones come first).
 */
export function completeSignature(signature: string): boolean {
  const parser = new SignatureParser(signature);
  parser.fields(')', true);
  return !parser.incomplete;
}

/** Arguments from a full definition's input schema: every required field, a value of its type. */
export function argumentsFromSchema(schema: unknown): Record<string, unknown> {
  const value = sampleValue(schema, schema, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function sampleValue(schema: unknown, root: unknown, depth: number): unknown {
  if (depth > 12 || typeof schema !== 'object' || schema === null) return 'x';
  let s = schema as Record<string, unknown>;
  for (let hops = 0; typeof s['$ref'] === 'string' && hops < 8; hops++) {
    const target = (s['$ref'] as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
    if (typeof target !== 'object' || target === null) return 'x';
    s = target as Record<string, unknown>;
  }
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  const variants = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (Array.isArray(variants) && variants.length > 0) {
    const first = variants.find((v) => (v as Record<string, unknown>)?.['type'] !== 'null') ?? variants[0];
    return sampleValue(first, root, depth + 1);
  }
  const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type']];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'string':
      return 'x';
    case 'number':
    case 'integer': {
      const min =
        typeof s['minimum'] === 'number'
          ? s['minimum']
          : typeof s['exclusiveMinimum'] === 'number'
            ? s['exclusiveMinimum'] + 1
            : 1;
      return Math.max(min, typeof s['maximum'] === 'number' ? Math.min(1, s['maximum']) : 1);
    }
    case 'boolean':
      return true;
    case 'array': {
      const items = Array.isArray(s['prefixItems']) ? s['prefixItems'] : s['items'];
      if (Array.isArray(items)) return items.map((item) => sampleValue(item, root, depth + 1));
      return [sampleValue(items ?? { type: 'string' }, root, depth + 1)];
    }
    default: {
      const properties = (s['properties'] ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s['required']) ? (s['required'] as string[]) : [];
      const out: Record<string, unknown> = {};
      for (const name of required) out[name] = sampleValue(properties[name] ?? { type: 'string' }, root, depth + 1);
      return out;
    }
  }
}

/**
 * Arguments from a one-line signature's argument list. The grammar is the one compact lines write
 * (src/core/argument-type.ts): `key?: type`, types `string`, `number`, `boolean`, `null`, literals,
 * `a | b`, `T[]`, `(T)[]`, `[A, B]`, `{a, b?: T}` (a bare field is a string), `Record<string, T>`.
 */
export function argumentsFromSignature(signature: string): Record<string, unknown> {
  const parser = new SignatureParser(signature);
  const out: Record<string, unknown> = {};
  for (const field of parser.fields(')', true)) if (!field.optional) out[field.name] = field.value;
  return out;
}

interface Field {
  readonly name: string;
  readonly optional: boolean;
  readonly value: unknown;
}

class SignatureParser {
  private at = 0;
  /** Something a required field needs was cut short (`…`, `{…}`). */
  incomplete = false;
  constructor(private readonly text: string) {}

  /** Fields up to `end` (or the end of the text): `key?: type, …`; `needed`: the object itself is required. */
  fields(end: string, needed: boolean): Field[] {
    const out: Field[] = [];
    while (this.at < this.text.length && this.peek() !== end) {
      this.skip(', ');
      if (this.text.startsWith('…', this.at)) {
        this.at++;
        // Required fields come first: a cut after an optional one hides only optional ones.
        if (needed && !out.some((f) => f.optional)) this.incomplete = true;
        continue;
      }
      const name = this.key();
      const optional = this.skip('?');
      const value = this.skip(': ') ? this.union(needed && !optional) : 'x';
      out.push({ name, optional, value });
      if (!this.skip(', ')) break;
    }
    return out;
  }

  private union(needed: boolean): unknown {
    const members = [this.postfix(needed)];
    while (this.skip(' | ')) members.push(this.postfix(false));
    return members.find((m) => m !== null && m !== UNKNOWN) ?? members[0];
  }

  private postfix(needed: boolean): unknown {
    let value = this.primary(needed);
    while (this.skip('[]')) value = [value];
    return value;
  }

  private primary(needed: boolean): unknown {
    for (const [word, value] of WORDS) if (this.skipWord(word)) return value;
    if (this.skip('(')) {
      const inner = this.union(needed);
      this.skip(')');
      return inner;
    }
    if (this.skip('Record<string, ')) {
      this.union(false);
      this.skip('>');
      return {};
    }
    if (this.skip('[')) {
      const items = [this.union(needed)];
      while (this.skip(', ')) if (!this.skip('…')) items.push(this.union(needed));
      this.skip(']');
      return items;
    }
    if (this.skip('{')) {
      const fields = this.fields('}', needed);
      this.skip('}');
      return Object.fromEntries(fields.filter((f) => !f.optional).map((f) => [f.name, f.value]));
    }
    if (this.peek() === '"') return JSON.parse(this.quoted());
    const number = /^-?\d+(\.\d+)?/.exec(this.text.slice(this.at));
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    this.at++;
    return UNKNOWN;
  }

  private key(): string {
    if (this.peek() === '"') return JSON.parse(this.quoted()) as string;
    const match = /^[A-Za-z_$][\w$-]*/.exec(this.text.slice(this.at));
    this.at += match ? match[0].length : 1;
    return match ? match[0] : '';
  }

  private quoted(): string {
    const start = this.at++;
    while (this.at < this.text.length && this.text[this.at] !== '"') this.at += this.text[this.at] === '\\' ? 2 : 1;
    this.at++;
    return this.text.slice(start, this.at);
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }

  private skip(token: string): boolean {
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  private skipWord(word: string): boolean {
    if (!this.text.startsWith(word, this.at) || /[\w$]/.test(this.text[this.at + word.length] ?? '')) return false;
    this.at += word.length;
    return true;
  }
}

const UNKNOWN = Symbol('unknown');
const WORDS: readonly [string, unknown][] = [
  ['string', 'x'],
  ['number', 1],
  ['boolean', true],
  ['null', null],
  ['true', true],
  ['false', false],
  ['unknown', 'x'],
  ['never', 'x'],
];

/** How a model slips on a name it read: no server prefix, a dot or a slash, dashes, two letters swapped. */
export function nearMisses(name: string): { kind: string; name: string }[] {
  const match = /^mcp__([\w-]+?)__(.+)$/.exec(name);
  if (!match) return [];
  const [, server, tool] = match as unknown as [string, string, string];
  const swapAt = Math.max(1, Math.floor(tool.length / 2));
  const swapped = tool.slice(0, swapAt - 1) + tool[swapAt] + tool[swapAt - 1] + tool.slice(swapAt + 1);
  return [
    { kind: 'no server prefix', name: tool },
    { kind: 'server.tool', name: `${server}.${tool}` },
    { kind: 'server/tool-with-dashes', name: `${server}/${tool.replace(/_/g, '-')}` },
    ...(swapped !== tool ? [{ kind: 'two letters swapped', name: `mcp__${server}__${swapped}` }] : []),
  ];
}
