/**
 * G13 — changing one part of a JSON(C) file and leaving every other byte as it was: the servers
 * part of a client's config (its other keys, comments and layout untouched), an entry added to or
 * taken out of the gateway's servers file (the other entries and sections untouched).
 *
 * Values are written as `JSON.stringify` writes them, indented like the file around them (its
 * indent unit, tabs or spaces, found from the file). Pure: text in, text out.
 */
import { type JsonMember, type JsonNode, memberOf, nodeAt, parseJsonc } from './jsonc.js';

/** The file's indent unit: the leading whitespace of its first indented line (two spaces if none). */
export function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  return match ? match[1]! : '  ';
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `value` as JSON whose lines after the first start with `indent` (it continues a line at that depth). */
function render(value: unknown, unit: string, indent: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`\n${indent}`);
}

/** True when the object's first member is on a line of its own (a multi-line object). */
function multiLine(text: string, node: JsonNode & { kind: 'object' }): boolean {
  const first = node.members[0];
  return first !== undefined && text.slice(node.start, first.keyStart).includes('\n');
}

/** The text with the value `node` spans replaced by `value`, indented like the line it starts on. */
export function replaceNode(text: string, node: JsonNode, value: unknown, unit = indentUnit(text)): string {
  return text.slice(0, node.start) + render(value, unit, lineIndent(text, node.start)) + text.slice(node.end);
}

/**
 * The text with the value at `path` set to `value`: replaced where it exists, added as the last
 * member of its object where only its last key is missing. Throws when a key before the last is
 * missing or not an object (callers create sections one level at a time).
 */
export function setAt(text: string, path: readonly string[], value: unknown): string {
  const unit = indentUnit(text);
  const root = parseJsonc(text).root;
  const existing = nodeAt(root, path);
  if (existing) return replaceNode(text, existing, value, unit);
  const parent = nodeAt(root, path.slice(0, -1));
  if (parent?.kind !== 'object')
    throw new Error(`no object at "${path.slice(0, -1).join('.')}" to add "${path.at(-1)}" to`);
  return insertMembers(text, parent, [[path.at(-1)!, value]], unit);
}

/** The text with members added at the end of the object `node`, laid out like its other members. */
export function insertMembers(
  text: string,
  node: JsonNode & { kind: 'object' },
  members: readonly (readonly [string, unknown])[],
  unit = indentUnit(text),
): string {
  if (members.length === 0) return text;
  const last = node.members.at(-1);
  if (last === undefined) {
    const outer = lineIndent(text, node.start);
    const inner = outer + unit;
    const body = members.map(([key, value]) => `${inner}${JSON.stringify(key)}: ${render(value, unit, inner)}`);
    return `${text.slice(0, node.start)}{\n${body.join(',\n')}\n${outer}}${text.slice(node.end)}`;
  }
  if (!multiLine(text, node)) {
    const body = members.map(([key, value]) => `, ${JSON.stringify(key)}: ${JSON.stringify(value)}`).join('');
    return text.slice(0, last.value.end) + body + text.slice(last.value.end);
  }
  const indent = lineIndent(text, last.keyStart);
  const body = members.map(([key, value]) => `,\n${indent}${JSON.stringify(key)}: ${render(value, unit, indent)}`);
  return text.slice(0, last.value.end) + body.join('') + text.slice(last.value.end);
}

/**
 * The text without the member `key` of the object at `path` (and its comma); every copy of it when
 * the key repeats (JSON keeps the last, so leaving an earlier one would bring it back). Unchanged
 * when absent.
 */
export function deleteMember(text: string, path: readonly string[], key: string): string {
  const node = nodeAt(parseJsonc(text).root, path);
  if (node?.kind !== 'object') return text;
  const member = memberOf(node, key);
  if (!member) return text;
  return deleteMember(deleteOne(text, node, member), path, key);
}

function deleteOne(text: string, node: JsonNode & { kind: 'object' }, member: JsonMember): string {
  const index = node.members.lastIndexOf(member);
  const next = node.members[index + 1];
  const previous = node.members[index - 1];
  // From this key to the next key (its comma and the space after it go too) …
  if (next) return text.slice(0, member.keyStart) + text.slice(next.keyStart);
  // … or, for the last member, from the end of the one before it (the comma before it goes).
  if (previous) return text.slice(0, previous.value.end) + text.slice(member.value.end);
  return `${text.slice(0, node.start)}{}${text.slice(node.end)}`;
}
