/**
 * G5 — resource-template matching in linear time. Templates come from upstream servers (third
 * party) and URIs from clients; the SDK's matcher builds a backtracking regex per call, so a
 * hostile template (`h:{v0}{v1}…{v9}`) or an ordinary one (`git://{+repo}/blob/{+path}`) with a
 * long URI froze the gateway for seconds. Here a template is compiled once (per list) into
 * literals and values, and a URI is matched by one left-to-right scan:
 *
 * - RFC 6570 levels 1–4 as the SDK reads them: `{x}` (no `/` or `,`), `{+x}` / `{#x}` (anything),
 *   `{.x}` (`.` then no `/` or `,`), `{/x}` (`/` then no `/` or `,`), `{;x}` (no `/`),
 *   `{?a,b}` / `{&a}` (`?a=…&b=…`, values without `&`); a `*` explode allows `,`.
 * - A value ends at the first place the next literal occurs (leftmost, no backtracking); the last
 *   value runs to the end of the URI. Every value needs at least one character.
 * - Two values with no literal between them (`{a}{b}`) have no single reading: such a template
 *   does not compile (`UriTemplateError`), and the caller drops it with a warning.
 */

export class UriTemplateError extends Error {
  override name = 'UriTemplateError';
}

type Token =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'value'; readonly forbidden: string; readonly name: string };

export interface CompiledUriTemplate {
  readonly template: string;
  /** Whether `uri` is an expansion of the template (time linear in `uri.length` × template size). */
  matches(uri: string): boolean;
}

const NAME = /^[A-Za-z0-9_.%]+(?::[0-9]+)?\*?$/;

/** Compile a template; throws UriTemplateError when it is malformed or ambiguous. */
export function compileUriTemplate(template: string): CompiledUriTemplate {
  const tokens = tokenize(template);
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i]!.kind === 'value' && tokens[i - 1]!.kind === 'value')
      throw new UriTemplateError(
        `adjacent expressions before {${(tokens[i] as { name: string }).name}} (no literal between them)`,
      );
  }
  return { template, matches: (uri) => matchTokens(tokens, uri) };
}

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let literal = '';
  const pushLiteral = (text: string) => {
    literal += text;
  };
  const flush = () => {
    if (literal) tokens.push({ kind: 'literal', text: literal });
    literal = '';
  };
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      pushLiteral(template.slice(i));
      break;
    }
    pushLiteral(template.slice(i, open));
    const close = template.indexOf('}', open);
    if (close < 0) throw new UriTemplateError('an unclosed "{"');
    const body = template.slice(open + 1, close);
    const operator = /^[+#./;?&]/.test(body) ? body[0]! : '';
    const names = body.slice(operator.length).split(',');
    if (names.some((name) => !NAME.test(name))) throw new UriTemplateError(`a malformed expression {${body}}`);
    const exploded = names.some((name) => name.endsWith('*'));
    const plain = exploded ? '/' : '/,';
    const value = (forbidden: string, name: string) => {
      flush();
      tokens.push({ kind: 'value', forbidden, name });
    };
    if (operator === '?' || operator === '&') {
      names.forEach((name, n) => {
        pushLiteral(`${n === 0 ? operator : '&'}${name.replace(/\*$/, '')}=`);
        value('&', name);
      });
    } else {
      const name = names[0]!;
      if (operator === '.') pushLiteral('.');
      if (operator === '/') pushLiteral('/');
      value(operator === '+' || operator === '#' ? '' : operator === ';' ? '/' : plain, name);
    }
    i = close + 1;
  }
  flush();
  return tokens;
}

function matchTokens(tokens: readonly Token[], uri: string): boolean {
  let pos = 0;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.kind === 'literal') {
      if (!uri.startsWith(token.text, pos)) return false;
      pos += token.text.length;
      continue;
    }
    const next = tokens[t + 1];
    // The value runs to the next literal's first occurrence (at least one character), or to the end.
    const end = next === undefined ? uri.length : uri.indexOf((next as { text: string }).text, pos + 1);
    if (end < 0 || end <= pos) return false;
    if (!allowed(uri, pos, end, token.forbidden)) return false;
    pos = end;
  }
  return pos === uri.length;
}

function allowed(uri: string, from: number, to: number, forbidden: string): boolean {
  if (!forbidden) return true;
  for (let i = from; i < to; i++) if (forbidden.includes(uri[i]!)) return false;
  return true;
}
