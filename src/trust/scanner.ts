/**
 * G10 — the scanner: deterministic, offline rules over every field of a tool definition a model
 * reads (name, title, description, every string and property name in its schemas, annotations).
 * Each finding names its rule, its severity, the field and one line a reviewer understands.
 *
 * `high` findings hold a tool even on first sight (it waits for an operator); `medium` ones are
 * shown (CLI, status page) and do not hold. Rules look for text aimed at the model rather than the
 * user: hidden characters (variation selectors that smuggle bytes included), orders to ignore what
 * came before or to keep something from the user, `<IMPORTANT>`-style tags, fake `### System:`
 * blocks, HTML comments, markdown images whose URL carries data out, paths where secrets live,
 * base64 that decodes to any of these, other servers' tools named in a description (shadowing),
 * and strings shaped like credentials.
 *
 * Phrases are matched on the folded text (fold.ts): look-alike letters of other scripts, fullwidth
 * forms and invisible characters do not hide a phrase. A paraphrase without the rules' words is
 * not caught: these are fixed rules, not a judge of meaning.
 *
 * G5: the work is bounded: a definition's first SCAN_CHARS characters over at most SCAN_FIELDS
 * texts are scanned (past that a `high` finding holds the tool for a person to look at; base64 is
 * decoded within that text, payloads.ts), and at most MAX_FINDINGS findings are kept (the last
 * says how many more, and is `high` when one of them was).
 */
import type { ToolDefinition } from './definition.js';
import { type FieldText, fieldTexts } from './fields.js';
import { foldText } from './fold.js';
import { encodedInstructions, imageLinks } from './payloads.js';
import { INVISIBLE, PHRASES, phraseMatches, type Severity, SMUGGLING_SELECTORS } from './phrases.js';

export type { Severity };

export interface Finding {
  /** The rule's stable id (`hidden-unicode`, `override-instructions`, …). */
  readonly rule: string;
  readonly severity: Severity;
  /** Where: `description`, `inputSchema.properties.path.description`, … */
  readonly field: string;
  /** One line: what was found and why it matters. */
  readonly message: string;
}

/** Another server's tool, for the shadowing rule. */
export interface OtherTool {
  readonly server: string;
  /** Its own name on that server. */
  readonly tool: string;
}

export interface ScanContext {
  /** The server the definition comes from. */
  readonly server: string;
  /** Tools other servers list, from `toolOwners` (a name this server lists too is not shadowing). */
  readonly owners?: ToolOwners;
}

interface SecretShape {
  readonly label: string;
  readonly pattern: RegExp;
}

/** Strings shaped like credentials (a leak, not an order: shown, not held). */
const SECRET_SHAPES: readonly SecretShape[] = [
  { label: 'an AWS access key id', pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { label: 'a GitHub token', pattern: /\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/ },
  { label: 'an API secret key', pattern: /\bsk-(proj-|ant-)?[A-Za-z0-9_-]{24,}\b/ },
  { label: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/ },
  { label: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { label: 'a private key block', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { label: 'a JSON web token', pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
];

/** G5: the scanner's budget per definition: characters and texts read, findings kept. */
export const SCAN_CHARS = 1_048_576;
export const SCAN_FIELDS = 20_000;
export const MAX_FINDINGS = 50;

/** Every finding for one definition, in field order, each rule at most once per field. */
export function scanDefinition(definition: ToolDefinition, context: ScanContext): Finding[] {
  const findings: Finding[] = [];
  const { texts, cut } = withinBudget(fieldTexts(definition, SCAN_FIELDS + 1));
  for (const { field, text } of texts) {
    findings.push(...hiddenCharacters(field, text));
    const plain = foldText(text);
    for (const phrase of PHRASES) {
      if (phraseMatches(phrase, plain))
        findings.push({ rule: phrase.rule, severity: phrase.severity, field, message: `${phrase.why} (${field})` });
    }
    const image = imageFinding(field, plain);
    if (image) findings.push(image);
    const encoded = encodedFinding(field, plain);
    if (encoded) findings.push(encoded);
    for (const shape of SECRET_SHAPES) {
      if (shape.pattern.test(plain))
        findings.push({
          rule: 'embedded-secret',
          severity: 'medium',
          field,
          message: `contains what looks like ${shape.label} (${field})`,
        });
    }
    const shadowing = shadowingFinding(field, plain, context);
    if (shadowing) findings.push(shadowing);
  }
  if (cut)
    findings.push({
      rule: 'too-large',
      severity: 'high',
      field: cut,
      message: `too much text to scan (more than ${SCAN_FIELDS} texts or ${SCAN_CHARS} characters; the rest starts at ${cut}): held for a person to read`,
    });
  return keptFindings(findings);
}

/** The first MAX_FINDINGS - 1 findings and one line for the rest (`high` when one of them is). */
function keptFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS) return findings;
  const rest = findings.slice(MAX_FINDINGS - 1);
  const high = rest.filter((f) => f.severity === 'high').length;
  return [
    ...findings.slice(0, MAX_FINDINGS - 1),
    {
      rule: 'more-findings',
      severity: high > 0 ? 'high' : 'medium',
      field: rest[0]!.field,
      message: `${rest.length} more findings (${high} high), from ${rest[0]!.field} on: "toolsearch tools diff --full" shows the whole text`,
    },
  ];
}

/** The texts within SCAN_FIELDS and SCAN_CHARS, and the field where the budget ran out. */
function withinBudget(all: readonly FieldText[]): { texts: FieldText[]; cut?: string } {
  const texts: FieldText[] = [];
  let chars = 0;
  for (const [index, item] of all.entries()) {
    if (index >= SCAN_FIELDS) return { texts, cut: item.field };
    if (chars + item.text.length > SCAN_CHARS) {
      texts.push({ field: item.field, text: item.text.slice(0, SCAN_CHARS - chars) });
      return { texts, cut: item.field };
    }
    chars += item.text.length;
    texts.push(item);
  }
  return { texts };
}

/** Whether any finding holds the tool on its own. */
export function holdsOnSight(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'high');
}

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function hiddenCharacters(field: string, text: string): Finding[] {
  const found = [...new Set(text.match(INVISIBLE) ?? [])];
  const smuggling = text.match(SMUGGLING_SELECTORS) ?? [];
  const selectors = [...new Set(smuggling.join('').replace(/[\x00-\x7f]/g, ''))].slice(0, 8);
  const codes = [...found, ...selectors].map(codePoint).join(', ');
  if (codes === '') return [];
  return [
    {
      rule: 'hidden-unicode',
      severity: 'high',
      field,
      message: `invisible or bidirectional characters (${codes}${selectors.length > 0 ? ': variation selectors that can carry hidden bytes' : ''}) in ${field}: text a reviewer cannot see`,
    },
  ];
}

function imageFinding(field: string, text: string): Finding | undefined {
  let plain: string | undefined;
  for (const { url, carriesData } of imageLinks(text)) {
    if (carriesData)
      return {
        rule: 'image-exfiltration',
        severity: 'high',
        field,
        message: `an image link whose URL carries data (${url.slice(0, 80)}) in ${field}: a client that shows it sends that data out`,
      };
    plain ??= url;
  }
  if (plain === undefined) return undefined;
  return {
    rule: 'image-link',
    severity: 'medium',
    field,
    message: `an image link (${plain.slice(0, 80)}) in ${field}: a client that shows it fetches that URL`,
  };
}

function encodedFinding(field: string, text: string): Finding | undefined {
  for (const { phrase } of encodedInstructions(text))
    return {
      rule: 'encoded-instructions',
      severity: 'high',
      field,
      message: `base64 text in ${field} that decodes to what the ${phrase.rule} rule holds a tool for (${phrase.why})`,
    };
  return undefined;
}

/** An order near another server's tool name is shadowing; the name alone is worth showing. */
const OVERRIDE_NEAR =
  /\b(instead\s+of|rather\s+than|before|after|whenever|always|never|do\s+not|don't|replace|override)\b/i;

/** Other servers' tools by name: which servers list a name (built once per catalog, not per scan). */
export type ToolOwners = ReadonlyMap<string, readonly string[]>;

/**
 * Distinctive names only (with `_`, `-` or an inner capital, at least 4 characters): plain words
 * like "search" name half the catalog. `mcp__<server>__…` names are matched by their prefix.
 */
function isDistinctive(tool: string): boolean {
  return tool.length >= 4 && /[_-]|[a-z][A-Z]/.test(tool);
}

export function toolOwners(tools: readonly OtherTool[]): ToolOwners {
  const index = new ToolOwnersIndex();
  const byServer = new Map<string, string[]>();
  for (const { server, tool } of tools) byServer.set(server, [...(byServer.get(server) ?? []), tool]);
  for (const [server, names] of byServer) index.set(server, names);
  return index.owners;
}

/** `toolOwners` kept one server at a time: a listing costs that server's names, not the catalog's. */
export class ToolOwnersIndex {
  readonly owners = new Map<string, string[]>();
  private readonly names = new Map<string, readonly string[]>();

  set(server: string, tools: readonly string[]): void {
    this.delete(server);
    const distinct = [...new Set(tools.filter(isDistinctive))];
    this.names.set(server, distinct);
    for (const name of distinct) {
      const list = this.owners.get(name);
      if (list) list.push(server);
      else this.owners.set(name, [server]);
    }
  }

  delete(server: string): void {
    for (const name of this.names.get(server) ?? []) {
      const rest = (this.owners.get(name) ?? []).filter((s) => s !== server);
      if (rest.length > 0) this.owners.set(name, rest);
      else this.owners.delete(name);
    }
    this.names.delete(server);
  }
}

const WORD = /[A-Za-z0-9_-]+/g;
const QUALIFIED = /^mcp__(.+?)__(.+)$/;

/** The first word of `text` that is another server's tool (its own name or `mcp__server__tool`). */
function shadowedTool(text: string, context: ScanContext): { server: string; tool: string; index: number } | undefined {
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const qualified = QUALIFIED.exec(word);
    if (qualified && qualified[1] !== context.server) return { server: qualified[1]!, tool: word, index: match.index };
    const owners = context.owners?.get(word);
    const server = owners?.find((s) => s !== context.server);
    if (server !== undefined && !owners!.includes(context.server)) return { server, tool: word, index: match.index };
  }
  return undefined;
}

/** How near (characters) an order word must be to the other tool's name to count as an order about it. */
const ORDER_REACH = 60;

function shadowingFinding(field: string, text: string, context: ScanContext): Finding | undefined {
  const hit = shadowedTool(text, context);
  if (!hit) return undefined;
  const near = text.slice(Math.max(0, hit.index - ORDER_REACH), hit.index + hit.tool.length + ORDER_REACH);
  const ordered = OVERRIDE_NEAR.test(near);
  return {
    rule: 'shadowing',
    severity: ordered ? 'high' : 'medium',
    field,
    message: ordered
      ? `gives orders about "${hit.tool}" of server "${hit.server}" (${field}): a tool steering another server's tools`
      : `names "${hit.tool}" of server "${hit.server}" (${field})`,
  };
}
