/**
 * G10 — the scanner's phrase rules and invisible characters: what the scanner (scanner.ts) looks
 * for in a tool definition and the opt-in result marking (result-marks.ts) looks for in a tool's
 * result. Phrases are matched on folded text (fold.ts), so look-alike letters and fullwidth forms
 * do not hide them. Each pattern's repetition is bounded, so a match costs time linear in the text.
 */
/** `high` holds a tool even on first sight; `medium` is shown and does not hold. */
export type Severity = 'high' | 'medium';

/** Characters a reader does not see but a model reads: zero-width, bidirectional controls, tags. */
export const INVISIBLE =
  /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;

/**
 * Variation selectors used to smuggle bytes: a run of them, one after an ASCII character (letters
 * have no variants; `1️⃣`'s keycap is allowed) or any supplementary selector. An emoji's single
 * U+FE0F is not.
 */
export const SMUGGLING_SELECTORS =
  /[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]{2,}|[\x00-\x7f][\u{FE00}-\u{FE0F}](?!\u20E3)|[\u{E0100}-\u{E01EF}]/gu;

export interface PhraseRule {
  readonly rule: string;
  readonly severity: Severity;
  /** Any of them matching is a finding. */
  readonly patterns: readonly RegExp[];
  readonly why: string;
}

/** Phrases matched on the folded text (fold.ts). */
export const PHRASES: readonly PhraseRule[] = [
  {
    rule: 'directive-tag',
    severity: 'high',
    patterns: [
      /<\s*\/?\s*(important|system|instructions?|admin|critical|hidden|secret)\b[^>]{0,40}>|\[\/?INST\]|<\|im_start\|>/i,
    ],
    why: 'an <IMPORTANT>-style tag: orders dressed up as structure for the model',
  },
  {
    rule: 'override-instructions',
    severity: 'high',
    patterns: [
      /\b(ignore|disregard|forget|override)\b.{0,20}\b(all\s+)?(previous|prior|above|earlier|other|system|your)\b.{0,20}\b(instructions?|prompts?|rules|messages|guidelines)\b/is,
    ],
    why: 'tells the model to set aside its instructions',
  },
  {
    rule: 'conceal-from-user',
    severity: 'high',
    patterns: [
      /\b(do\s*n[o']t|never|without)\b.{0,20}\b(tell|telling|mention|mentioning|inform|informing|reveal|revealing|notify|notifying|show|showing|alert|alerting)\b.{0,20}\bthe\s+user\b|\bkeep\s+(this|it)\s+(secret|hidden|confidential)\b/is,
    ],
    why: 'tells the model to keep something from the user',
  },
  {
    rule: 'secret-place',
    severity: 'high',
    patterns: [
      /~[/\\]\.ssh\b|[/\\]\.ssh[/\\]|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws[/\\](credentials|config)\b|(^|[\s'"`(/\\=:])\.env\b|\.netrc\b|\.npmrc\b|\.pypirc\b|\.pgpass\b|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config\b|\bcredentials\.json\b|\/etc\/shadow\b/i,
      /\.config[/\\](gh|gcloud|hub)\b|\bapplication_default_credentials\.json\b|\.azure[/\\]|[~/\\]\.gnupg\b|\.password-store\b|\.vault-token\b|\/proc\/self\/environ\b|\.(bash|zsh)_history\b|\.terraform\.d[/\\]credentials|\.(cargo|gem)[/\\]credentials\b|\bwallet\.dat\b/i,
    ],
    why: 'names a file where secrets live (SSH keys, cloud and CLI credentials, .env files)',
  },
  {
    rule: 'role-marker',
    severity: 'high',
    patterns: [
      /^[ \t]*#{1,6}[ \t]*(system|assistant|developer)\b[^\n]{0,40}$/im,
      /\[(system|assistant|developer)( message| prompt)?\]|<<\s*sys\s*>>/i,
      /^[ \t]*(SYSTEM|ASSISTANT|DEVELOPER)( MESSAGE| PROMPT| INSTRUCTIONS?)?[ \t]*:/m,
      /\n[ \t]*\n[ \t]*(Human|Assistant):/,
    ],
    why: 'a fake "System:" or assistant block: a new turn of the conversation dressed up in text',
  },
  {
    rule: 'html-comment',
    severity: 'high',
    patterns: [/<!--(?:[^a-z-]|-(?!->)){0,64}[a-z]/i],
    why: 'an HTML comment: text a rendered view hides from the person reviewing it',
  },
  {
    // Wallet and crypto tools take keys as arguments for a living: worth showing, not holding.
    rule: 'key-material',
    severity: 'medium',
    patterns: [/\bprivate[\s_-]?keys?\b|\bseed\s+phrase\b|\bmnemonic\b/i],
    why: 'mentions private keys or seed phrases',
  },
  {
    rule: 'model-directive',
    severity: 'medium',
    patterns: [
      /\bbefore\s+(answering|responding|replying|using\s+any\s+other\s+tool)\b|\byou\s+must\s+(always|first|also)\b|\b(always|first|also)\s+(call|invoke|run)\s+(the\s+)?[`'"]?[A-Za-z][\w-]*_[\w-]+/i,
    ],
    why: 'gives the model orders about other steps of its work',
  },
];

export function phraseMatches(phrase: PhraseRule, text: string): boolean {
  return phrase.patterns.some((pattern) => pattern.test(text));
}
