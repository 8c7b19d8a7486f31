/**
 * Third-party text on an operator's terminal, and in commands an operator pastes into a shell.
 *
 * A tool's name and text come from its server. Printed raw, ESC sequences recolour or clear the
 * screen, CR and BEL rewrite the line (a forged "pinned" row), and bidi controls reorder what is
 * shown; pasted into a shell, `x$(touch f)` runs. So everything the CLI prints of it goes through
 * `visibleText` (control and invisible characters shown as `\x1b` / `\u202e`), and every name in a
 * command it suggests through `shellWord` (POSIX quoting).
 */

/**
 * ASCII and Latin-1 control characters, DEL, zero-width and other invisible format characters,
 * line and paragraph separators, bidi controls, Unicode tag characters and variation selectors
 * (an emoji's U+FE0F is shown escaped too: it is invisible, and runs of them carry hidden bytes):
 * what a terminal acts on or hides.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{E0000}-\u{E007F}]|[\u{FE00}-\u{FE0F}]|[\u{E0100}-\u{E01EF}]/gu;

/** `\x1b` below U+0100, `\u202e` in the BMP, `\u{e0041}` above: each readable and unambiguous in JSON-like text. */
function escapeCharacter(c: string): string {
  const code = c.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}

/** Whether `text` holds anything `visibleText` would escape. */
export function hasUnsafeCharacters(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/** `text` with every control or invisible character written out (one line stays one line). */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/** JSON text with every such character as a `\uXXXX` escape (still valid JSON, and the same value). */
export function visibleJson(json: string): string {
  const unit = (c: string, i: number) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return json.replace(UNSAFE, (c) => Array.from({ length: c.length }, (_, i) => unit(c, i)).join(''));
}

/** Characters a POSIX shell word may hold bare: nothing expands, splits or globs. */
const BARE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/**
 * One shell word that reads back as `text`: bare when that is safe, else in single quotes (`'`
 * written `'\''`), or, when it holds control or invisible characters, in `$'…'` quoting with
 * those characters as three-digit octal bytes (`\033`; bash, zsh, ksh and POSIX.1-2024 sh read
 * it, and three digits cannot run into a following digit), so what an
 * operator sees is what the shell gets.
 */
export function shellWord(text: string): string {
  if (BARE.test(text)) return text;
  if (!hasUnsafeCharacters(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  let out = '';
  for (const c of text) {
    if (c === '\\' || c === "'") out += `\\${c}`;
    else if (hasUnsafeCharacters(c))
      out += [...Buffer.from(c, 'utf8')].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
    else out += c;
  }
  return `$'${out}'`;
}
