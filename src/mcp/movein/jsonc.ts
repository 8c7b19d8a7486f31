/**
 * G13 — reading a client's config as the client does, and knowing where each value sits in it.
 *
 * VS Code and Cursor accept JSON with comments (`//`, `/* *\/`) and trailing commas in their
 * `mcp.json` and settings files; Claude Desktop and Claude Code write plain JSON. One reader takes
 * all of them. Besides the value it returns every value's place in the text (`JsonNode`), so a
 * rewrite can replace the servers part alone and keep every other byte of the file as it was.
 *
 * Bounded: nesting deeper than `maxDepth` is refused (a hostile file cannot exhaust the stack);
 * the file's size is bounded by whoever read it (config-file.ts). Duplicate keys keep the last
 * value, as `JSON.parse` does; a `__proto__` key is an own key, as `JSON.parse` makes it.
 *
 * Pure: text in, value and places out.
 */

/** Where one value sits: `[start, end)` offsets into the text. */
export type JsonNode =
  | { readonly kind: 'object'; readonly start: number; readonly end: number; readonly members: readonly JsonMember[] }
  | { readonly kind: 'array'; readonly start: number; readonly end: number; readonly items: readonly JsonNode[] }
  | { readonly kind: 'scalar'; readonly start: number; readonly end: number };

/** One `"key": value` of an object, with where its key starts. */
export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsonNode;
}

export interface ParsedJsonc {
  readonly value: unknown;
  readonly root: JsonNode;
}

/** Why the text is not JSON(C), at a line and column. */
export class JsoncError extends Error {
  override name = 'JsoncError';
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** Nesting past this is refused: no client config comes near it. */
export const DEFAULT_MAX_DEPTH = 128;

export interface JsoncOptions {
  /** Accept `//` and `/* *\/` comments and trailing commas (VS Code, Cursor). Default true. */
  readonly comments?: boolean;
  readonly maxDepth?: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORDS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

export function parseJsonc(text: string, options: JsoncOptions = {}): ParsedJsonc {
  const reader = new Reader(text, options.comments ?? true, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  // A byte-order mark is not part of the JSON (editors on Windows write one).
  if (text.charCodeAt(0) === 0xfeff) reader.pos = 1;
  reader.skipSpace();
  const parsed = reader.value(0);
  reader.skipSpace();
  if (reader.pos < text.length) reader.fail('expected the end of the file after the top-level value');
  return parsed;
}

/** The node at `path` (object keys, the last duplicate winning), or undefined. */
export function nodeAt(root: JsonNode, path: readonly string[]): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const key of path) {
    if (node?.kind !== 'object') return undefined;
    node = memberOf(node, key)?.value;
  }
  return node;
}

/** The member `key` of an object node (the last one when the key repeats). */
export function memberOf(node: JsonNode, key: string): JsonMember | undefined {
  if (node.kind !== 'object') return undefined;
  return node.members.findLast((member) => member.key === key);
}

class Reader {
  pos = 0;

  constructor(
    private readonly text: string,
    private readonly comments: boolean,
    private readonly maxDepth: number,
  ) {}

  value(depth: number): ParsedJsonc {
    if (depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth} levels`);
    const char = this.text[this.pos];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') {
      const start = this.pos;
      return { value: this.string(), root: { kind: 'scalar', start, end: this.pos } };
    }
    return this.scalar();
  }

  private object(depth: number): ParsedJsonc {
    const start = this.pos++;
    const value: Record<string, unknown> = {};
    const members: JsonMember[] = [];
    this.skipSpace();
    while (this.text[this.pos] !== '}') {
      if (this.text[this.pos] !== '"') this.fail('expected a "key" or "}"');
      const keyStart = this.pos;
      const key = this.string();
      this.skipSpace();
      this.expect(':');
      this.skipSpace();
      const member = this.value(depth + 1);
      // An own property even for "__proto__", as JSON.parse makes it.
      Object.defineProperty(value, key, { value: member.value, enumerable: true, writable: true, configurable: true });
      members.push({ key, keyStart, value: member.root });
      if (!this.separator('}')) break;
    }
    this.expect('}');
    return { value, root: { kind: 'object', start, end: this.pos, members } };
  }

  private array(depth: number): ParsedJsonc {
    const start = this.pos++;
    const value: unknown[] = [];
    const items: JsonNode[] = [];
    this.skipSpace();
    while (this.text[this.pos] !== ']') {
      const item = this.value(depth + 1);
      value.push(item.value);
      items.push(item.root);
      if (!this.separator(']')) break;
    }
    this.expect(']');
    return { value, root: { kind: 'array', start, end: this.pos, items } };
  }

  /** After a member or item: true when another follows (a trailing comma before `close` allowed with comments). */
  private separator(close: string): boolean {
    this.skipSpace();
    if (this.text[this.pos] !== ',') return false;
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === close) {
      if (!this.comments) this.fail(`a trailing comma before "${close}"`);
      return false;
    }
    return true;
  }

  private string(): string {
    const start = this.pos++;
    for (;;) {
      const char = this.text[this.pos];
      if (char === undefined) this.fail('a string that never ends', start);
      if (char === '"') break;
      this.pos += char === '\\' ? 2 : 1;
    }
    this.pos++;
    try {
      // JSON's own rules for escapes and control characters.
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      this.fail('a string with a bad escape or a control character in it', start);
    }
  }

  private scalar(): ParsedJsonc {
    const start = this.pos;
    for (const [word, value] of WORDS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return { value, root: { kind: 'scalar', start, end: this.pos } };
      }
    }
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(this.text);
    if (!number) this.fail(this.pos >= this.text.length ? 'the file ends before a value' : 'expected a value');
    this.pos += number[0].length;
    return { value: Number(number[0]), root: { kind: 'scalar', start, end: this.pos } };
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) this.fail(`expected "${char}"`);
    this.pos++;
  }

  skipSpace(): void {
    for (;;) {
      const char = this.text[this.pos];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') this.pos++;
      else if (char === '/' && this.comments && this.text[this.pos + 1] === '/') {
        const end = this.text.indexOf('\n', this.pos);
        this.pos = end === -1 ? this.text.length : end + 1;
      } else if (char === '/' && this.comments && this.text[this.pos + 1] === '*') {
        const end = this.text.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('a /* comment that never ends');
        this.pos = end + 2;
      } else return;
    }
  }

  fail(reason: string, at = this.pos): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    throw new JsoncError(reason, line, column);
  }
}
