/**
 * C7 — a regular-expression matcher that cannot hang.
 *
 * JavaScript's own RegExp backtracks: `(a+)+$` against a long line of `a`s, or even
 * `\w*\w*\w*\w*x`, takes exponential or high-polynomial time, and a sync search cannot be
 * interrupted. So patterns from the model are compiled here into a Thompson NFA and run as a
 * Pike VM (a set of states stepped once per input character): time is O(subject × pattern)
 * whatever the pattern. The price is the syntax: no backreferences and no lookarounds (they are
 * what needs backtracking); such patterns are rejected with a clear error instead.
 *
 * Supported: literals, `.`, classes `[a-z]`/`[^…]`, `\d \w \s \D \W \S \b \B`, escapes
 * (`\n \t \xHH \uHHHH`), groups `(…)`, `(?:…)`, `(?<name>…)`, alternation, `* + ? {n} {n,} {n,m}`
 * (lazy forms match the same set), anchors `^ $`. Always case-insensitive.
 */

export class UnsupportedPatternError extends Error {
  override name = 'UnsupportedPatternError';
}

type CharTest = (c: number) => boolean;
type Ast =
  | { t: 'char'; test: CharTest }
  | { t: 'assert'; kind: '^' | '$' | 'b' | 'B' }
  | { t: 'seq'; items: Ast[] }
  | { t: 'alt'; options: Ast[] }
  | { t: 'repeat'; item: Ast; min: number; max: number };

/** Counted repetitions are copied; past this many NFA states the pattern is refused. */
const MAX_STATES = 10_000;
const MAX_REPEAT = 1_000;

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0xfeff ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x3000;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

function foldCase(c: number): number[] {
  const s = String.fromCharCode(c);
  const lower = s.toLowerCase().charCodeAt(0);
  const upper = s.toUpperCase().charCodeAt(0);
  return lower === upper ? [c] : [lower, upper];
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  parse(): Ast {
    const ast = this.alternation();
    if (this.pos < this.src.length) this.fail(`unexpected "${this.src[this.pos]}"`);
    return ast;
  }

  private fail(message: string): never {
    throw new UnsupportedPatternError(`${message} at position ${this.pos}`);
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private alternation(): Ast {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { t: 'alt', options };
  }

  private sequence(): Ast {
    const items: Ast[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { t: 'seq', items };
  }

  private quantified(atom: Ast): Ast {
    let result = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
        if (!m) return result; // a literal "{", as JavaScript reads it without the u flag
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.fail('repeat count too large');
        if (max < min) this.fail('numbers out of order in {} quantifier');
        this.pos += m[0].length - 1;
      } else return result;
      this.pos++;
      if (this.peek() === '?') this.pos++; // lazy: same language
      if (result.t === 'assert') this.fail('nothing to repeat');
      result = { t: 'repeat', item: result, min, max };
    }
  }

  private atom(): Ast {
    const c = this.src[this.pos++]!;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { t: 'char', test: this.charClass() };
      case '.':
        return { t: 'char', test: (x) => x !== 10 && x !== 13 };
      case '^':
        return { t: 'assert', kind: '^' };
      case '$':
        return { t: 'assert', kind: '$' };
      case '\\':
        return this.escape(false) as Ast;
      case '*':
      case '+':
      case '?':
        return this.fail('nothing to repeat');
      default:
        return literal(c.charCodeAt(0));
    }
  }

  private group(): Ast {
    if (this.src.startsWith('?:', this.pos)) this.pos += 2;
    else if (/^\?<[A-Za-z_$][\w$]*>/.test(this.src.slice(this.pos))) this.pos = this.src.indexOf('>', this.pos) + 1;
    else if (this.peek() === '?') this.fail('lookarounds and other (?…) groups are not supported');
    const inner = this.alternation();
    if (this.peek() !== ')') this.fail('missing )');
    this.pos++;
    return inner;
  }

  /** An escape after `\`. Inside a class, returns a CharTest; outside, an Ast. */
  private escape(inClass: boolean): Ast | CharTest {
    const c = this.src[this.pos++];
    if (c === undefined) this.fail('pattern ends with \\');
    const wrap = (test: CharTest): Ast | CharTest => (inClass ? test : { t: 'char', test });
    switch (c) {
      case 'd':
        return wrap(isDigit);
      case 'D':
        return wrap(not(isDigit));
      case 'w':
        return wrap(isWord);
      case 'W':
        return wrap(not(isWord));
      case 's':
        return wrap(isSpace);
      case 'S':
        return wrap(not(isSpace));
      case 'b':
        if (inClass) return (x) => x === 8;
        return { t: 'assert', kind: 'b' };
      case 'B':
        if (inClass) this.fail('\\B in a class');
        return { t: 'assert', kind: 'B' };
      case 'k':
        return this.fail('backreferences are not supported');
      default:
        break;
    }
    if (/[1-9]/.test(c!)) this.fail('backreferences are not supported');
    const code = this.escapedCode(c!);
    return inClass ? caseless(code) : literal(code);
  }

  private escapedCode(c: string): number {
    const named: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, '0': 0 };
    if (c in named) return named[c]!;
    if (c === 'x' || c === 'u') {
      const m =
        c === 'x'
          ? /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.pos))
          : /^([0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})/.exec(this.src.slice(this.pos));
      if (m) {
        this.pos += m[0].length;
        return Math.min(0xffff, parseInt(m[0].replace(/[{}]/g, ''), 16));
      }
    }
    return c.charCodeAt(0);
  }

  private charClass(): CharTest {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const tests: CharTest[] = [];
    let first = true;
    while (this.peek() !== ']' || first) {
      first = false;
      if (this.pos >= this.src.length) this.fail('missing ]');
      const lowTest = this.classAtom();
      if (
        typeof lowTest === 'number' &&
        this.peek() === '-' &&
        this.src[this.pos + 1] !== ']' &&
        this.pos + 1 < this.src.length
      ) {
        this.pos++;
        const high = this.classAtom();
        if (typeof high !== 'number') this.fail('invalid class range');
        if (high < lowTest) this.fail('range out of order in character class');
        tests.push((x) => foldCase(x).some((y) => y >= lowTest && y <= high));
      } else {
        tests.push(typeof lowTest === 'number' ? caseless(lowTest) : lowTest);
      }
    }
    this.pos++;
    const test: CharTest = (x) => tests.some((t) => t(x));
    return negated ? not(test) : test;
  }

  /** One class member: a code point (may start a range) or a class escape's test. */
  private classAtom(): number | CharTest {
    const c = this.src[this.pos++]!;
    if (c !== '\\') return c.charCodeAt(0);
    const next = this.peek();
    if (next !== undefined && 'dDwWsSb'.includes(next)) return this.escape(true) as CharTest;
    this.pos++;
    if (next === undefined) this.fail('pattern ends with \\');
    return this.escapedCode(next!);
  }
}

function caseless(code: number): CharTest {
  const forms = foldCase(code);
  return forms.length === 1 ? (x) => x === code : (x) => x === forms[0] || x === forms[1];
}

function literal(code: number): Ast {
  return { t: 'char', test: caseless(code) };
}

// ---- NFA ----------------------------------------------------------------------------------

enum Op {
  Char,
  Split,
  Assert,
  Match,
}

interface State {
  op: Op;
  test?: CharTest;
  assert?: '^' | '$' | 'b' | 'B';
  out: number;
  out2: number;
}

class Compiler {
  readonly states: State[] = [];

  add(state: State): number {
    if (this.states.length >= MAX_STATES) throw new UnsupportedPatternError('pattern too complex');
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Compile `ast` so that it continues to state `next`; returns its entry state. */
  compile(ast: Ast, next: number): number {
    switch (ast.t) {
      case 'char':
        return this.add({ op: Op.Char, test: ast.test, out: next, out2: -1 });
      case 'assert':
        return this.add({ op: Op.Assert, assert: ast.kind, out: next, out2: -1 });
      case 'seq': {
        let entry = next;
        for (let i = ast.items.length - 1; i >= 0; i--) entry = this.compile(ast.items[i]!, entry);
        return entry;
      }
      case 'alt': {
        let entry = this.compile(ast.options[ast.options.length - 1]!, next);
        for (let i = ast.options.length - 2; i >= 0; i--) {
          entry = this.add({ op: Op.Split, out: this.compile(ast.options[i]!, next), out2: entry });
        }
        return entry;
      }
      case 'repeat': {
        let entry = next;
        if (ast.max === Infinity) {
          // a loop: split → item → back to the split, or on to `next`
          const split = this.add({ op: Op.Split, out: -1, out2: next });
          this.states[split]!.out = this.compile(ast.item, split);
          entry = split;
        } else {
          // optional copies: each one may be taken (then on to the next copy) or skipped to `next`
          for (let i = ast.max - ast.min; i > 0; i--) {
            const taken = this.compile(ast.item, entry);
            entry = this.add({ op: Op.Split, out: taken, out2: next });
          }
        }
        for (let i = 0; i < ast.min; i++) entry = this.compile(ast.item, entry);
        return entry;
      }
    }
  }
}

/** A compiled pattern: `test(subject)` answers "does it match anywhere" in linear time. */
export class SafeRegex {
  private readonly states: State[];
  private readonly start: number;
  private current: Int32Array;
  private nextList: Int32Array;
  private readonly mark: Int32Array;
  private generation = 0;

  constructor(readonly source: string) {
    const ast = new Parser(source).parse();
    const compiler = new Compiler();
    const match = compiler.add({ op: Op.Match, out: -1, out2: -1 });
    this.start = compiler.compile(ast, match);
    this.states = compiler.states;
    this.current = new Int32Array(this.states.length);
    this.nextList = new Int32Array(this.states.length);
    this.mark = new Int32Array(this.states.length);
  }

  test(subject: string): boolean {
    let count = 0;
    const gen = () => ++this.generation;
    let g = gen();
    count = this.addState(this.current, 0, this.start, subject, 0, g);
    if (count < 0) return true;
    for (let i = 0; i < subject.length; i++) {
      const c = subject.charCodeAt(i);
      g = gen();
      let nextCount = 0;
      for (let j = 0; j < count; j++) {
        const s = this.states[this.current[j]!]!;
        if (s.op === Op.Char && s.test!(c)) {
          nextCount = this.addState(this.nextList, nextCount, s.out, subject, i + 1, g);
          if (nextCount < 0) return true;
        }
      }
      // unanchored search: a match may also start at the next position
      nextCount = this.addState(this.nextList, nextCount, this.start, subject, i + 1, g);
      if (nextCount < 0) return true;
      [this.current, this.nextList] = [this.nextList, this.current];
      count = nextCount;
    }
    return false;
  }

  /** Add `state` and its ε-closure at position `pos`; returns the new count, or -1 on a match. */
  private addState(list: Int32Array, count: number, state: number, subject: string, pos: number, g: number): number {
    const stack = [state];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id < 0 || this.mark[id] === g) continue;
      this.mark[id] = g;
      const s = this.states[id]!;
      switch (s.op) {
        case Op.Match:
          return -1;
        case Op.Split:
          stack.push(s.out2, s.out);
          break;
        case Op.Assert:
          if (assertionHolds(s.assert!, subject, pos)) stack.push(s.out);
          break;
        case Op.Char:
          list[count++] = id;
          break;
      }
    }
    return count;
  }
}

function assertionHolds(kind: '^' | '$' | 'b' | 'B', subject: string, pos: number): boolean {
  if (kind === '^') return pos === 0;
  if (kind === '$') return pos === subject.length;
  const before = pos > 0 && isWord(subject.charCodeAt(pos - 1));
  const after = pos < subject.length && isWord(subject.charCodeAt(pos));
  return kind === 'b' ? before !== after : before === after;
}
