/**
 * G10 — the scanner: deterministic, offline rules over every field of a tool definition a model
 * reads (name, title, description, every string and property name in its schemas, annotations).
 * Each finding names its rule, its severity, the field and one line a reviewer understands.
 *
 * `high` findings hold a tool even on first sight (it waits for an operator); `medium` ones are
 * shown (CLI, status page) and do not hold. Rules look for text aimed at the model rather than the
 * user: hidden characters, orders to ignore what came before or to keep something from the user,
 * `<IMPORTANT>`-style tags, paths where secrets live, other servers' tools named in a description
 * (shadowing), and strings shaped like credentials.
 */
import type { ToolDefinition } from './definition.js';
import { fieldTexts } from './fields.js';

export type Severity = 'high' | 'medium';

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

/** Characters a reader does not see but a model reads: zero-width, bidirectional controls, tags. */
const INVISIBLE =
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;

interface PhraseRule {
  readonly rule: string;
  readonly severity: Severity;
  readonly pattern: RegExp;
  readonly why: string;
}

/** Phrases matched on the text with invisible characters removed, case-insensitive. */
const PHRASES: readonly PhraseRule[] = [
  {
    rule: 'directive-tag',
    severity: 'high',
    pattern:
      /<\s*\/?\s*(important|system|instructions?|admin|critical|hidden|secret)\b[^>]{0,40}>|\[\/?INST\]|<\|im_start\|>/i,
    why: 'an <IMPORTANT>-style tag: orders dressed up as structure for the model',
  },
  {
    rule: 'override-instructions',
    severity: 'high',
    pattern:
      /\b(ignore|disregard|forget|override)\b.{0,20}\b(all\s+)?(previous|prior|above|earlier|other|system|your)\b.{0,20}\b(instructions?|prompts?|rules|messages|guidelines)\b/is,
    why: 'tells the model to set aside its instructions',
  },
  {
    rule: 'conceal-from-user',
    severity: 'high',
    pattern:
      /\b(do\s*n[o']t|never|without)\b.{0,20}\b(tell|telling|mention|mentioning|inform|informing|reveal|revealing|notify|notifying|show|showing|alert|alerting)\b.{0,20}\bthe\s+user\b|\bkeep\s+(this|it)\s+(secret|hidden|confidential)\b/is,
    why: 'tells the model to keep something from the user',
  },
  {
    rule: 'secret-place',
    severity: 'high',
    pattern:
      /~\/\.ssh\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials|(^|[\s'"`(/=:])\.env\b|\.netrc\b|\.npmrc\b|\.pgpass\b|\.git-credentials\b|\.docker\/config\.json|\.kube\/config\b|\bcredentials\.json\b|\/etc\/shadow\b/i,
    why: 'names a file where secrets live (SSH keys, cloud credentials, .env files)',
  },
  {
    // Wallet and crypto tools take keys as arguments for a living: worth showing, not holding.
    rule: 'key-material',
    severity: 'medium',
    pattern: /\bprivate[\s_-]?keys?\b|\bseed\s+phrase\b|\bmnemonic\b/i,
    why: 'mentions private keys or seed phrases',
  },
  {
    rule: 'model-directive',
    severity: 'medium',
    pattern:
      /\bbefore\s+(answering|responding|replying|using\s+any\s+other\s+tool)\b|\byou\s+must\s+(always|first|also)\b|\b(always|first|also)\s+(call|invoke|run)\s+(the\s+)?[`'"]?[A-Za-z][\w-]*_[\w-]+/i,
    why: 'gives the model orders about other steps of its work',
  },
];

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

/** Every finding for one definition, in field order, each rule at most once per field. */
export function scanDefinition(definition: ToolDefinition, context: ScanContext): Finding[] {
  const findings: Finding[] = [];
  for (const { field, text } of fieldTexts(definition)) {
    findings.push(...hiddenCharacters(field, text));
    const plain = text.replace(INVISIBLE, '');
    for (const phrase of PHRASES) {
      if (phrase.pattern.test(plain))
        findings.push({ rule: phrase.rule, severity: phrase.severity, field, message: `${phrase.why} (${field})` });
    }
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
  return findings;
}

/** Whether any finding holds the tool on its own. */
export function holdsOnSight(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'high');
}

function hiddenCharacters(field: string, text: string): Finding[] {
  const found = [...new Set(text.match(INVISIBLE) ?? [])];
  if (found.length === 0) return [];
  const codes = found.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
  return [
    {
      rule: 'hidden-unicode',
      severity: 'high',
      field,
      message: `invisible or bidirectional characters (${codes}) in ${field}: text a reviewer cannot see`,
    },
  ];
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
