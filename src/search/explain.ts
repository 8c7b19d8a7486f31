/**
 * C11 — why a tool was found: the evidence behind each hit, as plain data, and its text form for
 * `toolsearch search --explain` and the library's `explain` option. A user reads it to see why a
 * tool was or was not found and to fix the tool's description.
 */

/** One query term's contribution to a hit. */
export interface TermEvidence {
  /** The index term (a Porter stem). */
  readonly term: string;
  /** Where the term came from: the query itself, a synonym, or a rare-word expansion. */
  readonly origin: string;
  /** Weight of the term in the query (1 for the query's own words). */
  readonly weight: number;
  /** Fields of the tool the term was found in: name, server, hint, description, params, paramDescriptions. */
  readonly fields: readonly string[];
  /** Its part of the tool's lexical score. */
  readonly score: number;
}

/** C14: why the embedding side of a fusion got its weight for a query (src/search/fusion.ts decides). */
export type FusionGate = 'weak-lexical' | 'agree' | 'disagree';

export interface HitExplanation {
  /** Model-facing tool name. */
  readonly name: string;
  /** 1-based rank in the result. */
  readonly rank: number;
  /** How the hit was found: keyword ranking, select:, exact name, server prefix, regex, bm25. */
  readonly how: string;
  /** Final ranking score (keyword rankers). */
  readonly score?: number;
  readonly terms?: readonly TermEvidence[];
  /** Server-level evidence: the server's tools (and its own description) matched these terms. */
  readonly server?: { readonly name: string; readonly score: number; readonly terms: readonly string[] };
  /**
   * C14: the literal name match: the tool's own name parts (server prefix dropped), those the
   * query's words name, and what the rule added.
   */
  readonly nameMatch?: {
    readonly parts: readonly string[];
    readonly matched: readonly string[];
    readonly score: number;
    /** Matched parts the request names through a synonym of one of its words ("directori (for folder)"). */
    readonly bySynonym?: readonly string[];
  };
  /** C15: what the tool's server says about itself (title, instructions) matched the request, which lifted it by `score`. */
  readonly serverText?: { readonly name: string; readonly score: number };
  /** C14: the request names this tool's server ("in Notion"), which lifted it by `score`. */
  readonly serverNamed?: { readonly name: string; readonly score: number };
  /**
   * C14: the request asks to see — it is a question, or a short request that names no action —
   * and this tool's name is a change (create, push, reply …), so its score was multiplied by `factor`.
   */
  readonly question?: { readonly factor: number; readonly because?: 'question' | 'no action' };
  /**
   * C15: the tool's action (from its name's verbs) disagrees with the request's, or destroys
   * something the request did not ask to, so its score was multiplied by `factor`.
   */
  readonly action?: {
    readonly tool: string;
    /** The request's actions ("create", "read or update"); empty when it names none. */
    readonly request: string;
    readonly verdict: 'disagrees' | 'destroys';
    readonly factor: number;
  };
  /** Clause evidence: the clause of a multi-step task this tool answers best. */
  readonly clause?: { readonly text: string; readonly score: number };
  /** With an embedder: the tool's rank by embedding similarity and in the lexical ranking (1-based). */
  readonly embedding?: {
    readonly rank?: number;
    readonly lexicalRank?: number;
    /** C14: the fusion gate's verdict for the query and the embedding side's weight (0 = not counted). */
    readonly gate?: FusionGate;
    readonly weight?: number;
  };
  /** C13: earlier searches like this one that led to this tool (similarity 0–1 of the closest). */
  readonly learned?: { readonly searches: number; readonly similarity: number };
  /** C13: what the words of earlier searches that led to this tool added to its score (the ranker's units, as the server and clause evidence). */
  readonly learnedWords?: number;
}

function round(n: number): string {
  return n.toFixed(2);
}

/** Why a literal name match won or lost: how much of the tool's name the query spells out. */
export function nameMatchLine(m: NonNullable<HitExplanation['nameMatch']>): string {
  const name = m.parts.join(' ');
  if (m.matched.length === 0) return `name match: none of the name's words (${name}) is in the query, no bonus`;
  const share = `${m.matched.length} of ${m.parts.length}`;
  const note = m.bySynonym && m.bySynonym.length > 0 ? `; by synonym: ${m.bySynonym.join(', ')}` : '';
  return m.score > 0
    ? `name match: +${round(m.score)}, the query names ${share} of the name's words (${m.matched.join(', ')} of ${name})${note}`
    : `name match: the query names ${share} of the name's words (${m.matched.join(', ')} of ${name}), too few for a bonus${note}`;
}

/** The lines `--explain` prints under a hit (indented by the caller). */
export function formatExplanation(e: HitExplanation): string[] {
  const lines: string[] = [];
  lines.push(`${e.how}${e.score !== undefined ? `, score ${round(e.score)}` : ''}`);
  if (e.terms && e.terms.length > 0) {
    const parts = e.terms.map((t) => {
      const from = t.origin === 'query' ? '' : ` [${t.origin}]`;
      return `${t.term} in ${t.fields.join('+') || '—'} (${round(t.score)})${from}`;
    });
    lines.push(`terms: ${parts.join('; ')}`);
  } else if (e.how === 'keyword ranking') {
    lines.push('terms: none of the query words is in this tool');
  }
  if (e.server && e.server.score > 0)
    lines.push(
      `server evidence: +${round(e.server.score)} from server "${e.server.name}" (${e.server.terms.join(', ')})`,
    );
  if (e.serverText)
    lines.push(
      `server's own text: +${round(e.serverText.score)}, what server "${e.serverText.name}" says about itself matches`,
    );
  if (e.serverNamed)
    lines.push(`server named: +${round(e.serverNamed.score)}, the request names the server "${e.serverNamed.name}"`);
  if (e.nameMatch) lines.push(nameMatchLine(e.nameMatch));
  if (e.question)
    lines.push(
      e.question.because === 'no action'
        ? `no action: the request names a thing and no action, and this tool's name is a change, so its score counts ×${e.question.factor}`
        : `question: the request asks to know and this tool's name is a change, so its score counts ×${e.question.factor}`,
    );
  if (e.action) lines.push(actionLine(e.action));
  if (e.clause && e.clause.score > 0) lines.push(`clause evidence: +${round(e.clause.score)} for "${e.clause.text}"`);
  if (e.learned) {
    const n = e.learned.searches;
    lines.push(
      `learned: ${n} earlier search${n === 1 ? '' : 'es'} like this led here (similarity ${round(e.learned.similarity)})`,
    );
  }
  if (e.learnedWords !== undefined)
    lines.push(`learned: words of earlier searches that led here add +${round(e.learnedWords)}`);
  if (e.embedding) {
    const emb = e.embedding.rank !== undefined ? `embedding rank ${e.embedding.rank}` : 'not in the embedding top 50';
    const lex =
      e.embedding.lexicalRank !== undefined ? `lexical rank ${e.embedding.lexicalRank}` : 'not in the lexical list';
    lines.push(`${emb}, ${lex}${e.embedding.gate ? ` (${gateText(e.embedding.gate, e.embedding.weight ?? 0)})` : ''}`);
  }
  return lines;
}

/** C15: "action disagrees: delete for a request to create, score ×0.6". */
function actionLine(a: NonNullable<HitExplanation['action']>): string {
  const asked = a.request === '' ? 'a request that names no action' : `a request to ${a.request}`;
  const what = a.verdict === 'destroys' ? 'destructive action unasked' : 'action disagrees';
  return `${what}: ${a.tool} for ${asked}, so its score counts ×${a.factor}`;
}

/** C14: why the embedding ranking counted as much as it did for this query. */
function gateText(gate: FusionGate, weight: number): string {
  if (gate === 'disagree') return 'embedding not counted: its top tools are not among the keyword top hits';
  const why = gate === 'agree' ? 'its top tools are among the keyword top hits' : 'the keyword match is weak';
  return `embedding weight ${weight}: ${why}`;
}
